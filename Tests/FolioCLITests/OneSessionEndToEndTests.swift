import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The real `folio` in tmux keeps one terminal session for the whole run: keys typed while one screen gives way to
/// the next (launcher → editor) are acted on by the next screen, and nothing of them (nor of any frame) is left on
/// the shell's screen after ^Q. Every wait is bounded; the tmux server is killed in tearDown.
final class OneSessionEndToEndTests: TmuxTestCase {
    override var session: String { "one" }
    override var defaultTimeout: TimeInterval { 8 }
    override var paneShowsTerminalSettings: Bool { false }

    /// Starts `folio ARGUMENTS` in a pane after a marker line on the shell's screen.
    override func start(_ folioArguments: [String], width: Int = 100, height: Int = 30, cwd: URL? = nil) throws {
        try startShell("echo SHELL-BEFORE; " + paneCommand(folioArguments), width: width, height: height, cwd: cwd)
    }

    /// Quits with ^Q and returns the shell's (main) screen once folio has exited, with the alternate screen off.
    func quitAndCaptureShellScreen(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try keys("C-q")
        let screen = waitFor("folio to exit", file: file, line: line) { $0.contains("FOLIO-EXIT=") }
        let alternate = try tmux(["display-message", "-p", "-t", target, "#{alternate_on}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(alternate, "0", "the capture is of the shell's screen", file: file, line: line)
        return screen.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Sends each key on its own, a few milliseconds apart, as a fast typist would while the next screen opens.
    func typeThroughTheTransition(_ sequence: [String]) throws {
        for key in sequence {
            try keys(key)
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    // MARK: Tests

    func testGivenTheLauncherWhenKeysAreTypedRightAfterEnterOpensADocumentThenTheEditorActsOnThemAndTheShellScreenStaysClean() throws {
        // Given: the launcher, the groceries list selected in Recent.
        let document = createDocument("list")
        try start(["open", document.path, "--scene", "one-open"], until: "(0/13 done)")
        try press("C-w", until: "New Document")
        try press("r", until: "▸ Groceries")
        // When: Enter opens it, and ↓ ↓ Space are typed while the editor is still opening.
        try typeThroughTheTransition(["Enter", "Down", "Down", "Space"])
        // Then: the editor acted on every key (the third item is checked, one commit) …
        let editor = waitFor("the third item checked") { $0.contains("(1/13 done)") }
        XCTAssertTrue(editor.contains("3 [x] Bread"), editor)
        // … and after ^Q the shell's screen has only the shell's own lines: no echoed key, no piece of a frame.
        let shell = try quitAndCaptureShellScreen()
        XCTAssertEqual(shell, ["SHELL-BEFORE", "FOLIO-EXIT=0"], shell.joined(separator: "\n"))
    }

    func testGivenKeysTypedAcrossEveryScreenChangeWhenQuittingThenNoRemnantIsLeftOnTheShellScreen() throws {
        // Given: a document, opened and closed from the launcher three times, with keys typed through each change
        // (keys that a cooked terminal echoes as ^[[B, ^[[A and letters, and that the screens themselves ignore or
        // undo).
        let document = createDocument("list")
        try start(["open", document.path, "--scene", "one-remnants"], until: "(0/13 done)")
        for round in 1...3 {
            try typeThroughTheTransition(["C-w", "Down", "Up", "Down", "Up"])
            waitFor("the launcher, round \(round)") { $0.contains("New Document") }
            try press("r", until: "▸ Groceries")
            try typeThroughTheTransition(["Enter", "Down", "Up", "Down", "Up"])
            waitFor("the editor, round \(round)") { $0.contains("(0/13 done)") && $0.contains("> 1 [ ] Milk") }
        }
        // When: ^Q quits.
        let shell = try quitAndCaptureShellScreen()
        // Then: the shell's screen shows what the shell printed and nothing else.
        XCTAssertEqual(shell, ["SHELL-BEFORE", "FOLIO-EXIT=0"], shell.joined(separator: "\n"))
    }

    func testGivenTheEditorAndHistoryWhenUnboundKeysArePressedThenEachSaysWhatToPress() throws {
        // Given the groceries list open in the editor
        let document = createDocument("list")
        try start(["open", document.path, "--scene", "one-hints"], until: "(0/13 done)")
        // When u, q and x are pressed, each says what to press instead (and q does not quit)
        try press("u", until: "undo is ^Z (redo ^Y)")
        try press("q", until: "q does nothing here: ^W closes the document, ^Q quits")
        try press("x", until: "x does nothing here: ? lists the keys, ^P the commands")
        // And in History, ^P and ^W say where they work
        try press("C-g", until: "Create from checklist/groceries")
        try press("C-p", until: "no command palette in History: esc goes back to the editor, ^P there")
        try press("C-w", until: "^W closes the document from the editor: esc goes back to it first")
        // Then hints are not messages: the message log has none.
        try press("Escape", until: "(0/13 done)")
        try press("M", until: "No messages yet.")
        try keys("Escape")
        let shell = try quitAndCaptureShellScreen()
        XCTAssertEqual(shell, ["SHELL-BEFORE", "FOLIO-EXIT=0"], shell.joined(separator: "\n"))
    }

    func testGivenARefusedCommandAt60ColumnsWhenTheMessageLogIsOpenedThenItShowsTheMessageWithItsTime() throws {
        // Given the groceries list at 60×16 and a move to a place that is not there
        let document = createDocument("list")
        try start(["open", document.path, "--scene", "one-log"], until: "(0/13 done)", width: 60, height: 16)
        try press("m", until: "Move item — To")
        try tmux(["send-keys", "-t", "one:0", "-l", "99"])
        try keys("Enter")
        // When the form refuses the value (the same check the CLI makes, in words), M opens the log with it and its time
        waitFor(text: "✗ To 99 is out of range 1…13")
        try keys("Escape")  // the prompt, kept open with its answer, closes
        waitFor("the prompt closed") { !$0.contains("Move item — To") }
        try keys("M")
        let log = waitFor(text: "Messages (1)")
        XCTAssertNotNil(log.range(of: #"\d\d:\d\d:\d\d ✗ To 99 is out of range 1…13"#, options: .regularExpression), log)
        try keys("Escape")
        waitFor("the log closed") { !$0.contains("Messages (1)") }
        try press("C-q", until: "FOLIO-EXIT=0")
    }
}
