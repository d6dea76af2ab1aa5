import Foundation
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioTestSupport
import XCTest

final class SyncTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    private func options() -> SyncOptions { SyncOptions(transfer: TransferOptions(environment: ws.env)) }
    private func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

    /// A document published to a new bare repository, and a second clone of it.
    private func twoClones(url: (URL) -> String) throws -> (Document, Document) {
        let bare = try ws.bareRepository("doc.git")
        let a = try ws.document("A")
        try a.addRemote("origin", url: url(bare))
        try a.push(options: transfer())
        let b = try ws.store.clone(from: url(bare), to: ws.dir.path("B"), options: transfer())
        return (a, b)
    }

    func testCloneOfAPushedDocumentIsANormalDocumentWithACleanStatus() throws {
        // Given a document with two versions pushed to a bare repository by path
        let bare = try ws.bareRepository("doc.git")
        let a = try ws.document("A")
        try a.write(Data("hello\n".utf8), to: "document.txt", message: "Hello")
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        // When it is cloned
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path("B"), options: transfer())
        // Then the clone has the same versions, its files, a clean git status and a sound repository
        XCTAssertEqual(try b.head().id, try a.head().id)
        XCTAssertEqual(ws.text(b, "document.txt"), "hello\n")
        XCTAssertEqual(b.metadata.title, "A")
        XCTAssertFalse(Repository.exists(at: b.url) && FileManager.default.fileExists(atPath: b.url.appendingPathComponent("HEAD").path))
        try ws.assertClean(b.url)
        try ws.assertFsck(b.url)
        XCTAssertEqual(try b.remotes().map(\.name), ["origin"])
        XCTAssertEqual(try b.syncStatus().remotes.first?.ahead, 0)
    }

    func testCloneRefusesARepositoryThatIsNotADocumentAndLeavesNothing() throws {
        // Given a plain git repository without .folio/document.json
        let plain = ws.dir.path("plain")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: plain, environment: ws.env)
        try ws.dir.write("plain/readme.txt", "hi\n")
        try git(["add", "."], in: plain, environment: ws.env)
        try git(["commit", "-qm", "init"], in: plain, environment: ws.env)
        // When it is cloned
        XCTAssertThrowsError(try ws.store.clone(from: plain.path, to: ws.dir.path("C"), options: transfer())) { error in
            // Then the error says why, and nothing is left beside the target
            XCTAssertTrue("\(error)".contains("not a Folio document"), "\(error)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: ws.dir.url.path).filter { $0.contains("C") }
        XCTAssertEqual(leftovers, [])
    }

    func testTwentyChangesOnEachSideAllArriveInBothClonesOverGitDaemon() throws {
        // Given two clones of one document served by git daemon on loopback
        try ws.bareRepository("doc.git")
        let daemon = try GitDaemon(basePath: ws.serversRoot, environment: ws.env)
        let (a, b) = try twoClones { _ in daemon.url("doc.git") }
        // When each makes 20 changes to different files in four rounds, syncing after each round
        for round in 0..<4 {
            for i in 0..<5 {
                let n = round * 5 + i
                try a.write(Data("a\(n)\n".utf8), to: "a/\(n).txt", message: "A \(n)")
                try b.write(Data("b\(n)\n".utf8), to: "b/\(n).txt", message: "B \(n)")
            }
            _ = try a.sync(options: options())
            let (pulled, pushed) = try b.sync(options: options())
            if case .conflict = pulled { XCTFail("unexpected conflict") }
            XCTAssertNotNil(pushed)
        }
        // (B's last merge and its 5 changes)
        XCTAssertEqual(try a.pull(options: options()), .fastForwarded(to: try b.head().id, versions: 6))
        // Then both clones have all 40 files with their content, the same head, and clean, sound repositories
        for document in [a, b] {
            for n in 0..<20 {
                XCTAssertEqual(ws.text(document, "a/\(n).txt"), "a\(n)\n")
                XCTAssertEqual(ws.text(document, "b/\(n).txt"), "b\(n)\n")
            }
            XCTAssertEqual(try document.files().count, 41)
            try ws.assertClean(document.url)
            try ws.assertFsck(document.url)
        }
        XCTAssertEqual(try a.head().id, try b.head().id)
        try ws.assertFsck(ws.serversRoot.appendingPathComponent("doc.git"))
        // And history is the 40 changes, the creation, and the merges: B's in each round, A's from the second round on
        let log = try b.log()
        XCTAssertEqual(log.filter { $0.summary.hasPrefix("A ") || $0.summary.hasPrefix("B ") }.count, 40)
        XCTAssertEqual(log.filter { $0.summary == "Merge origin/main" }.count, 7)
        XCTAssertTrue(log.allSatisfy { $0.parents.count <= 2 })
    }

    func testOverlappingChangesOverHTTPKeepBothVersionsAndMergeNothing() throws {
        // Given two clones over git http-backend
        try ws.bareRepository("doc.git")
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env)
        let (a, b) = try twoClones { _ in server.url("doc.git") }
        try a.write(Data("one\ntwo\nthree\n".utf8), to: "document.txt", message: "Base")
        _ = try a.sync(options: options())
        XCTAssertEqual(try b.pull(options: options()), .fastForwarded(to: try a.head().id, versions: 1))
        // When both change the same line and A syncs first
        try a.write(Data("one\nTWO from A\nthree\n".utf8), to: "document.txt", message: "A edits")
        try a.write(Data("a only\n".utf8), to: "a.txt", message: "A adds")
        try b.write(Data("one\nTWO from B\nthree\n".utf8), to: "document.txt", message: "B edits")
        _ = try a.sync(options: options())
        let bHead = try b.head().id
        let outcome = try b.pull(options: options())
        // Then B's version stays current, A's is kept under refs/folio/conflicts/…, nothing half-merged is committed
        guard case let .conflict(conflict) = outcome else { return XCTFail("expected a conflict, got \(outcome)") }
        XCTAssertEqual(conflict.paths, ["document.txt"])
        XCTAssertTrue(conflict.ref.hasPrefix("refs/folio/conflicts/"))
        XCTAssertEqual(try b.head().id, bHead)
        XCTAssertEqual(ws.text(b, "document.txt"), "one\nTWO from B\nthree\n")
        XCTAssertNil(ws.text(b, "a.txt"))
        XCTAssertEqual(try b.read(path: "document.txt", at: conflict.ref), Data("one\nTWO from A\nthree\n".utf8))
        XCTAssertEqual(try b.keptConflicts().map(\.ref), [conflict.ref])
        let summary = conflict.summary
        XCTAssertFalse(summary.contains("\n"))
        XCTAssertTrue(summary.contains(conflict.ref) && summary.contains("document.txt"), summary)
        XCTAssertFalse(summary.contains("folio "), "the library names no commands: \(summary)")
        try ws.assertClean(b.url)
        // And pulling again is held back by it (issue 32) and keeps the same ref rather than piling up new ones
        XCTAssertThrowsError(try b.pull(options: options())) { XCTAssertEqual($0 as? SyncError, .heldByConflict(document: b.url.path, conflicts: [conflict.ref])) }
        XCTAssertEqual(try b.keptConflicts().count, 1)
        // And pushing is refused until the conflict is settled
        XCTAssertThrowsError(try b.push(options: transfer()))
        // When B keeps its own version for the conflicting file
        let resolved = try XCTUnwrap(try b.resolveConflict(conflict.ref, keep: .local))
        // Then the merge takes A's other change, keeps B's line, and B can push; A fast-forwards to it
        XCTAssertEqual(resolved.parents.count, 2)
        XCTAssertEqual(ws.text(b, "a.txt"), "a only\n")
        XCTAssertEqual(ws.text(b, "document.txt"), "one\nTWO from B\nthree\n")
        XCTAssertEqual(try b.keptConflicts(), [])
        try b.push(options: transfer())
        XCTAssertEqual(try a.pull(options: options()), .fastForwarded(to: resolved.id, versions: 2))
        XCTAssertEqual(ws.text(a, "document.txt"), "one\nTWO from B\nthree\n")
        for document in [a, b] { try ws.assertClean(document.url); try ws.assertFsck(document.url) }
    }

    func testRestoringAKeptConflictThenPullingMergesCleanly() throws {
        // Given a kept conflict in B (bare repository by file:// URL)
        let (a, b) = try twoClones { "file://" + $0.path }
        try a.write(Data("A\n".utf8), to: "document.txt", message: "A")
        try b.write(Data("B\n".utf8), to: "document.txt", message: "B")
        _ = try a.sync(options: options())
        guard case let .conflict(conflict) = try b.pull(options: options()) else { return XCTFail("expected a conflict") }
        // When B takes theirs with restore, then settles the conflict (a kept conflict holds pulls back: issue 32)
        try b.restore(conflict.ref)
        XCTAssertThrowsError(try b.pull(options: options()))
        let settled = try XCTUnwrap(try b.resolveConflict(conflict.ref, keep: .local))
        // Then the merge is clean, content is A's, and B can push
        XCTAssertEqual(settled.parents.count, 2)
        XCTAssertEqual(try b.pull(options: options()), .upToDate)
        XCTAssertEqual(ws.text(b, "document.txt"), "A\n")
        try b.push(options: transfer())
        try ws.assertClean(b.url)
    }

    func testSemanticMergeIsTriedFirstForAConflictingFile() throws {
        // Given a merger that joins both sides' lines, and overlapping changes to the primary file
        struct JoinLines: SemanticMerging {
            func merge(contentType: ContentType, base: Data, ours: Data, theirs: Data) throws -> Data? {
                guard contentType == .plainText else { return nil }
                return ours + theirs
            }
        }
        let (a, b) = try twoClones { $0.path }
        try a.write(Data("from A\n".utf8), to: "document.txt", message: "A")
        try b.write(Data("from B\n".utf8), to: "document.txt", message: "B")
        _ = try a.sync(options: options())
        // When B pulls with the merger
        let outcome = try b.pull(options: SyncOptions(transfer: transfer(), semanticMerger: JoinLines()))
        // Then the file is merged by it, as one merge commit
        guard case let .merged(commit) = outcome else { return XCTFail("expected a merge, got \(outcome)") }
        XCTAssertEqual(commit.parents.count, 2)
        XCTAssertEqual(ws.text(b, "document.txt"), "from B\nfrom A\n")
        try ws.assertClean(b.url)
    }

    func testAMergeFollowsARenameOnTheOtherSide() throws {
        // Given a file A renames while B edits it
        let (a, b) = try twoClones { $0.path }
        let text = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        try a.write(Data(text.utf8), to: "notes.txt", message: "Notes")
        _ = try a.sync(options: options())
        _ = try b.pull(options: options())
        try a.apply([.delete(path: "notes.txt"), .write(path: "renamed.txt", data: Data(text.utf8))], message: "Rename")
        try b.write(Data(text.replacingOccurrences(of: "line 20", with: "line twenty").utf8), to: "notes.txt", message: "Edit")
        _ = try a.sync(options: options())
        // When B pulls
        guard case .merged = try b.pull(options: options()) else { return XCTFail("expected a merge") }
        // Then B's edit is in the renamed file and the old name is gone
        XCTAssertNil(ws.text(b, "notes.txt"))
        XCTAssertTrue(ws.text(b, "renamed.txt")?.contains("line twenty") == true)
        try ws.assertClean(b.url)
    }

    func testPullFastForwardsWorkTreeAndIndexIncludingDeletions() throws {
        let (a, b) = try twoClones { $0.path }
        try a.write(Data("x".utf8), to: "dir/x.txt", message: "X")
        try a.write(Data("y".utf8), to: "y.txt", message: "Y")
        _ = try a.sync(options: options())
        _ = try b.pull(options: options())
        try a.apply([.delete(path: "dir/x.txt"), .write(path: "y.txt", data: Data("y2".utf8))], message: "Change")
        _ = try a.sync(options: options())
        // When B pulls
        XCTAssertEqual(try b.pull(options: options()), .fastForwarded(to: try a.head().id, versions: 1))
        // Then the deletion and the edit are in B's work tree, and status is clean
        XCTAssertFalse(FileManager.default.fileExists(atPath: b.url.appendingPathComponent("dir").path))
        XCTAssertEqual(ws.text(b, "y.txt"), "y2")
        try ws.assertClean(b.url)
        XCTAssertEqual(try b.pull(options: options()), .upToDate)
    }

    func testACancelledFetchLeavesTheDocumentUntouched() throws {
        // Given a remote with new versions
        let (a, b) = try twoClones { "file://" + $0.path }
        for n in 0..<5 { try a.write(Data(String(repeating: "\(n)", count: 50_000).utf8), to: "f\(n).bin", message: "F\(n)") }
        _ = try a.sync(options: options())
        let before = try b.syncStatus()
        let tracking = try Repository.open(at: b.url).referenceTarget("refs/remotes/origin/main")
        // When B pulls and the transfer is cancelled
        let cancelling = SyncOptions(transfer: TransferOptions(environment: ws.env, isCancelled: { true }))
        XCTAssertThrowsError(try b.pull(options: cancelling))
        // Then nothing moved: head, remote-tracking ref, work tree
        XCTAssertEqual(try b.syncStatus(), before)
        XCTAssertEqual(try Repository.open(at: b.url).referenceTarget("refs/remotes/origin/main"), tracking)
        XCTAssertNil(ws.text(b, "f0.bin"))
        try ws.assertClean(b.url)
    }

    func testStatusReportsAheadBehindPerRemoteAndUnrecordedChanges() throws {
        let (a, b) = try twoClones { $0.path }
        try a.write(Data("1".utf8), to: "one.txt", message: "One")
        _ = try a.sync(options: options())
        try b.write(Data("2".utf8), to: "two.txt", message: "Two")
        try b.fetch(options: transfer())
        try ws.dir.write("B/stray.txt", "not recorded\n")
        // When B's status is asked
        let status = try b.syncStatus()
        // Then it is one ahead and one behind origin, with the stray file unrecorded
        XCTAssertEqual(status.remotes.map { [$0.ahead, $0.behind] }, [[1, 1]])
        XCTAssertEqual(status.unrecordedChanges, ["stray.txt"])
        // And a pull refuses to run over unrecorded changes
        XCTAssertThrowsError(try b.pull(options: options())) { error in
            guard case let .unrecordedChanges(_, paths)? = error as? SyncError else { return XCTFail("\(error)") }
            XCTAssertEqual(paths, ["stray.txt"])
            XCTAssertFalse("\(error)".contains("folio "), "the library names no commands: \(error)")
        }
    }

    func testPushIsRefusedWhenTheRemoteHasVersionsNotHere() throws {
        let (a, b) = try twoClones { $0.path }
        try a.write(Data("1".utf8), to: "one.txt", message: "One")
        try a.push(options: transfer())
        try b.write(Data("2".utf8), to: "two.txt", message: "Two")
        XCTAssertThrowsError(try b.push(options: transfer())) { error in
            XCTAssertTrue("\(error)".contains("refused"), "\(error)")
            guard case let .remoteAhead(_, remote, _)? = error as? SyncError else { return XCTFail("expected remoteAhead, got \(error)") }
            XCTAssertEqual(remote, "origin")
        }
    }

    func testAPushTheServersHookDeclinesIsARefusalNotVersionsToPullAndMovesNothing() throws {
        // Given a document published over git:// to a repository whose pre-receive hook then declines every push
        let bare = try ws.bareRepository("doc.git")
        let daemon = try GitDaemon(basePath: ws.serversRoot, environment: ws.env)
        let a = try ws.document("A")
        try a.addRemote("origin", url: daemon.url("doc.git"))
        try a.push(options: transfer())
        let published = try a.head().id
        let hook = bare.appendingPathComponent("hooks/pre-receive")
        try "#!/bin/sh\necho 'read only' >&2\nexit 1\n".write(to: hook, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(hook.path, 0o755), 0)
        try a.write(Data("1".utf8), to: "one.txt", message: "One")
        // When it pushes a new version
        XCTAssertThrowsError(try a.push(options: transfer())) { error in
            // Then the push is refused for the server's reason, naming the branch, and not as versions to pull first
            guard case let .pushRejected(remote, reason)? = error as? SyncError else { return XCTFail("expected pushRejected, got \(error)") }
            XCTAssertEqual(remote, "origin")
            XCTAssertTrue(reason.contains("refs/heads/main") && reason.contains("declined"), reason)
        }
        // And the server's branch has not moved
        let tip = try git(["rev-parse", "refs/heads/main"], in: bare, environment: ws.env).stdout
        XCTAssertEqual(tip.trimmingCharacters(in: .whitespacesAndNewlines), published.hex)
    }

    func testChecklistEditorMergesConflictingChecklistItemByItem() throws {
        // Given a checklist document in two clones, with the bundled Checklist plugin
        let bare = try ws.bareRepository("list.git")
        let a = try ws.document("List", type: "org.folio.checklist")
        let file = a.metadata.primaryFile
        try a.write(Data(#"{"title": "G", "items": [{"title": "Milk", "checked": false}, {"title": "Eggs", "checked": false}]}"#.utf8), to: file, message: "Base")
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path("List2"), options: transfer())
        // When A checks Milk and adds Tea while B adds Bread (the same line of text on both sides)
        try a.write(Data(#"{"title": "G", "items": [{"title": "Milk", "checked": true}, {"title": "Eggs", "checked": false}, {"title": "Tea", "checked": false}]}"#.utf8), to: file, message: "A")
        try b.write(Data(#"{"title": "G", "items": [{"title": "Bread", "checked": false}, {"title": "Milk", "checked": false}]}"#.utf8), to: file, message: "B")
        try a.push(options: transfer())
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(productsDirectory, bundled: true)]))
        let outcome = try b.pull(options: SyncOptions(transfer: transfer(), semanticMerger: PluginSemanticMerger(host: host)))
        // Then the editor's merge is committed as one merge, with every item change from both sides
        guard case .merged = outcome else { return XCTFail("expected a semantic merge, got \(outcome)") }
        let merged = try XCTUnwrap(ws.text(b, file))
        for title in ["Bread", "Milk", "Tea"] { XCTAssertTrue(merged.contains(title), merged) }
        XCTAssertFalse(merged.contains("Eggs"), merged)
        XCTAssertFalse(merged.contains("<<<<<<<"), merged)
        try ws.assertClean(b.url)
    }

    func testAFastForwardKilledAfterMovingTheBranchIsFinishedOnTheNextSyncCommand() throws {
        // Given B fetched A's new version, and a fast-forward that died right after moving B's branch
        let (a, b) = try twoClones { $0.path }
        try a.apply([.write(path: "new.txt", data: Data("new\n".utf8)), .write(path: "document.txt", data: Data("edited\n".utf8))], message: "Two files")
        try a.push(options: transfer())
        try b.fetch(options: transfer())
        let oldTree = try b.head().tree
        let target = try a.head().id
        try git(["update-ref", "refs/heads/main", target.hex], in: b.url, environment: ws.env)
        // (the crash note lives in the lock file, written in place)
        let note = try FileHandle(forWritingTo: b.url.appendingPathComponent(".git/folio/lock"))
        try note.truncate(atOffset: 0)
        try note.write(contentsOf: Data("\(target.hex) \(oldTree.hex)".utf8))
        try note.close()
        // When any sync command runs next
        let status = try b.syncStatus()
        // Then the work tree and index are finished: both files are there and git status is clean
        XCTAssertEqual(status.unrecordedChanges, [])
        XCTAssertEqual(ws.text(b, "new.txt"), "new\n")
        XCTAssertEqual(ws.text(b, "document.txt"), "edited\n")
        let cleared = String(decoding: try Data(contentsOf: b.url.appendingPathComponent(".git/folio/lock")), as: UTF8.self)
        XCTAssertEqual(cleared.trimmingCharacters(in: .whitespaces), "", "the crash note is cleared")
        try ws.assertClean(b.url)
    }
}
