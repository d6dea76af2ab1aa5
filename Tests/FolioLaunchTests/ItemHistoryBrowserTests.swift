@testable import FolioLaunch
import FolioTerminal
import XCTest

/// `H` on an item in the editor opens the versions that changed it; `i` there brings the item back as it was in the
/// selected version.
final class ItemHistoryBrowserTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    private func editor(cursor: Int, paths: [[Int]] = []) -> AppState {
        .showing(EditorState(path: "/docs/voyage", title: "Voyage", contentType: "org.folio.story", commitID: "head0", commitMessage: "m"),
                 items: ItemLayout(count: 4, headerLines: 1, paths: paths), cursor: cursor)
    }

    private func press(_ keys: [Key], _ state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    private func page() -> ItemHistoryPage {
        ItemHistoryPage(summary: "scene 'Dusk' (12 words)",
                        entries: [HistoryEntry(id: "c2", message: "set text — changed (scene 'Dusk' (12 words))"),
                                  HistoryEntry(id: "c1", message: "moved — moved from 1.1 to 1.2")],
                        keys: ["c2": "1.2", "c1": "1.2"])
    }

    func testGivenTheCursorOnAnOutlineRowWhenHIsPressedThenTheHistoryOfThatItemIsAskedAsTheRowNumbersIt() {
        // Given the cursor on the third row of an outline whose rows are 1, 1.1, 1.2, 2
        let (state, effects) = press([.character("H")], editor(cursor: 2, paths: [[1], [1, 1], [1, 2], [2]]))
        // Then the item's history is asked for item "1.2" in the version the window shows, in the history browser
        XCTAssertEqual(effects, [.openHistory, .openItemHistory(item: "1.2", at: "head0")])
        guard case let .history(history, _) = state.screen else { return XCTFail("expected the history browser") }
        XCTAssertEqual(history.item?.key, "1.2")
        XCTAssertTrue(Screens.history(history, title: "Voyage", width: 100, height: 30).plainText().contains("History of item 1.2 — Voyage"))
        // And without outline paths the item is its row number
        XCTAssertEqual(press([.character("H")], editor(cursor: 3)).1, [.openHistory, .openItemHistory(item: "4", at: "head0")])
    }

    func testGivenAViewWithoutItemsWhenHIsPressedThenItSaysSoAndStaysInTheEditor() {
        var state = editor(cursor: 0)
        guard case var .editor(plain) = state.screen else { return XCTFail() }
        plain.items = nil
        state.screen = .editor(plain)
        let (after, effects) = press([.character("H")], state)
        XCTAssertEqual(effects, [])
        guard case let .editor(shown) = after.screen else { return XCTFail("expected the editor") }
        XCTAssertEqual(shown.message, .failure("History of this item needs an item under the cursor"))
    }

    func testGivenAnItemsHistoryWhenItArrivesThenItsVersionsAreListedAndIBringsTheItemBackFromTheSelectedOne() {
        // Given the history browser opened on item 1.2, and its versions arrived
        var (state, _) = press([.character("H")], editor(cursor: 2, paths: [[1], [1, 1], [1, 2], [2]]))
        var followUp: AppEffect?
        state.updateHistory { followUp = $0.receive(self.page(), item: "1.2") }
        XCTAssertEqual(followUp, .loadDiff(commitID: "c2"), "the newest version's diff is asked, as in the full history")
        guard case let .history(history, _) = state.screen else { return XCTFail("expected the history browser") }
        XCTAssertEqual(history.entries.map(\.id), ["c2", "c1"])
        XCTAssertTrue(history.exhausted, "one page: nothing more to load")
        let text = Screens.history(history, title: "Voyage", width: 160, height: 30).plainText()
        XCTAssertTrue(text.contains("moved from 1.1 to 1.2"), text)
        XCTAssertTrue(text.contains("i bring this item back"), text)
        // When the second version is selected and i pressed, that item is brought back as it was there
        XCTAssertEqual(press([.down, .character("i")], state).1, [.loadDiff(commitID: "c1"), .restoreItem(item: "1.2", commitID: "c1")])
        // And an answer for another item is dropped
        var other = history
        XCTAssertNil(other.receive(page(), item: "3"))
        // And when the restore succeeded, the editor shows the result with a confirmation line
        var done = state
        done.itemRestored("1.2", from: "c1")
        guard case let .editor(editor) = done.screen else { return XCTFail("expected the editor") }
        XCTAssertEqual(editor.message, .success("Brought back item 1.2 as it was in c1"))
    }

    func testGivenTheFullHistoryWhenIIsPressedThenItExplainsThatItWorksInAnItemsHistory() {
        var state = editor(cursor: 0)
        guard case let .editor(editor) = state.screen else { return XCTFail() }
        var history = HistoryState()
        _ = history.receive(HistoryPage(entries: [HistoryEntry(id: "c0", message: "m")], next: nil))
        state.screen = .history(history, editor)
        let (after, effects) = press([.character("i")], state)
        XCTAssertEqual(effects, [])
        guard case let .history(shown, _) = after.screen else { return XCTFail("expected the history browser") }
        XCTAssertEqual(shown.error, "i brings back one item: open an item's history with H in the editor")
    }
}
