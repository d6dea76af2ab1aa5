import FolioCLITestSupport
import Foundation
import XCTest

/// The launcher with a template source on a server that accepts the connection and never answers. Each test runs
/// `stty -g >before; folio; echo FOLIO-EXIT=$?; stty -g >after; sleep 30` in a tmux pane and checks what a user sees:
/// the launcher stays full screen and in raw mode while the network waits, Esc stops the wait within a second, and
/// the terminal is as it was after quitting. The timeout is the default 30 s, so only Esc (or a removal) ends a wait.
final class SilentSourceLauncherTests: TmuxTestCase {
    override var session: String { "r" }
    override var defaultTimeout: TimeInterval { 20 }
    override var capturesJoinedLines: Bool { true }
    var server: SilentServer!
    var before: URL { dir.path("stty-before") }
    var after: URL { dir.path("stty-after") }
    var tty = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try SilentServer()
        let settings = dir.path("home/.config/folio/settings.json")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"templateSources": [{"name": "silent", "url": "git://\#(server.address)/templates.git"}]}"#.utf8).write(to: settings)
    }

    override func tearDown() {
        super.tearDown()  // folio and its tmux server first, then the server it was talking to
        server = nil
    }

    func testUpdateTemplatesFromASilentSourceStaysInTheLauncherAndEscCancelsItWithinASecond() throws {
        // Given the launcher, full screen and raw, while the silent source loads
        try startLauncher()
        let raw = try sttyOfPane()
        // When Update Templates runs (u) against the silent source
        let connectionsBefore = server.acceptedConnections
        try keys("u")
        waitFor(text: "folio templates update: fetching silent (git://\(server.address)/templates.git) (esc cancels)")
        XCTAssertTrue(waitUntil { self.server.acceptedConnections > connectionsBefore }, "the update never reached the server")
        // Then, while it waits on the server, the launcher keeps the screen and the terminal stays raw
        XCTAssertEqual(display("#{alternate_on}"), "1", "the launcher left the full screen")
        XCTAssertEqual(try sttyOfPane(), raw, "the terminal left raw mode")
        XCTAssertTrue(capture().contains("(esc cancels)"))
        // When Esc is pressed
        let pressed = Date()
        try keys("Escape")
        let screen = waitFor(text: "✗ folio templates update: silent: cancelled", timeout: 5)  // the command named once
        // Then the update ends within a second, the launcher is still there, and the terminal still raw
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 1.2)
        XCTAssertTrue(screen.contains("Update Templates") && screen.contains("Choose a Template"), screen)
        XCTAssertEqual(display("#{alternate_on}"), "1")
        XCTAssertEqual(try sttyOfPane(), raw)
        // And quitting leaves the terminal as it was before the launcher started
        try quitAndCheckTheTerminal()
    }

    func testEscStopsLoadingASilentSourceWithinASecond() throws {
        // Given the launcher loading the silent source: the bottom line says which URL it fetches
        try startLauncher()
        waitFor(text: "silent: fetching git://\(server.address)/templates.git · esc stops")
        XCTAssertTrue(waitUntil { self.server.openConnections == 1 }, "the source never connected")
        // When Esc is pressed on the launcher
        let pressed = Date()
        try keys("Escape")
        // Then within a second the connection is closed and the source is marked failed
        XCTAssertTrue(waitUntil(seconds: 5) { self.server.openConnections == 0 }, "the fetch still waits")
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 1.2)
        waitFor(text: "1 template source failed", timeout: 5)
        try keys("t")
        waitFor(text: "silent: cancelled", timeout: 5)
        try keys("Escape")
        try quitAndCheckTheTerminal()
    }

    func testRemovingASilentSourceInSettingsStopsItsLoading() throws {
        // Given the launcher loading the silent source
        try startLauncher()
        XCTAssertTrue(waitUntil { self.server.openConnections == 1 }, "the source never connected")
        // When the source is removed in Settings (, then Tab to the source field, "-silent", ⏎)
        try keys(",")
        waitFor(text: "Settings")
        for _ in 0..<5 { try keys("Tab") }
        try keys("-l", "--", "-silent")
        let saved = Date()
        try keys("Enter")
        // Then its fetch stops within a second (the server sees the connection closed), and it is saved
        XCTAssertTrue(waitUntil(seconds: 5) { self.server.openConnections == 0 }, "the removed source's fetch still waits")
        XCTAssertLessThan(Date().timeIntervalSince(saved), 1.2)
        waitFor(text: "Saved", timeout: 5)
        let settings = try String(contentsOf: dir.path("home/.config/folio/settings.json"), encoding: .utf8)
        XCTAssertFalse(settings.contains("silent"), settings)
        try keys("Escape")
        try quitAndCheckTheTerminal()
    }

    // MARK: Helpers

    /// Starts `folio` (the launcher) in a pane and waits for its menu.
    func startLauncher() throws {
        let script = "stty -g >'\(before.path)'; '\(folioExecutable.path)'; echo FOLIO-EXIT=$?; stty -g >'\(after.path)'; sleep 30"
        try startShell(script, width: 160, height: 30, cwd: dir.url)
        tty = display("#{pane_tty}")
        waitFor(text: "Update Templates")
        XCTAssertEqual(display("#{alternate_on}"), "1")
    }

    /// Quits with ^Q and checks the shell's terminal settings are as before and the main screen is back.
    func quitAndCheckTheTerminal(file: StaticString = #filePath, line: UInt = #line) throws {
        try keys("C-q")
        let screen = waitFor("folio to exit", timeout: 10, file: file, line: line) { screen in
            screen.contains("FOLIO-EXIT=") && ((try? String(contentsOf: self.after, encoding: .utf8)) ?? "").hasSuffix("\n")
        }
        XCTAssertTrue(screen.contains("FOLIO-EXIT=0"), screen, file: file, line: line)
        XCTAssertEqual(try String(contentsOf: after, encoding: .utf8), try String(contentsOf: before, encoding: .utf8),
                       "stty -g after folio differs from before", file: file, line: line)
        XCTAssertEqual(display("#{alternate_on}"), "0", file: file, line: line)
    }

    func sttyOfPane() throws -> String { try runProgram("stty", ["-g", "-F", tty]).stdout }

    func waitUntil(seconds: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

}
