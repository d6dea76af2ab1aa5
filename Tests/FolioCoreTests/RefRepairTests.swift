import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// A damaged branch is never read as "no versions yet": reads and changes throw `RefError.damaged`, and
/// `repairRefs()` chooses the newest version the repository holds without losing any other.
final class RefRepairTests: StoreTestCase {
    /// A document with three versions; returns it and its versions, newest first.
    func makeDocument() throws -> (Document, [ObjectID]) {
        let document = try store.create(at: dir.path("Doc"))
        try document.write(Data("one\n".utf8), to: "document.txt", message: "One")
        try document.write(Data("two\n".utf8), to: "document.txt", message: "Two")
        return (document, try document.log().compactMap { ObjectID(hex: $0.id) })
    }

    var gitFolder: URL { dir.path("Doc/.git") }

    func gitOut(_ args: [String], extra: [String: String] = [:]) throws -> String {
        let result = try git(args, in: dir.path("Doc"), environment: env.merging(extra) { $1 })
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// A commit made by plain git on `parent` with `tree`, committed at `date` (nothing names it).
    func plainCommit(tree: String, parent: ObjectID, date: String, message: String) throws -> ObjectID {
        let dates = ["GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date]
        return try XCTUnwrap(ObjectID(hex: gitOut(["commit-tree", tree, "-p", parent.hex, "-m", message], extra: dates)))
    }

    func breakBranch() throws {
        try FileManager.default.removeItem(at: gitFolder.appendingPathComponent("refs/heads/main"))
        try FileManager.default.createDirectory(at: gitFolder.appendingPathComponent("refs/heads/main"), withIntermediateDirectories: false)
    }

    func assertFsckClean(file: StaticString = #filePath, line: UInt = #line) throws {
        let fsck = try git(["fsck", "--strict", "--no-dangling"], in: dir.path("Doc"), environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stderr, file: file, line: line)
        XCTAssertEqual(fsck.stdout + fsck.stderr, "", file: file, line: line)
    }

    func testGivenADamagedBranchWhenReadOrChangedThenEachThrowsTheDamageAndNothingIsCommitted() throws {
        // Given a document whose branch ref became a folder
        let (document, versions) = try makeDocument()
        try breakBranch()
        let damaged = RefError.damaged(document: document.url.path, problem: .branchIsFolder("refs/heads/main"))
        // When it is read or changed, then each says the branch is damaged (not "no versions", not a new history)
        XCTAssertThrowsError(try document.log()) { XCTAssertEqual($0 as? RefError, damaged) }
        XCTAssertThrowsError(try document.head()) { XCTAssertEqual($0 as? RefError, damaged) }
        XCTAssertThrowsError(try document.write(Data("x\n".utf8), to: "document.txt", message: "X")) { XCTAssertEqual($0 as? RefError, damaged) }
        XCTAssertThrowsError(try document.restore(versions[2].hex)) { XCTAssertEqual($0 as? RefError, damaged) }
        XCTAssertThrowsError(try document.undo()) { XCTAssertEqual($0 as? RefError, damaged) }
        try Data("edited\n".utf8).write(to: dir.path("Doc/document.txt"))
        XCTAssertThrowsError(try document.commitWorkTree()) { XCTAssertEqual($0 as? RefError, damaged) }
        XCTAssertEqual(try document.refProblem(), .branchIsFolder("refs/heads/main"))
        // And opening it again says the same (opening itself works, so the repair can run)
        let reopened = try store.open(at: document.url)
        XCTAssertThrowsError(try reopened.log()) { XCTAssertEqual($0 as? RefError, damaged) }
        // When repaired, then the branch names the newest version and the edit in the work tree is still there
        let repair = try XCTUnwrap(reopened.repairRefs())
        XCTAssertEqual(repair.restored, versions[0])
        XCTAssertEqual(repair.summary, "Two")
        XCTAssertEqual(repair.kept, [])
        XCTAssertEqual(try reopened.log().map(\.id), versions.map(\.hex))
        XCTAssertEqual(try reopened.commitWorkTree()?.parents, [versions[0]])
        XCTAssertNil(try reopened.repairRefs())
        try assertFsckClean()
    }

    func testGivenARemoteVersionNewerThanTheLostTipWhenRepairedThenTheLocalTipIsChosenAndTheRemoteRefStays() throws {
        // Given a document, and a remote-tracking ref naming a newer version that does not build on the local tip
        let (document, versions) = try makeDocument()
        let tree = try gitOut(["rev-parse", versions[1].hex + "^{tree}"])
        let remote = try plainCommit(tree: tree, parent: versions[1], date: "2099-01-01T00:00:00Z", message: "Theirs")
        _ = try gitOut(["update-ref", "refs/remotes/origin/main", remote.hex])
        try breakBranch()
        // When repaired
        let repair = try XCTUnwrap(document.repairRefs())
        // Then the branch gets its own tip back (the remote's version is the remote's), and the remote ref is untouched
        XCTAssertEqual(repair.restored, versions[0])
        XCTAssertEqual(repair.kept, [])
        XCTAssertEqual(try gitOut(["rev-parse", "refs/remotes/origin/main"]), remote.hex)
        XCTAssertEqual(try document.head().id, versions[0])
        try assertFsckClean()
    }

    func testGivenTwoVersionsNothingNamesWhenRepairedThenTheNewestIsChosenAndTheOtherIsKept() throws {
        // Given a document with a newer version made by plain git beside the tip, nothing naming either, and the branch lost
        let (document, versions) = try makeDocument()
        let tree = try gitOut(["rev-parse", versions[1].hex + "^{tree}"])
        let newer = try plainCommit(tree: tree, parent: versions[1], date: "2099-01-01T00:00:00Z", message: "Newer")
        try breakBranch()
        // When repaired
        let repair = try XCTUnwrap(document.repairRefs())
        // Then the newest is the branch's tip, and the old tip is kept under a ref so no version is lost
        XCTAssertEqual(repair.restored, newer)
        XCTAssertEqual(repair.reason, "the newest version the repository holds (of 2 that no other version builds on)")
        XCTAssertEqual(repair.kept, ["refs/folio/recovered/\(versions[0].hex)"])
        XCTAssertEqual(try gitOut(["rev-parse", "refs/folio/recovered/\(versions[0].hex)"]), versions[0].hex)
        try assertFsckClean()
        // And compact, which reads every ref, keeps both histories
        try document.compact()
        XCTAssertEqual(try gitOut(["rev-list", "--all"]).split(separator: "\n").count, 4)
    }

    func testGivenANewerCommitWithoutAValidDocumentFileWhenRepairedThenItIsNeverChosen() throws {
        // Given a newer commit on the tip whose tree is not a document (no .folio/document.json), nothing naming it
        let (document, versions) = try makeDocument()
        let emptyTree = try gitOut(["hash-object", "-t", "tree", "-w", "/dev/null"])
        _ = try plainCommit(tree: emptyTree, parent: versions[0], date: "2099-01-01T00:00:00Z", message: "Not a document")
        try breakBranch()
        // When repaired, then the document's own newest version is chosen and nothing else is kept
        let repair = try XCTUnwrap(document.repairRefs())
        XCTAssertEqual(repair.restored, versions[0])
        XCTAssertEqual(repair.kept, [])
        try assertFsckClean()
    }

    func testGivenTheBranchFolderHoldingOtherRefsWhenRepairedThenItIsRefusedAndNothingIsWritten() throws {
        // Given a branch ref replaced by a folder that holds another ref
        let (document, versions) = try makeDocument()
        try FileManager.default.removeItem(at: gitFolder.appendingPathComponent("refs/heads/main"))
        _ = try gitOut(["update-ref", "refs/heads/main/other", versions[2].hex])
        let refsBefore = try gitOut(["for-each-ref"])
        // When repaired, then it is refused naming the ref in the way, and no ref was written
        XCTAssertThrowsError(try document.repairRefs()) { error in
            XCTAssertEqual(error as? RefError, .unrepairable(document: document.url.path, problem: .branchIsFolder("refs/heads/main"),
                                                             why: "refs/heads/main is a folder holding other refs (refs/heads/main/other)"))
        }
        XCTAssertEqual(try gitOut(["for-each-ref"]), refsBefore)
    }

    func testGivenADetachedHEADWithPlainGitCommitsWhenRepairedThenOnesBuildingOnTheBranchBecomeItsTipAndOthersAreKept() throws {
        // Given a document whose HEAD plain git detached onto a new version built on the tip
        let (document, versions) = try makeDocument()
        let tree = try gitOut(["rev-parse", versions[0].hex + "^{tree}"])
        let onTop = try plainCommit(tree: tree, parent: versions[0], date: "2030-01-01T00:00:00Z", message: "On top")
        try Data((onTop.hex + "\n").utf8).write(to: gitFolder.appendingPathComponent("HEAD"))
        XCTAssertEqual(try document.refProblem(), .headDetached(onTop))
        // When repaired, then HEAD names the branch again and the branch moved forward to that version
        let forward = try XCTUnwrap(document.repairRefs())
        XCTAssertTrue(forward.headRepaired)
        XCTAssertEqual(forward.restored, onTop)
        XCTAssertEqual(try document.head().id, onTop)
        // Given HEAD detached again, onto a version beside the tip this time
        let beside = try plainCommit(tree: tree, parent: versions[1], date: "2030-01-02T00:00:00Z", message: "Beside")
        try Data((beside.hex + "\n").utf8).write(to: gitFolder.appendingPathComponent("HEAD"))
        // When repaired, then the branch stays and that version is kept under a ref, so it is not lost
        let kept = try XCTUnwrap(document.repairRefs())
        XCTAssertNil(kept.restored)
        XCTAssertEqual(kept.kept, ["refs/folio/recovered/\(beside.hex)"])
        XCTAssertEqual(try document.head().id, onTop)
        try assertFsckClean()
    }

    func testGivenACrashNoteAndAReflogWhenTheDamagedDocumentIsOpenedThenTheNoteStaysAndTheRepairNamesBoth() throws {
        // Given a document whose git config keeps reflogs, a change the crash note names, then a garbled branch
        let (_, _) = try makeDocument()
        _ = try gitOut(["config", "core.logAllRefUpdates", "true"])
        let document = try store.open(at: dir.path("Doc"))
        let tip = try XCTUnwrap(document.write(Data("three\n".utf8), to: "document.txt", message: "Three")).id
        let note = (tip.hex + " " + (try gitOut(["rev-parse", "\(tip.hex)^{tree}"]))).padding(toLength: 160, withPad: " ", startingAt: 0)
        try Data(note.utf8).write(to: gitFolder.appendingPathComponent("folio/lock"))
        try Data("garbled\n".utf8).write(to: gitFolder.appendingPathComponent("refs/heads/main"))
        // When the document is opened for writing (which finishes interrupted changes)
        let reopened = try store.open(at: dir.path("Doc"))
        // Then the note is kept: it names a version the repair may need
        XCTAssertEqual(try Data(contentsOf: gitFolder.appendingPathComponent("folio/lock")), Data(note.utf8))
        // And the repair says what named the version it chose
        let repair = try XCTUnwrap(reopened.repairRefs())
        XCTAssertEqual(repair.restored, tip)
        XCTAssertEqual(repair.reason, "the newest version the repository holds, also named by Folio's note of the change it was making, "
                       + "the reflog of HEAD, the reflog of refs/heads/main")
        try assertFsckClean()
    }
}
