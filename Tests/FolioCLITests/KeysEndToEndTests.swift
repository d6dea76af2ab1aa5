import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The real `folio` in tmux: Esc never quits or closes, a form at 60×16 scrolls to its last field, and a text
/// field's editing keys round-trip into a commit. Every wait is bounded; the tmux server is killed in tearDown.
final class KeysEndToEndTests: TmuxTestCase {
    override var session: String { "keys" }
    override var defaultTimeout: TimeInterval { 8 }
    override var paneShowsTerminalSettings: Bool { false }

    func testGivenTheLauncherAndTheEditorWhenEscIsPressedThenNeitherQuitsNorClosesAndQQuits() throws {
        let document = createDocument("list")
        try start(["open", document.path, "--scene", "keys-esc"], until: "(0/13 done)")
        // The editor: Esc twice keeps the document open and says how to close it.
        try keys("Escape")
        try keys("Escape")
        let editor = waitFor(text: "^W closes the document")
        XCTAssertTrue(editor.contains("(0/13 done)"), editor)
        // ^W closes it: the launcher. Esc there keeps the launcher and says how to quit.
        try press("C-w", until: "New Document")
        // (Esc while the templates load stops the loading: the innermost thing going on. Wait until they are in.)
        waitFor("the templates loaded") { $0.contains("Recent") && !$0.contains("Loading templates") }
        try keys("Escape")
        let launcher = waitFor(text: "q or ^Q quits")
        XCTAssertFalse(launcher.contains("FOLIO-EXIT"), launcher)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertFalse(capture().contains("FOLIO-EXIT"), "Esc did not quit")
        try press("q", until: "FOLIO-EXIT=0")
    }

    func testGivenTheEditorWhenCommaQAndMAreUsedThenSettingsOpensAndHistoryAndTheLogCloseWithQ() throws {
        let document = createDocument("list")
        try start(["open", document.path, "--scene", "keys-one-meaning"], until: "(0/13 done)")
        // , opens Settings from the editor, as it does on the launcher; esc goes back
        try press(",", until: "Author name")
        try press("Escape", until: "(0/13 done)")
        // q leaves the history browser (as in tig)
        try press("C-g", until: "History — ")
        try press("q", until: "(0/13 done)")
        // q closes the message log
        try press("M", until: "No messages yet.")
        try keys("q")
        waitFor("the log closed") { !$0.contains("No messages yet.") && $0.contains("(0/13 done)") }
        try press("C-q", until: "FOLIO-EXIT=0")
    }

    func testGivenA60x16TerminalWhenTabbingThroughTheSwiftPackageFormThenTheLastFieldIsShownFocused() throws {
        try start(["launch", "--scene", "keys-form"], until: "New Document", width: 60, height: 16)
        try press("t", until: "Swift package")
        try type("swift", until: "Filter: swift")
        // The best match first (issue 23): the template named so, before the plugin whose summary says "Swift package".
        waitFor("the filtered picker") { $0.contains("▸ Swift package") }
        try press("Enter", until: "New from")
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
        try press("C-q", until: "FOLIO-EXIT=0")
    }

    func testGivenThePromptWhenEditingWithCursorKeysThenTheCommittedItemIsTheEditedText() throws {
        let document = createDocument("list")
        try start(["open", document.path, "--scene", "keys-field"], until: "(0/13 done)")
        try press("a", until: "Add item — Title:")
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
        try type("milk", until: "Add item — Title: 寿司 Oat milk")
        try press("Enter", until: "(0/14 done)")
        let shown = runFolio(["view", document.path, "--height", "40"], environment: env, cwd: docs).stdout
        XCTAssertTrue(shown.contains("14 [ ] 寿司 Oat milk"), shown)
        try press("C-q", until: "FOLIO-EXIT=0")
    }
}
