import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import Synchronization
import XCTest

/// Issue 32 (found by the replica model): clones sharing through a remote in a folder on this machine (a path or
/// `file://`, as on a shared or removable drive) push at the same moment. libgit2's local transport moved the
/// remote's branch to whatever it was given, without checking what the branch pointed at by then, so one pusher could
/// overwrite the other's versions there (the others then saw the remote as rewound). A push now moves the branch only
/// if it still points at the version the push builds on, and one that loses the race fetches, merges and pushes again.
final class LocalRemotePushRaceTests: XCTestCase {
    func testGivenFourClonesOfAFolderRemoteWhenAllWriteAndSyncAtOnceThenEveryVersionAnyOfThemPushedIsOnTheRemote() throws {
        // Given four clones of a bare repository in a folder, each writing files of its own
        let ws = try SyncWorkspace()
        let bare = try ws.bareRepository("doc.git")
        let first = try ws.document("c0")
        try first.addRemote("origin", url: bare.path)
        _ = try first.push(options: TransferOptions(environment: ws.env))
        var clones = [first]
        for n in 1..<4 { clones.append(try ws.store.clone(from: "file://" + bare.path, to: ws.dir.path("c\(n)"), options: TransferOptions(environment: ws.env))) }
        // When each, on a thread of its own, writes and syncs 12 times, all at once
        let results = Mutex<[(made: [String], rewound: Int, failures: [String])]>(Array(repeating: ([], 0, []), count: clones.count))
        let group = DispatchGroup()
        for (n, clone) in clones.enumerated() {
            nonisolated(unsafe) let document = clone
            let env = ws.env
            DispatchQueue.global().async(group: group) {
                for round in 0..<12 {
                    do {
                        if let commit = try document.write(Data("\(n) \(round)\n".utf8), to: "c\(n)/\(round).txt", message: "Clone \(n), round \(round)") {
                            results.withLock { $0[n].made.append(commit.id.hex) }
                        }
                        let outcome = try document.sync(options: SyncOptions(transfer: TransferOptions(environment: env)))
                        if case .rewound = outcome.pull { results.withLock { $0[n].rewound += 1 } }
                    } catch {
                        // A push that lost the race every time it retried is tried again next round.
                        results.withLock { $0[n].failures.append("\(error)") }
                    }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success, "the clones did not finish")
        for clone in clones { _ = try clone.sync(options: SyncOptions(transfer: TransferOptions(environment: ws.env))) }
        // Then no clone ever saw the remote rewound, and every version any clone made is in the remote's history
        let all = results.withLock { $0 }
        XCTAssertEqual(all.map(\.rewound), [0, 0, 0, 0], "rewound: \(all.map(\.failures))")
        for (n, result) in all.enumerated() {
            XCTAssertEqual(result.made.count, 12)
            for commit in result.made {
                let contained = try git(["merge-base", "--is-ancestor", commit, "refs/heads/main"], in: bare, environment: ws.env)
                XCTAssertEqual(contained.status, 0, "clone \(n)'s version \(commit) is not on the remote")
            }
        }
        let leftovers = try git(["for-each-ref", "refs/folio"], in: bare, environment: ws.env)
        XCTAssertEqual(leftovers.stdout, "", "a push left its own ref on the remote")
        try ws.assertFsck(bare)
    }
}
