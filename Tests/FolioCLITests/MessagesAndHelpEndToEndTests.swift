import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// Messages and help, through the real `folio` in tmux: a failed template update said
/// once and in full, "(1 template)", History's refusal and restore confirmation on the status row, a hint for ^P in
/// the file view, help's End scrolling, F1 opening the prompt's or the form's section, and a palette that keeps its
/// place as its list shrinks.
final class MessagesAndHelpEndToEndTests: EndToEndTmuxTestCase {
    /// The rows of the message at the bottom of the launcher, from the row starting with `start`, joined.
    func bottomMessage(_ screen: String, from start: String) -> [String] {
        let all = rows(screen)
        guard let at = all.lastIndex(where: { $0.hasPrefix(start) }) else { return [] }
        return Array(all[at...]).filter { !$0.isEmpty }
    }

    func testGivenAnUnreachableTemplateSourceWhenTemplatesAreUpdatedFromTheLauncherThenTheFailureIsSaidOnceAndInFull() throws {
        // Given a template source nobody answers at (a closed loopback port)
        folio(["templates", "add", "team", "http://127.0.0.1:1/none.git"])
        try start(["launch", "--scene", "i23-update"], until: "Update Templates")
        // When `u` updates the templates
        try keys("u")
        // Then the failure is one message, its prefix said once, wrapped rather than cut
        let screen = waitFor(text: "cannot fetch http://127.0.0.1:1/none.git")
        XCTAssertFalse(screen.contains("folio templates update: folio templates:"), screen)
        let message = bottomMessage(screen, from: " ✗ folio templates update")
        XCTAssertFalse(message.isEmpty, screen)
        XCTAssertFalse(message.contains { $0.hasSuffix("…") }, "the message is cut:\n\(screen)")
        try quit()
    }

    func testGivenASourceWithOneTemplateWhenTemplatesAreUpdatedThenTheCountSaysOneTemplate() throws {
        // Given a local template source holding the groceries template alone
        let source = dir.path("source")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Templates/checklist/groceries"), to: source.appendingPathComponent("groceries"))
        try git(["init", "-q"], in: source, environment: env)
        try git(["add", "-A"], in: source, environment: env)
        try git(["commit", "-qm", "one template"], in: source, environment: env)
        folio(["templates", "add", "team", source.path])
        try start(["launch", "--scene", "i23-count"], until: "Update Templates")
        // When `u` updates the templates
        try keys("u")
        // Then the source is reported with "(1 template)"
        let screen = waitFor(text: "(1 template")
        XCTAssertTrue(screen.contains("(1 template)"), screen)
        XCTAssertFalse(screen.contains("1 templates"), screen)
        try quit()
    }

    func testGivenHistoryAt60x16WhenTheCurrentVersionIsRestoredThenTheRefusalStaysOnTheStatusRowAndARestoreIsConfirmed() throws {
        // Given a list with two versions, History open at 60×16
        let document = create("list", template: "checklist/groceries")
        folio(["edit", document.path, "toggle", "1"])
        try start(["open", document.path, "--scene", "i23-history"], until: "(1/13 done)", width: 60, height: 16)
        try keys("C-g")
        let history = waitFor(text: "2 versions")
        let listRows = rows(history).prefix(5)
        // When `r` is pressed on the current version
        try keys("r")
        // Then the refusal is on the last rows and the list above is as it was
        let refused = waitFor(text: "is the current version: nothing to restore")
        XCTAssertEqual(Array(rows(refused).prefix(5)), Array(listRows), refused)
        // When the older version is restored (r, r again)
        try keys("Down", "r", "r")
        // Then the restore is confirmed
        waitFor(text: "Restored @1 as @3 — u to undo")
        XCTAssertEqual(log(document).count, 3)
        try quit()
    }

    func testGivenTheFileViewWhenCtrlPIsPressedThenAHintSaysThereIsNoPaletteAndWhatToPress() throws {
        // Given a Swift package (no editor: the file view)
        let document = create("package", template: "swift/package")
        try start(["open", document.path, "--scene", "i23-files"], until: "Package.swift")
        // When ^P is pressed
        try keys("C-p")
        // Then a one-line hint says what to press instead
        waitFor(text: "no command palette in the file view")
        try quit()
    }

    func testGivenTheHelpOverlayWhenEndIsPressedThenItScrollsToItsLastKeysAndStaysOpen() throws {
        // Given the help over the editor
        let document = create("list", template: "checklist/groceries")
        try start(["open", document.path, "--scene", "i23-help"], until: "(0/13 done)")
        try press("?", until: "╭─ Keys")
        // When End is pressed
        try keys("End")
        // Then the help shows its last line and is still open
        let screen = waitFor(text: "quit (asks once when typed text would be lost)")
        XCTAssertTrue(screen.contains("╭─ Keys") && screen.contains("esc closes"), screen)
        XCTAssertFalse(screen.contains("previous / next item"), "scrolled to the end:\n\(screen)")
        try keys("Escape")
        waitFor("the help closed") { !$0.contains("╭─ Keys") }
        try quit()
    }

    func testGivenAPromptAndACommandFormWhenF1IsPressedThenHelpOpensAtTheirOwnSection() throws {
        // Given the add prompt of the checklist
        let list = create("list", template: "checklist/groceries")
        try start(["open", list.path, "--scene", "i23-f1"], until: "(0/13 done)", width: 60, height: 16)
        try keys("a")
        try type("Tea")
        // When F1 is pressed
        try keys("F1")
        // Then the help shows the prompt's section, not the moving keys
        let prompt = waitFor(text: "Prompt (⏎ answers, esc cancels)")
        XCTAssertFalse(prompt.contains("Moving"), prompt)
        try keys("Escape", "Escape")
        waitFor("the prompt closed") { !$0.contains("╭─ Keys") && !$0.contains("Tea") }
        // Given Shapes' add form (six fields)
        let drawing = create("drawing", template: "shapes/blank")
        let window = try startWindow(["open", drawing.path, "--scene", "i23-f1-form"])
        waitFor(text: "org.folio.shapes", target: window)
        try press("a", until: "Add shape", target: window)
        // When F1 is pressed, Then the help shows the command form's keys
        try keys("F1", target: window)
        let form = waitFor(text: "Command form", target: window)
        XCTAssertTrue(form.contains("^O") && form.contains("$EDITOR"), form)
        XCTAssertFalse(form.contains("Moving"), form)
        try keys("Escape", "Escape", "Escape", target: window)
        try quit(target: window)
        try quit()
    }

    func testGivenThePaletteWhenTypingShrinksItsListThenTheBoxStaysWhereItWas() throws {
        // Given the palette open over the editor
        let document = create("list", template: "checklist/groceries")
        try start(["open", document.path, "--scene", "i23-palette"], until: "(0/13 done)")
        try keys("C-p")
        let open = waitFor(text: "╭─ Commands")
        let top = rows(open).firstIndex { $0.contains("╭─ Commands") }
        // When "re" filters it to a few commands
        try type("re")
        let filtered = waitFor("the filtered palette") { $0.contains("Rename item") && !$0.contains("Check all items") }
        // Then its top edge is on the same row
        XCTAssertEqual(rows(filtered).firstIndex { $0.contains("╭─ Commands") }, top, filtered)
        try keys("Escape", "Escape")
        try quit()
    }
}
