import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// Drives the real `folio` program in tmux panes: keys in with `send-keys`, screens out with `capture-pane`.
/// Each pane runs `folio …; echo FOLIO-EXIT=$?; stty -a; sleep 30` so the exit status and the terminal settings
/// after folio has gone can be read from the pane. Every wait is bounded; the tmux server is killed in tearDown.
final class TerminalEndToEndTests: TmuxTestCase {

    override var defaultTimeout: TimeInterval { 5 }

    func folioLog(_ path: URL) -> [String] {
        runFolio(["log", path.path], environment: env, cwd: docs).stdout.split(separator: "\n").map(String.init)
    }

    // MARK: Tests

    func testTemplateFormEditorCommandAndQuitRestoresTheTerminal() throws {
        try start(["launch", "--scene", "e2e-main"], until: "Choose a Template")
        try press("t", until: "Grocery list")
        try type("groc")
        waitFor("the filtered picker") { $0.contains("▸ Grocery list") && $0.contains("Filter: groc") }
        try press("Enter", until: "Destination")
        // Title (default), two yes/no questions, the destination: Enter on the last field creates.
        for _ in 0..<4 { try keys("Enter") }
        let editor = waitFor(text: "(0/13 done)")
        XCTAssertTrue(editor.contains("> 1 [ ] Milk"), editor)
        XCTAssertTrue(editor.contains("org.folio.checklist"), editor)
        XCTAssertTrue(editor.contains("Create from checklist/groceries"), "status line shows the latest commit:\n\(editor)")
        let document = docs.appendingPathComponent("grocery-list")
        XCTAssertTrue(FileManager.default.fileExists(atPath: document.appendingPathComponent(".folio").path))

        // Toggle the item under the cursor: one commit.
        try keys("Down", "Space")
        let toggled = waitFor(text: "(1/13 done)")
        XCTAssertTrue(toggled.contains("2 [x] Eggs"), toggled)
        let log = folioLog(document)
        XCTAssertEqual(log.count, 2, log.joined(separator: "\n"))
        XCTAssertTrue(log.first?.contains("Eggs") ?? false, log.joined(separator: "\n"))

        // A text argument is asked in the prompt; Esc cancels with nothing committed.
        try press("a", until: "Add item — Title:")
        try type("Oat milk")
        try keys("Escape")
        waitFor("the prompt to close") { !$0.contains("Add item — Title:") }
        XCTAssertEqual(folioLog(document).count, 2)
        try press("a", until: "Add item — Title:")
        try type("Oat milk")
        try press("Enter", until: "14 [ ] Oat milk")
        XCTAssertEqual(folioLog(document).count, 3)

        // A plugin error is one line in the status area and commits nothing.
        try press("m", until: "Move item — To (1 or more):")
        try type("zz")
        try keys("Enter")
        waitFor(text: "✗ To must be a whole number of at least 1, got 'zz'")  // checked as entered, from the usage
        try keys("BSpace", "BSpace")
        try type("99")
        try keys("Enter")
        waitFor(text: "✗ To 99 is out of range 1…14")  // the editor's refusal, on the field it names, by its label
        XCTAssertEqual(folioLog(document).count, 3)

        // The refused prompt keeps its text, so ^Q asks once before losing it.
        try press("C-q", until: "^Q again quits")
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testEscapeFromThePickerAndTheFormCreatesNothing() throws {
        try start(["launch", "--scene", "e2e-esc"], until: "Choose a Template")
        try press("t", until: "Grocery list")
        try keys("Escape")
        waitFor("the launch screen") { $0.contains("New Document") && !$0.contains("Filter:") }
        try press("t", until: "Grocery list")
        try press("Enter", until: "Destination")
        try keys("Escape")  // a template's form goes back to the picker (issue 23), Esc there to the launcher
        waitFor("the picker") { $0.contains("Filter:") && !$0.contains("Destination") }
        try keys("Escape")
        waitFor("the launch screen") { $0.contains("New Document") && !$0.contains("Destination") }
        try press("n", until: "Destination")
        try keys("Escape")
        waitFor("the launch screen") { $0.contains("New Document") && !$0.contains("Destination") }
        try keys("Escape")  // Esc on the launch screen never quits: it says how to.
        waitFor(text: "q or ^Q quits")
        try keys("q")
        assertRestored(status: 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: docs.path), [])
    }

    func testSIGTERMRestoresTheTerminal() throws {
        let document = createDocument("list")
        try start(["open", document.path, "--scene", "e2e-term"], until: "(0/13 done)")
        let panePID = try tmux(["display-message", "-p", "-t", "e2e:0", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try runProgram("pgrep", ["-P", panePID, "-x", "folio"]).stdout.split(separator: "\n")
        guard let pid = children.first.flatMap({ Int32($0) }) else { return XCTFail("no folio process under pane \(panePID)") }
        XCTAssertEqual(kill(pid, SIGTERM), 0)
        assertRestored(status: 128 + SIGTERM)
    }

    func testTwoWindowsOnOneDocumentShareChangesAndKeepTheirOwnState() throws {
        let document = createDocument("shared")
        let right = try openInTwoWindows(document, scenes: "left", "right", until: "(0/13 done)")
        // Move the right window's cursor to item 3 and toggle it there.
        try press("Down", "Down", until: "> 3 [ ] Bread", target: right)
        try press("Space", until: "(1/13 done)", target: right)
        let shown = Date()
        let left = waitFor(text: "(1/13 done)", timeout: 3)
        XCTAssertLessThan(Date().timeIntervalSince(shown), 1.0, "the other window shows the change within a second")
        XCTAssertTrue(left.contains("> 1 [ ] Milk"), "the left window keeps its own cursor:\n\(left)")
        XCTAssertTrue(left.contains("3 [x] Bread"), left)

        // Each window's state is saved under its scene id and restored when that scene is opened again.
        try keys("C-q", target: right)
        assertRestored(status: 0, target: right)
        _ = try tmux(["kill-window", "-t", right])
        let again = try startWindow(["launch", "--scene", "right"])
        let restored = waitFor(text: "(1/13 done)", target: again)
        XCTAssertTrue(restored.contains("> 3 [x] Bread"), "the right scene reopens its document with its cursor:\n\(restored)")
        try keys("C-q", target: again)
        try keys("C-q")
        assertRestored(status: 0)
    }
}

/// The launcher's benchmark hooks run and stay within their targets (generous bounds: debug build, shared cores).
final class TerminalEndToEndBenchmarkTests: XCTestCase {
    func testFirstFrameAndTenThousandItemEditorFrame() throws {
        let dir = TemporaryDirectory("folio-bench")
        let env = dir.environment()
        let first = try LaunchBenchmarks.firstFrame(environment: env, workingDirectory: dir.url)
        XCTAssertLessThan(first, .milliseconds(500), "time to first frame")

        XCTAssertEqual(runFolio(["new", "big", "--type", "org.folio.checklist"], environment: env, cwd: dir.url).status, 0)
        let items = (1...10_000).map { #"{"title": "Item \#($0)", "checked": false}"# }.joined(separator: ",\n")
        try dir.write("big.json", #"{"title": "Big", "items": [\#(items)]}"#)
        let written = runFolio(["write", "big", "checklist.json", "--from", "big.json"], environment: env, cwd: dir.url)
        XCTAssertEqual(written.status, 0, written.stderr)
        let frame = try LaunchBenchmarks.editorFrame(document: dir.path("big"), frames: 50, environment: env)
        print("launch first frame: \(first), 10,000-item editor frame: \(frame)")
        XCTAssertLessThan(frame, .milliseconds(100), "editor frame time")
    }
}
