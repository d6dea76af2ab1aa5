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
