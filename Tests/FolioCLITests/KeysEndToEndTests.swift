import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The real `folio` in tmux: Esc never quits or closes, a form at 60×16 scrolls to its last field, and a text
/// field's editing keys round-trip into a commit. Every wait is bounded; the tmux server is killed in tearDown.
final class KeysEndToEndTests: XCTestCase {
    var tmuxPath = ""
    var socket = ""
    var dir: TemporaryDirectory!
    var env: [String: String] = [:]
    var docs: URL { dir.path("docs") }

    override func setUpWithError() throws {
        guard let path = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("tmux is not installed (Debian package tmux)")
        }
        guard FileManager.default.isExecutableFile(atPath: folioExecutable.path) else { throw XCTSkip("folio is not built at \(folioExecutable.path)") }
        tmuxPath = path
        socket = "folio-keys-\(getpid())-\(UUID().uuidString.prefix(8))"
        dir = TemporaryDirectory("folio-keys")
        env = dir.environment(["TERM": "xterm-256color"])
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if !socket.isEmpty { _ = try? tmux(["kill-server"]) }
        super.tearDown()
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> TmuxResult {
        try runTmux(tmuxPath, socket: socket, environment: env, scratch: dir.url, arguments)
    }

    func start(_ folioArguments: [String], width: Int = 100, height: Int = 30) throws {
        let quoted = ([folioExecutable.path] + folioArguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = quoted.joined(separator: " ") + "; echo FOLIO-EXIT=$?; sleep 30"
        let flags = env.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        let result = try tmux(["new-session", "-d", "-s", "keys", "-x", String(width), "-y", String(height), "-c", docs.path] + flags + [command])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func capture() -> String { (try? tmux(["capture-pane", "-p", "-t", "keys:0"]))?.stdout ?? "" }
    func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", "keys:0"] + keys) }
    func type(_ text: String) throws { try tmux(["send-keys", "-t", "keys:0", "-l", text]) }

    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 8, file: StaticString = #filePath, line: UInt = #line, _ predicate: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        repeat {
            screen = capture()
            if predicate(screen) { return screen }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        XCTFail("timed out waiting for \(what); the pane shows:\n\(screen)", file: file, line: line)
        return screen
    }

    @discardableResult
    func waitFor(text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        waitFor("“\(text)”", file: file, line: line) { $0.contains(text) }
    }

    /// Sends `key` and waits until the frame has settled (the screen is the same twice, 150 ms apart).
    func settled() -> String {
        var last = capture()
        for _ in 0..<40 {
            Thread.sleep(forTimeInterval: 0.15)
            let now = capture()
            if now == last { return now }
            last = now
        }
        return last
    }

    func testGivenTheLauncherAndTheEditorWhenEscIsPressedThenNeitherQuitsNorClosesAndQQuits() throws {
        let created = runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        try start(["open", docs.appendingPathComponent("list").path, "--scene", "keys-esc"])
        waitFor(text: "(0/13 done)")
        // The editor: Esc twice keeps the document open and says how to close it.
        try keys("Escape")
        try keys("Escape")
        let editor = waitFor(text: "^W closes the document")
        XCTAssertTrue(editor.contains("(0/13 done)"), editor)
        // ^W closes it: the launcher. Esc there keeps the launcher and says how to quit.
        try keys("C-w")
        waitFor(text: "New Document")
        try keys("Escape")
        let launcher = waitFor(text: "q or ^Q quits")
        XCTAssertFalse(launcher.contains("FOLIO-EXIT"), launcher)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertFalse(capture().contains("FOLIO-EXIT"), "Esc did not quit")
        try keys("q")
        waitFor(text: "FOLIO-EXIT=0")
    }

    func testGivenA60x16TerminalWhenTabbingThroughTheSwiftPackageFormThenTheLastFieldIsShownFocused() throws {
        try start(["launch", "--scene", "keys-form"], width: 60, height: 16)
        waitFor(text: "New Document")
        try keys("t")
        waitFor(text: "Swift package")
        try type("swift")
        waitFor(text: "Filter: swift")
        // The best match first (issue 23): the template named so, before the plugin whose summary says "Swift package".
        waitFor("the filtered picker") { $0.contains("▸ Swift package") }
        try keys("Enter")
        waitFor(text: "New from")
        var screen = settled()
        for _ in 0..<30 where !screen.contains("▸ Destination") {
            try keys("Tab")
            screen = settled()
        }
        XCTAssertTrue(screen.contains("▸ Destination"), "the last field is on screen and focused:\n\(screen)")
        XCTAssertTrue(screen.contains("Package name") || screen.contains(" of "),
                      "every field is shown, or the title bar says which are:\n\(screen)")
        // Shorter still: the form scrolls, the focused last field stays shown and the title bar says which are.
        try tmux(["resize-window", "-t", "keys:0", "-x", "60", "-y", "10"])
        let short = waitFor("the form scrolled at 60×10") { $0.contains("▸ Destination") && $0.contains("of 9") }
        XCTAssertFalse(short.contains("Package name"), short)
        try keys("BTab")
        waitFor("the focus back on the field before") { $0.contains("▸ Add documentation") }
        try keys("C-q")
        waitFor(text: "FOLIO-EXIT=0")
    }

    func testGivenThePromptWhenEditingWithCursorKeysThenTheCommittedItemIsTheEditedText() throws {
        let created = runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("list")
        try start(["open", document.path, "--scene", "keys-field"])
        waitFor(text: "(0/13 done)")
        try keys("a")
        waitFor(text: "Add item — Title:")
        // Typed, cleared, inserted before, deleted by word, by character and to the end, typed again.
        try type("junk")
        try keys("C-u")
        try type("milk")
        try keys("Home")
        try type("寿司 Oat ")
        try keys("End")
        try type(" xyz")
        try keys("C-w")       // deletes "xyz"
        try keys("BSpace")    // deletes the space
        try keys("Left", "Left", "Left", "Left", "C-k")  // cuts "milk"
        try type("milk")
        waitFor(text: "Add item — Title: 寿司 Oat milk")
        try keys("Enter")
        waitFor(text: "(0/14 done)")
        let shown = runFolio(["view", document.path, "--height", "40"], environment: env, cwd: docs).stdout
        XCTAssertTrue(shown.contains("14 [ ] 寿司 Oat milk"), shown)
        try keys("C-q")
        waitFor(text: "FOLIO-EXIT=0")
    }
}
