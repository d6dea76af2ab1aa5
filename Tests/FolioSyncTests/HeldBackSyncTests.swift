import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

/// Issue 32: a kept conflict holds the document back (nothing merged past it, nothing pushed) until it is settled; a
/// kept conflict already part of the current history is dropped with a note; a rewound remote is named as such and
/// drops nothing of the local history.
final class HeldBackSyncTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }
    func options() -> SyncOptions { SyncOptions(transfer: transfer()) }

    /// A plain-text document A pushed to the bare repository `doc.git` (by path), and a clone B of it.
    func twoClones() throws -> (a: Document, b: Document, bare: URL) {
        let bare = try ws.bareRepository("doc.git")
        let a = try ws.document("A")
        try a.write(Data("one\n".utf8), to: "document.txt", message: "One")
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path("B"), options: transfer())
        return (a, b, bare)
    }

    func tip(_ bare: URL) throws -> String {
        try git(["rev-parse", "refs/heads/main"], in: bare, environment: ws.env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testGivenAKeptConflictWhenTheRemoteMovesOnThenPullOnlyFetchesAndSyncNeitherMergesNorPushesUntilItIsSettled() throws {
        // Given B keeps a conflict (both changed the same line), then each side makes one more change
        let (a, b, bare) = try twoClones()
        try a.write(Data("one from A\n".utf8), to: "document.txt", message: "A")
        try b.write(Data("one from B\n".utf8), to: "document.txt", message: "B")
        try a.push(options: transfer())
        guard case let .conflict(conflict) = try b.pull(options: options()) else { return XCTFail("expected a kept conflict") }
        try a.write(Data("more from A\n".utf8), to: "a.txt", message: "A again")
        try a.push(options: transfer())
        try b.write(Data("more from B\n".utf8), to: "b.txt", message: "B again")
        let bHead = try b.head().id, remoteTip = try tip(bare)
        // When B pulls, and syncs
        XCTAssertThrowsError(try b.pull(options: options())) { error in
            // Then the pull is held back, naming the kept conflict, without a CLI command in the library's words
            XCTAssertEqual(error as? SyncError, .heldByConflict(document: b.url.path, conflicts: [conflict.ref]))
            XCTAssertTrue("\(error)".contains("held back: a kept conflict waits to be settled"), "\(error)")
            XCTAssertFalse("\(error)".contains("folio "), "\(error)")
        }
        XCTAssertThrowsError(try b.sync(options: options()))
        // And nothing was merged or pushed, though the remote's new version was fetched
        XCTAssertEqual(try b.head().id, bHead)
        XCTAssertNil(ws.text(b, "a.txt"))
        XCTAssertEqual(try tip(bare), remoteTip)
        XCTAssertEqual(try b.syncStatus().remotes.first?.behind, 2)
        XCTAssertNotNil(try b.syncStatus().heldBack)
        // And the round of continuous sync says the same and pushes nothing
        let round = try b.syncRound(options: options())
        XCTAssertEqual(round.pushed, 0)
        XCTAssertEqual(round.conflicts, [conflict.ref])
        XCTAssertTrue(round.summary.hasPrefix("held back: a kept conflict waits to be settled"), round.summary)
        // When the conflict is settled (B's version kept), then B merges the rest and pushes
        try b.resolveConflict(conflict.ref, keep: .local)
        guard case .merged = try b.sync(options: options()).pull else { return XCTFail("expected a merge") }
        XCTAssertEqual(ws.text(b, "a.txt"), "more from A\n")
        XCTAssertEqual(ws.text(b, "document.txt"), "one from B\n")
        XCTAssertEqual(try tip(bare), try b.head().id.hex)
        XCTAssertNil(try b.syncStatus().heldBack)
    }

    func testGivenAKeptConflictWhoseVersionIsAlreadyInTheHistoryWhenTheDocumentSyncsThenItIsDroppedWithANoteAndPushingGoesOn() throws {
        // Given B holds A's version in its history and a kept conflict ref naming it (as an older Folio, which merged
        // past kept conflicts, left it), and a change of its own
        let (a, b, bare) = try twoClones()
        try a.write(Data("two\n".utf8), to: "document.txt", message: "Two")
        try a.push(options: transfer())
        _ = try b.pull(options: options())
        let stale = "refs/folio/conflicts/20240102T030405Z"
        XCTAssertEqual(try git(["update-ref", stale, try a.head().id.hex], in: b.url, environment: ws.env).status, 0)
        try b.write(Data("from B\n".utf8), to: "b.txt", message: "B")
        // When B's sync round runs
        let round = try b.syncRound(options: options())
        // Then the stale conflict is dropped with a note, nothing is held back, and B's change is pushed
        XCTAssertEqual(round.droppedConflicts, [stale])
        XCTAssertEqual(round.conflicts, [])
        XCTAssertTrue(round.summary.contains("dropped kept conflict 20240102T030405Z: its version is already part of main"), round.summary)
        XCTAssertEqual(round.pushed, 1)
        XCTAssertEqual(try tip(bare), try b.head().id.hex)
        XCTAssertEqual(try b.keptConflicts(), [])
        XCTAssertEqual(try git(["for-each-ref", "refs/folio/conflicts/"], in: b.url, environment: ws.env).stdout, "")
    }

    func testGivenAStaleKeptConflictWhenTheStatusIsReadThenItIsDroppedThereWithANote() throws {
        // Given a kept conflict ref naming B's own first version
        let (_, b, _) = try twoClones()
        let stale = "refs/folio/conflicts/20240102T030405Z"
        XCTAssertEqual(try git(["update-ref", stale, try b.head().id.hex], in: b.url, environment: ws.env).status, 0)
        // When the status is read / Then it names the dropped conflict and reports none kept
        let status = try b.syncStatus()
        XCTAssertEqual(status.droppedConflicts, [stale])
        XCTAssertEqual(status.conflicts, [])
        XCTAssertNil(status.heldBack)
        XCTAssertEqual(try b.sharingState().conflicts, [])
    }

    func testGivenARemoteForcePushedBackwardsWhenBPullsThenTheRewindIsNamedAndNothingLocalIsDroppedOrPushedOver() throws {
        // Given B has A's second version and a change of its own, and the remote is then rewound to the first version
        let (a, b, bare) = try twoClones()
        let first = try a.head().id
        try a.write(Data("two\n".utf8), to: "document.txt", message: "Two")
        try a.push(options: transfer())
        let second = try a.head().id
        _ = try b.pull(options: options())
        try b.write(Data("from B\n".utf8), to: "b.txt", message: "B")
        let bHead = try b.head().id
        XCTAssertEqual(try git(["update-ref", "refs/heads/main", first.hex], in: bare, environment: ws.env).status, 0)
        // When B syncs
        let (pulled, pushed) = try b.sync(options: options())
        // Then the outcome names the rewind, with one line saying nothing local was dropped
        guard case let .rewound(rewind) = pulled else { return XCTFail("expected a rewind, got \(pulled)") }
        XCTAssertEqual([rewind.source, rewind.previous.hex, rewind.tip.hex], ["origin/main", second.hex, first.hex])
        XCTAssertTrue(rewind.summary.hasPrefix("origin/main was rewound: its new tip \(first.short) does not contain the version it had before"),
                      rewind.summary)
        XCTAssertTrue(rewind.summary.contains("nothing of the local history was dropped"), rewind.summary)
        // And B's history is whole and nothing was pushed over the rewound branch
        XCTAssertNil(pushed)
        XCTAssertEqual(try b.head().id, bHead)
        XCTAssertEqual(ws.text(b, "document.txt"), "two\n")
        XCTAssertEqual(try tip(bare), first.hex)
    }

    func testGivenARemoteWhoseHistoryWasRewrittenWhenTheSyncRoundRunsThenItSaysRewoundNotConflict() throws {
        // Given B synced A's second version, then the remote's history is rewritten (another second version on the first)
        let (a, b, bare) = try twoClones()
        try a.write(Data("two\n".utf8), to: "document.txt", message: "Two")
        try a.push(options: transfer())
        _ = try b.pull(options: options())
        let rewriter = ws.dir.path("rewriter")
        XCTAssertEqual(try git(["clone", "-q", bare.path, rewriter.path], in: ws.dir.url, environment: ws.env).status, 0)
        for step in [["reset", "-q", "--hard", "HEAD~1"], ["-c", "user.name=R", "-c", "user.email=r@example.invalid", "commit", "-q", "--allow-empty", "-m", "Rewritten"],
                     ["push", "-q", "--force", "origin", "main"]] {
            let result = try git(step, in: rewriter, environment: ws.env)
            XCTAssertEqual(result.status, 0, "\(step): \(result.stderr)")
        }
        // When B's sync round runs
        let round = try b.syncRound(options: options())
        // Then it names the rewind and keeps no conflict, pushes nothing, and B's history is whole
        guard case .rewound? = round.pulled else { return XCTFail("expected a rewind, got \(String(describing: round.pulled))") }
        XCTAssertTrue(round.summary.hasPrefix("origin/main was rewound"), round.summary)
        XCTAssertEqual(round.conflicts, [])
        XCTAssertEqual(round.pushed, 0)
        XCTAssertEqual(ws.text(b, "document.txt"), "two\n")
    }
}
