import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// A version that arrives from elsewhere (a collaborator's change merged by sync, another window) is seen: a line
/// in the message log saying who and what, a brief mark on the items it touched, and an open history browser that
/// lists it.
final class ArrivalsTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A checklist window on `c1` (Milk, Eggs, Bread), the log in UTC.
    func window() -> AppState {
        var state = AppState()
        var editor = EditorState(path: "g", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1", commitMessage: "x")
        editor.items = ItemLayout(count: 3, headerLines: 1, paths: [[1], [2], [3]])
        state.screen = .editor(editor)
        state.messageLog.timeZone = .utc
        state.now = start
        return state
    }

    /// Version c2 as the poll reads it on a window that showed c1: Ana renamed item 3 and added item 4.
    func arrivingC2() -> DocumentSnapshot {
        var snapshot = DocumentSnapshot(commitID: "c2", commitMessage: "Merge origin/main",
                                        items: ItemLayout(count: 4, headerLines: 1, paths: [[1], [2], [3], [4]]))
        snapshot.arrival = DocumentArrival(from: "c1", to: "c2", authors: ["Ana"], description: ["renamed 'Bread' to 'Rye'", "added 'Tea'"],
                                           marks: ItemMarks(new: ["3": .changed, "4": .added]))
        return snapshot
    }

    struct FourItems: EditorViewProvider {
        func render(_ request: RenderRequest) -> PluginView { .lines(["Groceries  (0/4 done)", "  1 [ ] Milk", "  2 [ ] Eggs", "  3 [ ] Rye", "  4 [ ] Tea"]) }
        func commands() -> [EditorCommand] { [] }
        func itemLayout() -> ItemLayout? { ItemLayout(count: 4, headerLines: 1) }
    }

    func testGivenAWindowOnC1WhenAnotherWindowsVersionArrivesThenTheMessageLogSaysWhoAndWhatInTheEditorsWords() {
        // Given a window on c1 with an empty log
        var state = window()
        XCTAssertTrue(state.messageLog.entries.isEmpty)
        // When c2 arrives from Ana
        _ = state.receivingSnapshot(arrivingC2())
        // Then the log has one line naming her and the editor's description of the change, and the window shows c2
        XCTAssertEqual(state.messageLog.entries.map(\.text), ["Ana: renamed 'Bread' to 'Rye'; added 'Tea'"])
        XCTAssertEqual(state.currentEditor?.commitID, "c2")
        let log = Screens.messageLogLines(state.messageLog, width: 80).map(\.text).joined(separator: "\n")
        XCTAssertTrue(log.contains("Ana: renamed 'Bread' to 'Rye'; added 'Tea'"), log)
    }

    func testGivenAnArrivalWhenTheEditorDrawsThenTheItemsItTouchedAreMarkedForAFewSecondsOnly() {
        // Given c2 arrived at `start`
        var state = window()
        _ = state.receivingSnapshot(arrivingC2())
        guard case let .editor(editor) = state.screen else { return XCTFail("editor") }
        // When drawn at once, Rye (changed) and Tea (added) carry their marks in the gutter, Milk none
        let now = Screens.editor(editor, view: FourItems(), width: 60, height: 10, now: start.addingTimeInterval(1)).plainText().split(separator: "\n")
        XCTAssertTrue(now.contains { $0.hasPrefix("~  3 [ ] Rye") }, now.joined(separator: "\n"))
        XCTAssertTrue(now.contains { $0.hasPrefix("+  4 [ ] Tea") }, now.joined(separator: "\n"))
        XCTAssertTrue(now.contains { $0.hasPrefix("   1 [ ] Milk") }, now.joined(separator: "\n"))
        // Then once the marks' time is over, they are gone
        let later = Screens.editor(editor, view: FourItems(), width: 60, height: 10, now: start.addingTimeInterval(ArrivalMarks.duration + 0.1)).plainText()
        XCTAssertFalse(later.contains("~  3"), later)
        XCTAssertFalse(later.contains("+  4"), later)
    }

    func testGivenAVersionWithoutAnArrivalOrFromAnotherBaseWhenReceivedThenNothingIsLoggedOrMarked() {
        // Given this window's own command's version (the poll read no arrival)
        var own = window()
        _ = own.receivingSnapshot(DocumentSnapshot(commitID: "c2", commitMessage: "added 'Tea'", items: ItemLayout(count: 4, headerLines: 1)))
        XCTAssertTrue(own.messageLog.entries.isEmpty)
        XCTAssertNil(own.currentEditor?.arrivalMarks)
        // And an arrival described from a version the window no longer shows (read before it moved on)
        var stale = window()
        var snapshot = arrivingC2()
        snapshot.arrival?.from = "c0"
        _ = stale.receivingSnapshot(snapshot)
        XCTAssertTrue(stale.messageLog.entries.isEmpty)
        // And the same head read again
        var again = window()
        _ = again.receivingSnapshot(arrivingC2())
        _ = again.receivingSnapshot(arrivingC2())
        XCTAssertEqual(again.messageLog.entries.count, 1)
    }

    func testGivenAnArrivalWithoutAnEditorsDescriptionThenTheLineSaysANewVersionAndLongDescriptionsAreCut() {
        XCTAssertEqual(DocumentArrival(from: "a", to: "b", authors: [], description: []).logLine, "someone: a new version")
        let long = DocumentArrival(from: "a", to: "b", authors: ["Ana", "Ben"], description: ["one", "two", "three", "four", "five"])
        XCTAssertEqual(long.logLine, "Ana, Ben: one; two; three; and 2 more")
    }

    /// The history browser over the window, listing 20 versions (c1 newest), the given one selected.
    func browser(selection: Int) -> AppState {
        var state = window()
        guard case let .editor(editor) = state.screen else { return state }
        var history = HistoryState()
        let list = ["c1"] + (2...20).map { "old\($0)" }
        _ = history.arrived(HistoryPage(entries: list.map { HistoryEntry(id: $0, message: "version \($0)") }, next: nil, total: 20))
        history.selection = selection
        state.screen = .history(history, editor)
        return state
    }

    func testGivenTheHistoryBrowserShowing20VersionsWhenAVersionArrivesThenItReloadsAndShows21KeepingTheSelection() {
        // Given the browser on 20 versions, the fifth selected
        var state = browser(selection: 4)
        XCTAssertTrue(Screens.history(historyState(state), title: "G", width: 100, height: 30).plainText().contains("20 versions"))
        // When c2 arrives
        let effects = state.receivingSnapshot(arrivingC2())
        // Then the list is read again from the newest
        XCTAssertEqual(effects, [.loadHistoryPage(after: nil)])
        XCTAssertEqual(state.messageLog.entries.count, 1)
        guard case .history(var history, let editor) = state.screen else { return XCTFail("history") }
        XCTAssertEqual(editor.commitID, "c2")
        let list = ["c2", "c1"] + (2...20).map { "old\($0)" }
        _ = history.arrived(HistoryPage(entries: list.map { HistoryEntry(id: $0, message: "version \($0)") }, next: nil, total: 21))
        // And it says 21, the version that was selected (old5) still selected
        XCTAssertTrue(Screens.history(history, title: "G", width: 100, height: 30).plainText().contains("21 versions"))
        XCTAssertEqual(history.selectedID, "old5")
        // And with the newest selected, the newest (now c2) is
        var newest = browser(selection: 0)
        _ = newest.receivingSnapshot(arrivingC2())
        guard case .history(var fresh, _) = newest.screen else { return XCTFail("history") }
        _ = fresh.arrived(HistoryPage(entries: list.map { HistoryEntry(id: $0, message: "version \($0)") }, next: nil, total: 21))
        XCTAssertEqual(fresh.selectedID, "c2")
    }

    func historyState(_ state: AppState) -> HistoryState {
        if case let .history(history, _) = state.screen { return history }
        return HistoryState()
    }
}
