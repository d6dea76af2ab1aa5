import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// What a command acts on: the items the window showed (its version), the whole selection, and what the window does
/// when the document moved on and the command conflicts.
final class EditorCommandBaseTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    /// A checklist window showing version `c1` with items Milk, Bread, Butter, Cheese.
    func window() -> AppState {
        .showing(EditorState(path: "g", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1", commitMessage: "added 'Cheese'",
                             commands: NumberedEditor().commands() + [EditorCommand(id: "delete", title: "Delete", shortcut: "d", needsSelection: true, usage: "delete N")]),
                 items: ItemLayout(count: 4, headerLines: 1))
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func editor(_ state: AppState) -> EditorState? {
        if case let .editor(editor) = state.screen { return editor }
        XCTFail("expected the editor, got \(state.screen)")
        return nil
    }

    func testGivenARenameStartedOnItem3WhenAnotherWindowChangesTheDocumentBeforeEnterThenTheRenameNamesTheVersionItWasStartedOn() {
        var (state, _) = run([.down, .down, .character("r")], from: window())
        XCTAssertEqual(editor(state)?.prompt?.base, "c1")
        // Window 1 deleted item 1 meanwhile: the poll shows the new head while the prompt is open.
        state.applying(DocumentSnapshot(commitID: "c2", commitMessage: "deleted 'Milk'", items: ItemLayout(count: 3, headerLines: 1)))
        XCTAssertEqual(editor(state)?.commitID, "c2")
        let (_, effects) = run("Cream".map(Key.character) + [.enter], from: state)
        XCTAssertEqual(effects, [.runEditorCommand("rename", arguments: ["3", "Cream"], base: "c1", selection: ViewSelection.items(cursor: 2))],
                       "item 3 of c1 (Butter), applied to c1 and merged: never item 3 of c2 (Cheese)")
    }

    func testGivenARangeOfThreeItemsWhenDIsPressedThenOneCommandGetsTheWholeRangeOnTheShownVersion() {
        let (state, effects) = run([.character("v"), .down, .down, .character("d")], from: window())
        XCTAssertEqual(effects, [.runEditorCommand("delete", arguments: ["1-3"], base: "c1", selection: ViewSelection.items(cursor: 2, anchor: 0))])
        XCTAssertNotNil(state.call, "one call runs")
        XCTAssertNil(editor(state)?.selection, "the range went to the command: the selection ends with it")
        XCTAssertEqual(editor(state)?.cursor, 2)
    }

    func testGivenARangeWhenACommandWithoutItemsIsRunThenTheRangeStays() {
        let (state, effects) = run([.character("v"), .down, .character("a")] + "Figs".map(Key.character) + [.enter], from: window())
        XCTAssertEqual(effects, [.runEditorCommand("add", arguments: ["Figs"], base: "c1", selection: ViewSelection.items(cursor: 1, anchor: 0))])
        XCTAssertEqual(editor(state)?.selection, EditorSelection(start: 0, end: 1))
    }

    func testGivenARangeWhenARenameIsSubmittedFromThePromptThenTheSelectionEnds() {
        let (state, effects) = run([.character("v"), .character("r")] + "Oat milk".map(Key.character) + [.enter], from: window())
        XCTAssertEqual(effects, [.runEditorCommand("rename", arguments: ["1", "Oat milk"], base: "c1", selection: ViewSelection.items(cursor: 0, anchor: 0))])
        XCTAssertNil(editor(state)?.selection)
    }

    func testGivenARangeSelectedUpwardsWhenSpaceIsPressedThenTheRangeIsGivenLowestFirst() {
        let (_, effects) = run([.end, .character("v"), .up, .up, .character(" ")], from: window())
        XCTAssertEqual(effects, [.runEditorCommand("toggle", arguments: ["2-4"], base: "c1", selection: ViewSelection.items(cursor: 1, anchor: 3))])
    }

    func testGivenARangeWhenTheDocumentShrinksUnderItThenTheRangeAndCursorStayWithinTheItems() {
        var (state, _) = run([.down, .down, .character("v"), .down], from: window())
        state.applying(DocumentSnapshot(commitID: "c2", commitMessage: "deleted 2 items", items: ItemLayout(count: 2, headerLines: 1)))
        XCTAssertEqual(editor(state)?.selection, EditorSelection(start: 1, end: 1))
        let (_, effects) = run([.character("d")], from: state)
        XCTAssertEqual(effects, [.runEditorCommand("delete", arguments: ["2"], base: "c2", selection: ViewSelection.items(cursor: 1, anchor: 1))], "never an item past the end")
    }

    func testGivenACommandThatConflictedWhenItEndsThenTheLineIsShownThePromptIsClosedAndTheWindowShowsTheNewestVersion() {
        var (state, _) = run([.down, .down, .character("r")] + "Cream".map(Key.character) + [.enter], from: window())
        XCTAssertNotNil(state.call)
        let line = "'rename' conflicts with a change made to the document since it was shown ('Butter': renamed to 'Cream' by us, deleted by them); nothing was changed"
        let replay = state.finishingCall(.conflicted(line, DocumentSnapshot(commitID: "c3", commitMessage: "deleted 'Butter'", items: ItemLayout(count: 3, headerLines: 1))))
        XCTAssertEqual(replay, [])
        XCTAssertNil(state.call)
        XCTAssertEqual(editor(state)?.message, .failure(line))
        XCTAssertNil(editor(state)?.prompt, "not asked again: the item it named is gone")
        XCTAssertEqual(editor(state)?.commitID, "c3")
        XCTAssertEqual(editor(state)?.items?.count, 3)
        XCTAssertEqual(editor(state)?.cursor, 2)
        // The next command is made on the version now shown.
        XCTAssertEqual(run([.character(" ")], from: state).1, [.runEditorCommand("toggle", arguments: ["3"], base: "c3", selection: ViewSelection.items(cursor: 2))])
    }

    func testGivenNoItemsWhenAnItemCommandIsPressedThenNothingRunsAndTheLineSaysWhy() {
        var state = window()
        state.applying(DocumentSnapshot(commitID: "c2", commitMessage: "deleted 4 items", items: ItemLayout(count: 0, headerLines: 1)))
        let (after, effects) = run([.character("d")], from: state)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(editor(after)?.message, .failure("Delete needs a selection (v selects)"))
    }

    func testGivenUndoWhenPressedThenItNamesNoVersion() {
        XCTAssertEqual(run([.ctrl("z")], from: window()).1, [.runEditorCommand("folio.undo")])
    }
}
