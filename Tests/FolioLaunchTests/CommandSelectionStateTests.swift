import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// Every plugin command from the editor host carries the window's cursor and range (items from 0), so a command that
/// needs the selection but names no item argument still gets it.
final class CommandSelectionStateTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let mark = EditorCommand(id: "mark", title: "Mark", shortcut: "m", needsSelection: true, usage: "mark")
    let note = EditorCommand(id: "note", title: "Note", shortcut: "n", needsSelection: true, usage: "note TEXT")

    /// A window on version `c1` with five numbered items.
    func window() -> AppState {
        .showing(EditorState(path: "d", title: "Marks", contentType: "org.test.marks", commitID: "c1", commands: [mark, note]),
                 items: ItemLayout(count: 5, headerLines: 0))
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func testGivenItems2To4SelectedUpwardsWhenACommandWithoutArgumentsNeedingTheSelectionRunsThenItCarriesCursorAndAnchor() {
        let (state, effects) = run([.down, .down, .down, .character("v"), .up, .up, .character("m")], from: window())
        XCTAssertEqual(effects, [.runEditorCommand("mark", arguments: [], base: "c1", selection: ViewSelection.items(cursor: 1, anchor: 3))])
        guard case let .editor(editor) = state.screen else { return XCTFail("expected the editor") }
        XCTAssertNil(editor.selection, "the range went to the command")
    }

    func testGivenNoRangeWhenTheCommandRunsThenItCarriesTheCursorAlone() {
        let (_, effects) = run([.down, .character("m")], from: window())
        XCTAssertEqual(effects, [.runEditorCommand("mark", arguments: [], base: "c1", selection: ViewSelection.items(cursor: 1))])
    }

    func testGivenARangeWhenAPromptedCommandIsSubmittedAfterTheDocumentChangedThenItCarriesTheRangeItStartedWith() {
        var (state, _) = run([.character("v"), .down, .down, .character("n")], from: window())
        state.applying(DocumentSnapshot(commitID: "c2", commitMessage: "removed 3 items", items: ItemLayout(count: 2, headerLines: 0)))
        let (_, effects) = run("late".map(Key.character) + [.enter], from: state)
        XCTAssertEqual(effects, [.runEditorCommand("note", arguments: ["late"], base: "c1", selection: ViewSelection.items(cursor: 2, anchor: 0))],
                       "the items of the version shown when the command started")
    }

    func testGivenARangeWhenUndoIsPressedThenNoSelectionIsSent() {
        let (_, effects) = run([.character("v"), .down, .ctrl("z")], from: window())
        XCTAssertEqual(effects, [.runEditorCommand("folio.undo")])
    }
}
