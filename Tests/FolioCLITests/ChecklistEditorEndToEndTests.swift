import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The checklist, through the real `folio` in tmux: the cursor follows the item a command
/// acted on (added, moved, after a range delete the next one; another window's delete above it), and a one-item
/// command on a range says so, in full at 60 columns, before anything is asked.
final class ChecklistEditorEndToEndTests: EndToEndTmuxTestCase {
    func groceries(_ name: String = "list") -> URL { create(name, template: "checklist/groceries") }

    func testGivenALongListAt60x16WhenAnItemIsAddedThenTheCursorIsOnTheNewItemAtTheEndAndItIsShown() throws {
        // Given the groceries list (13 items) at 60×16, the cursor on row 1
        let document = groceries()
        try start(["open", document.path, "--scene", "i23-add"], until: "> 1 [ ] Milk", width: 60, height: 16)
        // When an item is added
        try keys("a")
        try type("Oat milk")
        try keys("Enter")
        // Then the list scrolled to the end and the cursor is on the added item
        let screen = waitFor("the cursor on the added item") { $0.contains("(0/14 done)") && $0.contains(">14 [ ] Oat milk") }
        XCTAssertFalse(screen.contains("1 [ ] Milk"), "the list scrolled to the new item:\n\(screen)")
        try quit()
    }

    func testGivenTheCursorOnMilkWhenItIsMovedToPosition3ThenTheCursorIsStillOnMilk() throws {
        // Given the cursor on Milk (1)
        let document = groceries()
        try start(["open", document.path, "--scene", "i23-move"], until: "> 1 [ ] Milk")
        // When `m` 3 ⏎ moves it
        try press("m", until: "To")
        try type("3")
        try keys("Enter")
        // Then the cursor went with it
        let screen = waitFor("the cursor on Milk at 3") { $0.contains("moved 'Milk' to 3") && $0.contains("> 3 [ ] Milk") }
        XCTAssertTrue(screen.contains("  1 [ ] Eggs"), screen)
        try quit()
    }

    func testGivenThreeItemsSelectedWhenTheyAreDeletedThenTheCursorIsOnTheItemAfterThem() throws {
        // Given Eggs…Butter (2–4) selected
        let document = groceries()
        try start(["open", document.path, "--scene", "i23-delete"], until: "> 1 [ ] Milk")
        try press("Down", "v", "Down", "Down", until: "> 4 [ ] Butter")
        // When `d` deletes them
        try keys("d")
        // Then the cursor is on Cheese, the item that followed them, now item 2
        let screen = waitFor("the cursor on Cheese") { $0.contains("(0/10 done)") && $0.contains("> 2 [ ] Cheese") }
        XCTAssertFalse(screen.contains("3 selected"), screen)
        try quit()
    }

    func testGivenARenameOpenOnBreadWhenAnotherWindowDeletesTheItemAboveThenTheHighlightStaysOnBreadAndTheRenameActsOnIt() throws {
        // Given two windows on the list; window 2 renaming Bread (3)
        let document = groceries()
        let two = try openInTwoWindows(document, scenes: "i23-one", "i23-two", until: "(0/13 done)")
        try press("Down", "Down", until: "> 3 [ ] Bread", target: two)
        try press("r", until: "Rename item", target: two)
        try keys("C-u", target: two)
        try type("Rye", target: two)
        // When window 1 deletes Milk (1)
        try press("d", until: "(0/12 done)")
        // Then window 2 shows Bread as item 2, still highlighted, its prompt still open
        let moved = waitFor("the highlight on Bread, now 2", target: two) { $0.contains("(0/12 done)") && $0.contains("> 2 [ ] Bread") }
        XCTAssertTrue(moved.contains("Rye"), moved)
        // And ⏎ renames Bread, the item the highlight is on
        try keys("Enter", target: two)
        waitFor("Bread renamed, the cursor on it", target: two) { $0.contains("renamed 'Bread' to 'Rye'") && $0.contains("> 2 [ ] Rye") }
        try quit(target: two)
        try quit()
    }

    func testGivenARangeAt60ColumnsWhenRenameIsPressedThenTheWholeReasonIsShownBeforeAnythingIsAsked() throws {
        // Given items 1–2 selected at 60×16
        let document = groceries()
        try start(["open", document.path, "--scene", "i23-range"], until: "> 1 [ ] Milk", width: 60, height: 16)
        try press("v", "Down", until: "> 2 [ ] Eggs")
        // When `r` (rename: one item) is pressed
        try keys("r")
        // Then the refusal is shown in full, wrapped, and no title is asked
        let screen = waitFor(text: "acts on one item, and 2 are selected")
        let text = rows(screen).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        XCTAssertTrue(text.contains("esc ends the selection, then choose one"), "the whole message:\n\(screen)")
        XCTAssertFalse(screen.contains("Title"), screen)
        XCTAssertEqual(log(document).count, 1, "nothing was run")
        try quit()
    }
}
