import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal
import Synchronization

/// Loading template sources from the launcher: Esc stops sources still loading, the bottom line says what each is
/// doing, and a source's load is stopped on its own when it is removed.
final class SourceLoadingStateTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func testGivenASourceLoadingWhenEscIsPressedOnTheLauncherThenLoadingStops() {
        // Given the launcher with one source still loading
        let state = AppState(recent: [], templates: [TemplateSourceStatus(name: "bundled", state: .loaded([])),
                                                     TemplateSourceStatus(name: "silent", state: .loading)])
        // When Esc is pressed
        let (next, effects) = state.handling(.escape, scene: scene)
        // Then the launcher asks to stop loading and says so
        XCTAssertEqual(effects, [.stopLoadingTemplates])
        XCTAssertEqual(next.message, .note("Stopped loading templates"))
    }

    func testGivenLoadingSourcesThenTheBottomLineNamesEachAndWhatItDoes() {
        // Given two sources loading, one with progress
        var silent = TemplateSourceStatus(name: "silent", state: .loading)
        silent.progress = "fetching git://127.0.0.1:9/t.git"
        let sources = [silent, TemplateSourceStatus(name: "team", state: .loading), TemplateSourceStatus(name: "bundled", state: .loaded([]))]
        // Then the line names both, with what each does, and how to stop
        XCTAssertEqual(LaunchLayout.templateProgressLine(sources), "silent: fetching git://127.0.0.1:9/t.git · team: loading… · esc stops")
        // And none when nothing loads
        XCTAssertNil(LaunchLayout.templateProgressLine([TemplateSourceStatus(name: "bundled", state: .failed("x"))]))
    }

    func testGivenLoadingSourcesWhenOneIsNoLongerListedThenOnlyItsLoadIsCancelledAndItsResultDropped() async throws {
        // Given two sources whose loads wait until cancelled
        let catalog = WaitingCatalog()
        let mailbox = Mailbox()
        let loaders = SourceLoaders()
        loaders.start("a", catalog: catalog, mailbox: mailbox)
        loaders.start("b", catalog: catalog, mailbox: mailbox)
        try await catalog.waitUntilStarted(2)
        // When only "a" is kept (b was removed in Settings)
        loaders.keepOnly(["a"])
        // Then b's load is cancelled, a's goes on, and nothing is posted for b
        try await catalog.waitUntilCancelled(["b"])
        XCTAssertEqual(catalog.cancelled, ["b"])
        XCTAssertTrue(mailbox.drain().isEmpty)
        // When everything is cancelled (Esc), a reports "cancelled"
        loaders.cancelAll()
        try await catalog.waitUntilCancelled(["a", "b"])
        try await Task.sleep(for: .milliseconds(50))
        let messages = mailbox.drain()
        XCTAssertEqual(messages.count, 1)
        if case let .source(name, state)? = messages.first { XCTAssertEqual(name, "a"); XCTAssertEqual(state, .failed("cancelled")) }
        else { XCTFail("\(messages)") }
    }
}

/// A catalog whose loads wait until their task is cancelled.
private final class WaitingCatalog: TemplateCatalog, Sendable {
    private let state = Mutex((started: 0, cancelled: Set<String>()))
    var cancelled: Set<String> { state.withLock { $0.cancelled } }
    func sourceNames() -> [String] { ["a", "b"] }
    func templates(in source: String) async throws -> [TemplateSummary] {
        state.withLock { $0.started += 1 }
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        state.withLock { _ = $0.cancelled.insert(source) }
        throw CancellationError()
    }
    func waitUntilStarted(_ count: Int) async throws {
        for _ in 0..<1000 where state.withLock({ $0.started }) < count { try await Task.sleep(for: .milliseconds(5)) }
    }
    func waitUntilCancelled(_ names: Set<String>) async throws {
        for _ in 0..<1000 where !names.isSubset(of: cancelled) { try await Task.sleep(for: .milliseconds(5)) }
    }
}
