import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

/// Issue 32 (found by `folio-bench model`): a `folio sync --watch` killed with SIGKILL while it wrote the remote's
/// tracking ref left `refs/remotes/origin/main.lock`, and from then on every sync of that document failed with
/// "failed to lock file … for writing". A ref lock that outlives a short wait and is over a second old is a killed
/// writer's and is removed.
final class StaleRefLockSyncTests: XCTestCase {
    func testGivenATrackingRefLockLeftByAKilledSyncWhenTheDocumentSyncsThenItFetchesTheRemotesVersionAndTheLockIsGone() throws {
        // Given two clones, the second with a lock on its tracking ref written a minute ago, and a new version pushed
        let ws = try SyncWorkspace()
        let bare = try ws.bareRepository("doc.git")
        let first = try ws.document("a")
        try first.addRemote("origin", url: bare.path)
        _ = try first.push(options: TransferOptions(environment: ws.env))
        let second = try ws.store.clone(from: bare.path, to: ws.dir.path("b"), options: TransferOptions(environment: ws.env))
        let lock = second.url.appendingPathComponent(".git/refs/remotes/origin/main.lock")
        try Data("0000000000000000000000000000000000000000\n".utf8).write(to: lock)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: lock.path)
        let pushed = try XCTUnwrap(try first.write(Data("new\n".utf8), to: "new.txt", message: "New"))
        _ = try first.push(options: TransferOptions(environment: ws.env))
        // When the second clone syncs
        let outcome = try second.sync(options: SyncOptions(transfer: TransferOptions(environment: ws.env)))
        // Then it has the new version, and the lock is gone
        guard case .fastForwarded = outcome.pull else { return XCTFail("expected a fast-forward, got \(outcome.pull)") }
        XCTAssertEqual(try second.head().id, pushed.id)
        XCTAssertFalse(FileManager.default.fileExists(atPath: lock.path))
    }
}
