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
}
