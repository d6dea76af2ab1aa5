@testable import FolioCLI
import FolioCore
import FolioCLITestSupport
import FolioLaunch
import FolioSync
import Foundation
import XCTest

/// The editor host's `DocumentSharing` over the sync loop: state and remotes from memory, actions on the caller's thread.
final class SharingAdapterTests: XCTestCase {
    func testGivenAnUnsharedDocumentWhenSharedThroughTheAdapterThenItIsPushedAndTheStateFollows() throws {
        // Given a new document, a bare repository and an adapter over the document
        let dir = TemporaryDirectory("folio-adapter")
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let document = try store.create(at: dir.path("Doc"), contentType: .plainText, title: "Doc")
        let server = dir.path("doc.git")
        XCTAssertEqual(try git(["init", "--bare", "-q", "-b", "main", server.path], in: dir.url, environment: env).status, 0)
        let adapter = SharingAdapter(document: document.url, store: store, environment: env)
        XCTAssertTrue(eventually { adapter.state().phase == .notShared }, "\(adapter.state())")
        // When the user shares it, then changes the interval, writes a version and syncs now
        let shared = try adapter.perform(.share(remote: "origin", url: server.path), progress: { _ in }, isCancelled: { false })
        _ = try adapter.perform(.interval(seconds: 5), progress: { _ in }, isCancelled: { false })
        try document.write(Data("new\n".utf8), to: "document.txt", message: "New")
        let synced = try adapter.perform(.syncNow, progress: { _ in }, isCancelled: { false })
        // Then the remote has every version, the state says synced with continuous sync on, and the remote is listed
        XCTAssertTrue(shared.contains("continuous sync on"), shared)
        // (the loop's own round, started by the interval change, may have pushed it first)
        XCTAssertTrue(["pushed 1 version", "up to date"].contains(synced), synced)
        let tip = try git(["rev-parse", "main"], in: server, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(tip, try document.head().id.hex)
        XCTAssertEqual(adapter.state().phase, .synced)
        XCTAssertTrue(adapter.state().continuous)
        XCTAssertEqual(try document.syncInterval(), 5)
        XCTAssertTrue(eventually { adapter.remotes() == [SharingRemote(name: "origin", url: server.path)] })
        // And the item-by-item conflict methods say plainly that they are not wired yet
        XCTAssertThrowsError(try adapter.conflicts()) { XCTAssertTrue("\($0)".contains("not available"), "\($0)") }
    }
}

/// Waits (bounded) until `condition` holds.
@discardableResult
func eventually(_ seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
