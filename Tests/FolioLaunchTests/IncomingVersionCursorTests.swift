import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// A version that arrives from elsewhere (another window, a collaborator's merged change) keeps the cursor on the
/// item it was on, wherever that item now is.
final class IncomingVersionCursorTests: XCTestCase {
    /// A checklist window on version `c1`, items 1-4, the cursor on item 3.
    func window() -> AppState {
        var state = AppState()
        var editor = EditorState(path: "g", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1", commitMessage: "added 'Cheese'")
        editor.items = ItemLayout(count: 4, headerLines: 1, paths: [[1], [2], [3], [4]])
        editor.cursor = 2
        state.screen = .editor(editor)
        return state
    }

    func cursor(_ state: AppState) -> Int? {
        if case let .editor(editor) = state.screen { return editor.cursor }
        return nil
    }

    /// The window with `command`'s form open on the cursor's item (item 3 of c1), as its key opens it.
    func windowWithForm(_ command: EditorCommand, paths: [[Int]] = [[1], [2], [3], [4]], cursor: Int = 2) -> AppState {
        var state = AppState()
        var editor = EditorState(path: "g", title: "Story", contentType: "org.folio.story", commitID: "c1", commitMessage: "x")
        editor.items = ItemLayout(count: paths.count, headerLines: 1, paths: paths)
        editor.cursor = cursor
        editor.commands = [command]
        let item = command.argumentNames.firstIndex(where: EditorCommand.isItemArgument)
        let values: [String?] = command.argumentNames.indices.map { $0 == item ? String(cursor + 1) : nil }
        AppState.openPrompt(command, values: values, base: "c1", editor: &editor)
        state.screen = .editor(editor)
        return state
    }

    func prompt(_ state: AppState) -> EditorPrompt? {
        if case let .editor(editor) = state.screen { return editor.prompt }
        return nil
    }

    func testGivenARenameFormOnItem3WhenAnotherWindowDeletesItem1ThenTheFormActsOnTheSameItemNowNumbered2() throws {
        // Given the rename form open on item 3 of c1, a title half typed
        var state = windowWithForm(EditorCommand(id: "rename", title: "Rename", shortcut: "r", usage: "rename N TITLE"))
        XCTAssertEqual(prompt(state)?.values.first, "3")
        // When c2 arrives from another window: item 1 deleted, so the item is now number 2
        var snapshot = DocumentSnapshot(commitID: "c2", commitMessage: "deleted 'Milk'", items: ItemLayout(count: 3, headerLines: 1, paths: [[1], [2], [3]]))
        snapshot.followed = ("c1", [2])
        state.applying(snapshot)
        // Then the cursor and the form are on the same item: number 2 of the version now shown
        let form = try XCTUnwrap(prompt(state))
        XCTAssertEqual(cursor(state), 1)
        XCTAssertEqual(form.values.first, "2")
        XCTAssertEqual(form.base, "c2")
        XCTAssertEqual(form.selection, ViewSelection.items(cursor: 1))
    }

    func testGivenASetTextFormOnScene2Point3WhenAnotherWindowAddsAnActAboveThenItsPositionFieldsFollowTheScene() throws {
        // Given the set-text form on scene 2.3 (ACT and SCENE prefilled from the cursor)
        let paths: [[Int]] = [[1, 1], [2, 1], [2, 2], [2, 3]]
        var state = windowWithForm(EditorCommand(id: "set-text", title: "Set scene text", shortcut: "e", usage: "set-text ACT:int+ SCENE:int+ TEXT"),
                                   paths: paths, cursor: 3)
        XCTAssertEqual(prompt(state)?.inputs.prefix(2).map(\.text), ["2", "3"])
        // When a new act 1 arrives above: the scene is now 3.3
        var snapshot = DocumentSnapshot(commitID: "c2", commitMessage: "added act", items: ItemLayout(count: 5, headerLines: 1, paths: [[1, 1], [2, 1], [3, 1], [3, 2], [3, 3]]))
        snapshot.followed = ("c1", [3, 3])
        state.applying(snapshot)
        // Then the form's ACT and SCENE are 3 and 3, applying to c2
        let form = try XCTUnwrap(prompt(state))
        XCTAssertEqual(form.inputs.prefix(2).map(\.text), ["3", "3"])
        XCTAssertEqual(form.base, "c2")
    }

    func testGivenAFormWhoseNumberTheUserTypedWhenTheDocumentMovesThenTheFormStaysOnItsOwnVersion() throws {
        // Given the set-text form on scene 2.3 where the user typed SCENE 1 over the cursor's 3
        let paths: [[Int]] = [[1, 1], [2, 1], [2, 2], [2, 3]]
        var state = windowWithForm(EditorCommand(id: "set-text", title: "Set scene text", shortcut: "e", usage: "set-text ACT:int+ SCENE:int+ TEXT"),
                                   paths: paths, cursor: 3)
        guard case var .editor(editor) = state.screen, var form = editor.prompt else { return XCTFail("form") }
        form.inputs[1] = TextField("1")
        editor.prompt = form
        state.screen = .editor(editor)
        // When a new act arrives above
        var snapshot = DocumentSnapshot(commitID: "c2", commitMessage: "added act", items: ItemLayout(count: 5, headerLines: 1, paths: [[1, 1], [2, 1], [3, 1], [3, 2], [3, 3]]))
        snapshot.followed = ("c1", [3, 3])
        state.applying(snapshot)
        // Then the form keeps the user's numbers and its version (where they mean what the user meant)
        let after = try XCTUnwrap(prompt(state))
        XCTAssertEqual(after.inputs.prefix(2).map(\.text), ["2", "1"])
        XCTAssertEqual(after.base, "c1")
    }

    func testGivenTheCursorOnItem3WhenAVersionArrivesWithTwoItemsAddedAboveThenTheCursorIsOnThatItemAtItsNewPlace() {
        // Given: the cursor on item 3, which the window saw in c1.
        var state = window()
        XCTAssertEqual(state.currentEditor?.itemUnderCursor?.position, [3])
        XCTAssertEqual(state.currentEditor?.itemUnderCursor?.commit, "c1")
        // When: c2 arrives, two items added at the top; the editor's item lists say item 3 of c1 is item 5 of c2.
        var snapshot = DocumentSnapshot(commitID: "c2", commitMessage: "Merge origin/main", items: ItemLayout(count: 6, headerLines: 1, paths: (1...6).map { [$0] }))
        snapshot.followed = ("c1", [5])
        state.applying(snapshot)
        // Then: the cursor is on row 5 (index 4), the same item.
        XCTAssertEqual(cursor(state), 4)
    }

    func testGivenTheCursorOnAnItemWhenAVersionArrivesWithoutItOrUnfollowedThenTheCursorKeepsItsRowWithinTheList() {
        var gone = window()
        var snapshot = DocumentSnapshot(commitID: "c2", commitMessage: "deleted 'Butter'", items: ItemLayout(count: 3, headerLines: 1, paths: [[1], [2], [3]]))
        snapshot.followed = ("c1", nil)
        gone.applying(snapshot)
        XCTAssertEqual(cursor(gone), 2, "the item is gone: the row stays")
        // A follow made from a version the window no longer shows is not used.
        var stale = window()
        var late = DocumentSnapshot(commitID: "c3", commitMessage: "x", items: ItemLayout(count: 4, headerLines: 1, paths: [[1], [2], [3], [4]]))
        late.followed = ("c0", [1])
        stale.applying(late)
        XCTAssertEqual(cursor(stale), 2)
    }

    func testGivenACommandThatAddedAnItemAtTheEndOfALongListWhenItFinishesThenTheCursorIsOnItAndInView() {
        // Given a 40-item list showing 10 rows, the cursor on item 2
        var state = AppState()
        var editor = EditorState(path: "g", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1", commitMessage: "x")
        editor.items = ItemLayout(count: 40, headerLines: 1, paths: (1...40).map { [$0] })
        editor.cursor = 1
        editor.viewRows = 10
        state.screen = .editor(editor)
        // When the command's result says the cursor goes to the item it added, 41
        var snapshot = DocumentSnapshot(commitID: "c2", commitMessage: "added 'Tea'", items: ItemLayout(count: 41, headerLines: 1, paths: (1...41).map { [$0] }))
        snapshot.followed = ("c1", [41])
        _ = state.finishingCall(.succeeded(snapshot))
        // Then the cursor is on it and the list scrolled to show it
        guard case let .editor(after) = state.screen else { return XCTFail("editor") }
        XCTAssertEqual(after.cursor, 40)
        XCTAssertEqual(after.scroll, 31)
    }

    func testGivenARangeSelectedThenTheStatusLineSaysHowManyItemsItHolds() {
        // Given a window with items 1-3 selected
        var editor = EditorState(path: "g", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1", commitMessage: "x")
        editor.items = ItemLayout(count: 3, headerLines: 1, paths: [[1], [2], [3]])
        editor.selectionAnchor = 0
        editor.cursor = 2
        let lines = Screens.editor(editor, view: NumberedEditor(), width: 80, height: 10).plainText().split(separator: "\n")
        let status = lines.first { $0.contains("Groceries ·") } ?? "no status line"
        // Then its status line starts with the count; without a range, it does not
        XCTAssertTrue(status.hasPrefix(" 3 selected · Groceries"), String(status))
        editor.selectionAnchor = nil
        XCTAssertFalse(Screens.editor(editor, view: NumberedEditor(), width: 80, height: 10).plainText().contains("selected"))
    }
}
