import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// Objects written as one pack, and many blobs read at once.
final class RepositoryBatchTests: XCTestCase {
    func testGivenObjectsWrittenAsOnePackWhenACommitIsWrittenAfterwardsThroughTheSameHandleThenGitReadsBoth() throws {
        // Given a repository whose tree was written as one pack
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        let signature = Signature(name: "A", email: "a@x")
        let (tree, first) = try repo.writingObjectsAsOnePack { writer -> (ObjectID, ObjectID) in
            let blobs = try (0..<100).map { try writer.writeBlob(Data("file \($0)\n".utf8)) }
            let tree = try writer.updateTree(nil, blobs.enumerated().map { .upsert(path: "f\($0.offset).txt", blob: $0.element, mode: 0o100644) })
            return (tree, try writer.createCommit(tree: tree, parents: [], author: signature, message: "first\n"))
        }
        // When a blob and a commit are written afterwards through the handle that asked for the pack
        let late = try repo.writeBlob(Data("late\n".utf8))
        let tree2 = try repo.updateTree(tree, [.upsert(path: "late.txt", blob: late, mode: 0o100644)])
        let commit = try repo.createCommit(tree: tree2, parents: [first], author: signature, message: "second\n")
        try repo.updateReference("refs/heads/main", to: commit, expecting: nil, logMessage: "test")
        // Then they reached the disk (not a lost in-memory pack), the first commit's objects are in one pack, and git agrees
        XCTAssertEqual(repo.packCount(), 1)
        let reopened = try Repository.open(at: dir.path("r"))
        XCTAssertEqual(try reopened.commit(commit).tree, tree2)
        XCTAssertEqual(try reopened.readBlob(late), Data("late\n".utf8))
        let fsck = try git(["fsck", "--strict", "--no-dangling"], in: dir.path("r"), environment: dir.environment())
        XCTAssertEqual(fsck.status, 0, fsck.stderr)
        XCTAssertEqual(try git(["ls-tree", "--name-only", "main"], in: dir.path("r"), environment: dir.environment()).stdout.split(separator: "\n").count, 101)
    }

    func testGivenAWriterOpenedAheadWhenObjectsAreWrittenAsOnePackThenTheyArePackedAndTheHandleItselfIsRefused() throws {
        // Given a repository and a second handle on it opened ahead
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        let writer = try Repository.open(at: dir.path("r"))
        // When the handle itself is offered as the writer, Then it is refused (its objects would stay in memory)
        XCTAssertThrowsError(try repo.writingObjectsAsOnePack(using: repo) { _ in () })
        // When the second handle writes a commit's objects as one pack
        let commit = try repo.writingObjectsAsOnePack(using: writer) { writer in
            let blob = try writer.writeBlob(Data("ahead\n".utf8))
            let tree = try writer.updateTree(nil, [.upsert(path: "a.txt", blob: blob, mode: 0o100644)])
            return try writer.createCommit(tree: tree, parents: [], author: Signature(name: "A", email: "a@x"), message: "m\n")
        }
        try repo.updateReference("refs/heads/main", to: commit, expecting: nil, logMessage: "test")
        // Then they are on disk in one pack and git reads them
        XCTAssertEqual(repo.packCount(), 1)
        XCTAssertEqual(try git(["show", "main:a.txt"], in: dir.path("r"), environment: dir.environment()).stdout, "ahead\n")
    }

    func testGivenManyBlobsWhenReadAtOnceThenEachComesBackInOrder() throws {
        // Given 300 different blobs, some loose and some packed
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        let texts = (0..<300).map { String(repeating: "blob \($0) ", count: $0 % 17 + 1) }
        let packed = try repo.writingObjectsAsOnePack { writer in
            let blobs = try texts[..<150].map { try writer.writeBlob(Data($0.utf8)) }
            let tree = try writer.updateTree(nil, blobs.enumerated().map { .upsert(path: "p\($0.offset)", blob: $0.element, mode: 0o100644) })
            _ = try writer.createCommit(tree: tree, parents: [], author: Signature(name: "A", email: "a@x"), message: "m\n")
            return blobs
        }
        let loose = try texts[150...].map { try repo.writeBlob(Data($0.utf8)) }
        // When all are read at once (over several handles) and one by one
        let all = try repo.readBlobs(packed + loose, threshold: 8, workers: 3)
        // Then each holds its own text, in the order asked
        XCTAssertEqual(all.map { String(decoding: $0, as: UTF8.self) }, texts)
    }

    func testGivenAMissingBlobAmongManyWhenReadAtOnceThenItFailsNamingIt() throws {
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        var ids = try (0..<100).map { try repo.writeBlob(Data("b\($0)".utf8)) }
        let missing = try XCTUnwrap(ObjectID(hex: String(repeating: "ab", count: 20)))
        ids.insert(missing, at: 57)
        XCTAssertThrowsError(try repo.readBlobs(ids, threshold: 8, workers: 2)) { error in
            XCTAssertTrue(String(describing: error).contains(missing.hex), "\(error)")
        }
    }
}
