import FolioCore
import Foundation
import Synchronization
import XCTest
@testable import FolioLaunch

/// A view whose lines name the head it renders, like a plugin's view of the document's current head.
private final class HeadView: EditorViewProvider, Sendable {
    let head = Mutex("c1")
    func render(_ request: RenderRequest) -> PluginView { ["head " + head.withLock { $0 }] }
    func commands() -> [EditorCommand] { [] }
}

/// A view whose lines name the head and the item under the cursor it was asked to draw.
private final class CursorView: EditorViewProvider, Sendable {
    let head = Mutex("c1")
    func render(_ request: RenderRequest) -> PluginView { ["head \(head.withLock { $0 }) cursor \(request.selection.cursor)"] }
    func commands() -> [EditorCommand] { [] }
}

final class EditorViewCacheTests: XCTestCase {
    func waitIdle(_ worker: DocumentWorker) { XCTAssertTrue(worker.waitUntilIdle(timeout: .seconds(5)) {}) }

    func testGivenANewHeadReadOffTheUIThreadWhenTheStateShowsItThenTheSameFrameDrawsItsLinesNotTheOldOnes() {
        let cache = EditorViewCache(), worker = DocumentWorker(), view = HeadView()
        let old = EditorViewCache.Request(render: RenderRequest(width: 40, height: 5), head: "c1")
        _ = cache.lines(for: old, view: view, worker: worker, label: "render")
        waitIdle(worker)
        XCTAssertEqual(cache.lines(for: old, view: view, worker: worker, label: "render"), ["head c1"])
        // Another window commits c2; the poll reads it and renders before the state learns of it.
        view.head.withLock { $0 = "c2" }
        cache.prerender(head: "c2", view: view)
        var new = old
        new.head = "c2"
        XCTAssertEqual(cache.lines(for: new, view: view, worker: worker, label: "render"), ["head c2"],
                       "never the old head's lines under the new head's status and items")
        XCTAssertTrue(cache.isCurrent)
    }

    func testGivenTheSameHeadWhenPolledThenNothingIsRenderedAgain() {
        let cache = EditorViewCache(), worker = DocumentWorker(), view = HeadView()
        let request = EditorViewCache.Request(render: RenderRequest(width: 40, height: 5, selection: .items(cursor: 0)), head: "c1")
        _ = cache.lines(for: request, view: view, worker: worker, label: "render")
        waitIdle(worker)
        view.head.withLock { $0 = "changed without a commit" }
        cache.prerender(head: "c1", view: view)
        XCTAssertEqual(cache.lines(for: request, view: view, worker: worker, label: "render"), ["head c1"])
    }

    func testGivenACommandThatAddsAnItemWhenItsVersionIsShownThenTheFirstFrameDrawsTheCursorOnTheNewItem() {
        // Given a checklist window on c1 with the cursor on item 2 of 3, its view drawn
        let cache = EditorViewCache(), worker = DocumentWorker(), view = CursorView()
        var window = EditorState(path: "g", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1", commitMessage: "x")
        window.items = ItemLayout(count: 3, headerLines: 1, paths: [[1], [2], [3]])
        window.cursor = 1
        var state = AppState()
        state.screen = .editor(window)
        func request(_ state: AppState) -> EditorViewCache.Request {
            EditorViewCache.Request(render: RenderRequest(width: 40, height: 5, selection: state.currentEditor?.viewSelection ?? ViewSelection()),
                                    head: state.currentEditor?.commitID ?? "")
        }
        _ = cache.lines(for: request(state), view: view, worker: worker, label: "render")
        waitIdle(worker)
        XCTAssertEqual(cache.lines(for: request(state), view: view, worker: worker, label: "render"), ["head c1 cursor 2"])
        // When a command adds item 4 (c2) and the cursor follows it there: the worker renders c2 before the state
        // learns of it, with the selection the window will have, then the state applies the snapshot
        view.head.withLock { $0 = "c2" }
        var snapshot = DocumentSnapshot(commitID: "c2", commitMessage: "added 'Tea'", items: ItemLayout(count: 4, headerLines: 1, paths: [[1], [2], [3], [4]]))
        snapshot.followed = ("c1", [4])
        cache.prerender(head: snapshot.commitID, view: view, selection: window.showing(snapshot).viewSelection)
        state.applying(snapshot)
        // Then the first frame of c2 draws the cursor on item 4, with no render left to wait for
        XCTAssertEqual(state.currentEditor?.cursor, 3)
        XCTAssertEqual(cache.lines(for: request(state), view: view, worker: worker, label: "render"), ["head c2 cursor 4"],
                       "never the new version with the cursor still on the old row")
        XCTAssertTrue(cache.isCurrent)
    }
}
