import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

/// An open window's sync loop takes a new interval at once: the settings' default changed (in any window: the
/// settings file is followed), and the shorter foreground interval while the window is in use.
final class SyncIntervalChangeTests: XCTestCase {
    var ws: SyncWorkspace!
    var loops: [DocumentSyncLoop] = []

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() {
        for loop in loops { loop.stop() }
        loops = []
        ws = nil
    }

    /// A clone B of a shared A, and B's loop as a window runs it: the document's interval (the settings' default,
    /// 30 s), the settings file followed, local checks every 50 ms.
    func windowLoop() throws -> (a: Document, b: Document, loop: DocumentSyncLoop, log: EventLog) {
        try ws.bareRepository("doc.git")
        let daemon = try GitDaemon(basePath: ws.dir.path("servers"), environment: ws.env)
        addTeardownBlock { _ = daemon }
        let a = try ws.document("A")
        try a.write(Data("one\n".utf8), to: "document.txt", message: "One")
        try a.share(remote: "origin", url: daemon.url("doc.git"), options: TransferOptions(environment: ws.env))
        let b = try ws.store.clone(from: daemon.url("doc.git"), to: ws.dir.path("B"), options: TransferOptions(environment: ws.env))
        let log = EventLog()
        let timings = SyncTimings(pushDelay: .milliseconds(300), pushDelayLimit: .seconds(2), retryDelay: .milliseconds(200),
                                  retryDelayLimit: .seconds(1), localCheck: .milliseconds(50))
        let loop = DocumentSyncLoop(document: b.url, store: ws.store,
                                    options: .init(timings: timings, transferTimeout: .seconds(3), environment: ws.env, followsSettingsFile: true),
                                    onEvent: { log.append($0) })
        loops.append(loop)
        loop.start()
        XCTAssertTrue(eventually { log.all.contains { if case .synced = $0.kind { true } else { false } } }, log.all.map(\.line).description)
        XCTAssertEqual(loop.interval, .seconds(30))
        return (a, b, loop, log)
    }

    /// A pushes a second version; true when B has it within `seconds`.
    func arrives(_ a: Document, _ b: Document, within seconds: Double) throws -> Bool {
        try a.write(Data("one\ntwo \(UUID())\n".utf8), to: "document.txt", message: "Two")
        try a.push(options: TransferOptions(environment: ws.env))
        return try eventually(seconds) { try b.head().id == a.head().id }
    }

    func testGivenAnOpenWindowLookingEvery30sWhenTheSettingsIntervalBecomes1sThenTheNextChangeArrivesWithinSeconds() throws {
        // Given B's loop at the default 30 s, its first look done
        let (a, b, loop, _) = try windowLoop()
        // When the settings file (saved by another window's Settings screen) says 1 s
        var settings = Settings(sync: .none)
        settings.syncInterval = 1
        try FileManager.default.createDirectory(at: Settings.fileURL(environment: ws.env).deletingLastPathComponent(), withIntermediateDirectories: true)
        try settings.save(environment: ws.env)
        // Then the loop looks every second from now on: A's next version reaches B within a few seconds
        XCTAssertTrue(eventually(3) { loop.interval == .seconds(1) }, "\(loop.interval)")
        XCTAssertTrue(try arrives(a, b, within: 6), "the change waited for the old interval")
    }

    func testGivenAnOpenWindowWhenItIsInUseThenItLooksAtTheForegroundIntervalAndBackAtTheSettingOnceIdle() throws {
        // Given B's loop at 30 s
        let (a, b, loop, _) = try windowLoop()
        // When the window is in use (the foreground interval, 1 s here)
        loop.setForeground(.seconds(1))
        // Then it looks every second: A's version arrives within a few seconds
        XCTAssertEqual(loop.interval, .seconds(1))
        XCTAssertTrue(try arrives(a, b, within: 6), "the foreground interval was not used")
        // And once idle, back to the document's 30 s (and a foreground longer than the setting changes nothing)
        loop.setForeground(nil)
        XCTAssertEqual(loop.interval, .seconds(30))
        loop.setForeground(.seconds(60))
        XCTAssertEqual(loop.interval, .seconds(30))
    }
}
