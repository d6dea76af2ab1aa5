import FolioGit
import FolioTestSupport
import Foundation
import XCTest

final class RepositoryTests: XCTestCase {
    func commitFile(_ repo: Repository, _ path: String, _ text: String, parent: ObjectID?) throws -> ObjectID {
        let blob = try repo.writeBlob(Data(text.utf8))
        let base = try parent.map { try repo.commit($0).tree }
        let tree = try repo.updateTree(base, [.upsert(path: path, blob: blob, mode: 0o100644)])
        let sig = Signature(name: "Ada", email: "ada@example.com")
        let id = try repo.createCommit(tree: tree, parents: parent.map { [$0] } ?? [], author: sig, message: "write \(path)")
        try repo.updateReference("refs/heads/main", to: id, expecting: parent, logMessage: "test")
        return id
    }

    func testBlobRoundTripKeepsBinaryBytes() throws {
        // Given a new repository
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        // When bytes including NUL are written as a blob
        let bytes = Data([0, 1, 2, 255, 10, 0])
        let id = try repo.writeBlob(bytes)
        // Then they read back the same and the id is git's
        XCTAssertEqual(try repo.readBlob(id), bytes)
        XCTAssertEqual(try repo.writeBlob(Data("hello\n".utf8)).hex, "ce013625030ba8dba906f756967f9e9ca394464a")
    }

    func testTreeUpdateCreatesNestedFoldersAndRemovesFiles() throws {
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        let a = try repo.writeBlob(Data("a".utf8))
        let tree = try repo.updateTree(nil, [.upsert(path: "x/y/a.txt", blob: a, mode: 0o100644), .upsert(path: "b.sh", blob: a, mode: 0o100755)])
        XCTAssertEqual(try repo.files(inTree: tree).map(\.path), ["b.sh", "x/y/a.txt"])
        XCTAssertEqual(try repo.entry(atPath: "b.sh", inTree: tree)?.isExecutable, true)
        let smaller = try repo.updateTree(tree, [.remove(path: "x/y/a.txt")])
        XCTAssertEqual(try repo.files(inTree: smaller).map(\.path), ["b.sh"])
        XCTAssertNil(try repo.entry(atPath: "x/y/a.txt", inTree: smaller))
    }

    func testReferenceUpdateRefusesWhenTheBranchMoved() throws {
        // Given a branch at commit 2
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        let first = try commitFile(repo, "f", "1", parent: nil)
        let second = try commitFile(repo, "f", "2", parent: first)
        // When a writer that still believes the branch is at commit 1 tries to move it
        let stale = try repo.createCommit(tree: repo.commit(first).tree, parents: [first], author: Signature(name: "B", email: "b@x"), message: "stale")
        // Then the update is refused as modified and the branch stays put
        XCTAssertThrowsError(try repo.updateReference("refs/heads/main", to: stale, expecting: first, logMessage: "x")) { error in
            XCTAssertTrue((error as? GitError)?.isModified == true, "\(error)")
        }
        XCTAssertEqual(try repo.headCommitID(), second)
    }

    func testLogPagesNewestFirstWithoutSorting() throws {
        let dir = TemporaryDirectory()
        let repo = try Repository.create(at: dir.path("r"))
        var head: ObjectID?
        for i in 1...30 { head = try commitFile(repo, "f", "\(i)", parent: head) }
        let tip = try XCTUnwrap(head)
        let page = try repo.log(from: tip, skip: 5, limit: 10)
        XCTAssertEqual(page.count, 10)
        XCTAssertEqual(try page.map { String(decoding: try repo.readBlob(try XCTUnwrap(repo.entry(atPath: "f", inTree: $0.tree)).id), as: UTF8.self) },
                       (16...25).reversed().map(String.init))
        XCTAssertEqual(try repo.countCommits(from: tip), 30)
    }

    func testLogListsEveryCommitOnceThroughMergesAndSkewedClocks() throws {
        // Given a history with a linear start, then two diamonds whose sides carry clocks running ahead and behind
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let repo = try Repository.create(at: dir.path("r"))
        let tree = try repo.updateTree(nil, [.upsert(path: "f", blob: try repo.writeBlob(Data("x".utf8)), mode: 0o100644)])
        var time = 1_700_000_000.0
        func commit(_ name: String, _ parents: [ObjectID], skew: Double = 0) throws -> ObjectID {
            time += 60
            let sig = Signature(name: "Ada", email: "ada@example.com", time: Date(timeIntervalSince1970: time + skew), timeZoneOffset: 0)
            return try repo.createCommit(tree: tree, parents: parents, author: sig, message: name)
        }
        var tip = try commit("root", [])
        for i in 1...5 { tip = try commit("line \(i)", [tip]) }
        for round in 1...2 {
            let base = tip
            let ahead = try commit("ahead \(round)", [try commit("ahead base \(round)", [base], skew: 86_400)], skew: 86_400)
            let behind = try commit("behind \(round)", [try commit("behind base \(round)", [base], skew: -86_400)])
            tip = try commit("merge \(round)", [ahead, behind])
        }
        try repo.updateReference("refs/heads/main", to: tip, expecting: nil, logMessage: "test")
        // When the whole log is listed, and in pages
        let all = try repo.log(from: tip).map(\.id)
        var paged: [ObjectID] = []
        for page in 0..<5 { paged += try repo.log(from: tip, skip: page * 4, limit: 4).map(\.id) }
        // Then every commit git knows appears exactly once, newest first from the tip, and pages add up to the whole
        let gitIDs = try git(["rev-list", "main"], in: dir.path("r"), environment: env).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(all.count, 16)
        XCTAssertEqual(Set(all.map(\.hex)), Set(gitIDs))
        XCTAssertEqual(Set(all).count, all.count, "no commit is listed twice")
        XCTAssertEqual(all.first, tip)
        XCTAssertEqual(paged, all)
    }

    func testTheCommitGraphIsReadBackAndRewrittenOnceHistoryOutgrowsItByAQuarter() throws {
        // Given 40 commits and a commit-graph written over them
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let repo = try Repository.create(at: dir.path("r"))
        XCTAssertNil(repo.commitGraphCount())
        var head: ObjectID?
        for i in 1...40 { head = try commitFile(repo, "f", "\(i)", parent: head) }
        try repo.writeCommitGraph()
        // Then Folio reads the count git would, and git finds the graph valid
        XCTAssertEqual(repo.commitGraphCount(), 40)
        let verify = try git(["commit-graph", "verify"], in: dir.path("r"), environment: env)
        XCTAssertEqual(verify.status, 0, verify.stderr)
        // And it is stale only once the history has grown by more than a quarter
        XCTAssertFalse(repo.commitGraphIsStale(commits: 50))
        XCTAssertTrue(repo.commitGraphIsStale(commits: 51))
        // And a damaged file reads as no graph
        try Data("CGPH".utf8).write(to: dir.path("r/.git/objects/info/commit-graph"))
        XCTAssertNil(repo.commitGraphCount())
    }

    func testOpeningAMissingRepositoryNamesThePath() throws {
        let dir = TemporaryDirectory()
        XCTAssertThrowsError(try Repository.open(at: dir.path("nope"))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(dir.path("nope").path), text)
            XCTAssertTrue(text.contains("open repository failed"), text)
        }
    }

    func testPackingRemovesLooseObjectsAndGitStillReadsEverything() throws {
        // Given a repository with many loose objects
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let repo = try Repository.create(at: dir.path("r"))
        var head: ObjectID?
        for i in 1...50 { head = try commitFile(repo, "notes/file.txt", String(repeating: "line \(i)\n", count: 20), parent: head) }
        try repo.createTag("v1", target: try XCTUnwrap(head), tagger: Signature(name: "A", email: "a@x"), message: "v1\n")
        // When everything is packed and a commit-graph written
        try repo.pack(all: true)
        try repo.writeCommitGraph()
        // Then no loose objects remain, there is one pack, and git agrees the repository is whole
        let objects = dir.path("r/.git/objects")
        // (Empty fan-out folders stay, as git leaves them: removing one races with a writer about to fill it.)
        let loose = try FileManager.default.contentsOfDirectory(atPath: objects.path).filter { $0.count == 2 }
            .flatMap { try FileManager.default.contentsOfDirectory(atPath: objects.appendingPathComponent($0).path) }
        XCTAssertEqual(loose, [])
        XCTAssertEqual(repo.packCount(), 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: objects.appendingPathComponent("info/commit-graph").path))
        let fsck = try git(["fsck", "--strict", "--no-dangling"], in: dir.path("r"), environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stderr)
        XCTAssertEqual(try git(["rev-list", "--count", "v1"], in: dir.path("r"), environment: env).stdout, "50\n")
        let reopened = try Repository.open(at: dir.path("r"))
        XCTAssertEqual(try reopened.countCommits(from: try XCTUnwrap(head)), 50)
    }

    func testIncrementalPackingMergesPacksGeometricallyAndLosesNothing() throws {
        // Given a history packed a little at a time, a few more times than packs may sit side by side
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let repo = try Repository.create(at: dir.path("r"))
        var head: ObjectID?
        let rounds = Repository.packsBeforeMerging + 4
        var merges = 0
        for round in 1...rounds {
            for i in 1...15 { head = try commitFile(repo, "f.txt", "round \(round) change \(i)\n", parent: head) }
            if try repo.packIncrementally() { merges += 1 }
            // Then packs never pile up beyond the limit, and a merge leaves each kept pack outweighing all smaller
            // ones together
            let sizes = repo.packs().map(\.objects)
            XCTAssertLessThanOrEqual(sizes.count, Repository.packsBeforeMerging, "round \(round): \(sizes)")
            if round == Repository.packsBeforeMerging + 1 {
                for (index, size) in sizes.enumerated() where index + 1 < sizes.count {
                    XCTAssertGreaterThan(size, 2 * sizes[(index + 1)...].reduce(0, +), "round \(round): \(sizes)")
                }
            }
        }
        XCTAssertEqual(merges, 1)
        XCTAssertEqual(repo.estimatedLooseObjects(), 0)
        XCTAssertEqual(try repo.countCommits(from: try XCTUnwrap(head)), 15 * rounds)
        let fsck = try git(["fsck", "--strict", "--no-dangling"], in: dir.path("r"), environment: env)
        XCTAssertEqual(fsck.status, 0, fsck.stderr)
        XCTAssertEqual(try git(["count-objects", "-v"], in: dir.path("r"), environment: env).stdout.split(separator: "\n").first, "count: 0")
    }

    func testFetchAndPushThroughGitDaemon() throws {
        // Given a bare repository served by git daemon on loopback
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let served = dir.path("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        _ = try Repository.create(at: served.appendingPathComponent("doc.git"), bare: true)
        let daemon = try GitDaemon(basePath: served, environment: env)
        let local = try Repository.create(at: dir.path("local"))
        let head = try commitFile(local, "a.txt", "hello", parent: nil)
        try local.addRemote("origin", url: daemon.url("doc.git"))
        // When it pushes and another repository fetches
        try local.push("origin", refspecs: ["refs/heads/main:refs/heads/main"], options: TransferOptions(environment: env))
        let other = try Repository.create(at: dir.path("other"))
        try other.addRemote("origin", url: daemon.url("doc.git"))
        let first = try other.fetch("origin", options: TransferOptions(environment: env))
        // Then the commit arrives, and a second fetch transfers nothing
        XCTAssertEqual(try other.referenceTarget("refs/remotes/origin/main"), head)
        XCTAssertGreaterThan(first.receivedObjects, 0)
        let second = try other.fetch("origin", options: TransferOptions(environment: env))
        XCTAssertEqual(second.receivedObjects, 0)
        XCTAssertEqual(try other.remoteDefaultBranch("origin", options: TransferOptions(environment: env)), "refs/heads/main")
    }

    func testPushOfDivergedHistoryIsRejectedWithTheRefNamed() throws {
        let dir = TemporaryDirectory()
        let bare = try Repository.create(at: dir.path("remote.git"), bare: true)
        _ = bare
        let a = try Repository.create(at: dir.path("a"))
        _ = try commitFile(a, "f", "a", parent: nil)
        try a.push(dir.path("remote.git").path, refspecs: ["refs/heads/main:refs/heads/main"])
        let b = try Repository.create(at: dir.path("b"))
        _ = try commitFile(b, "f", "b", parent: nil)
        XCTAssertThrowsError(try b.push(dir.path("remote.git").path, refspecs: ["refs/heads/main:refs/heads/main"])) { error in
            XCTAssertTrue("\(error)".contains("push"), "\(error)")
        }
    }

    func testCancelledFetchLeavesRefsUntouched() throws {
        let dir = TemporaryDirectory()
        let source = try Repository.create(at: dir.path("src"))
        var head: ObjectID?
        for i in 1...20 { head = try commitFile(source, "f\(i)", String(repeating: "x\(i)", count: 500), parent: head) }
        let mirror = try Repository.create(at: dir.path("mirror.git"), bare: true)
        try mirror.addRemote("origin", url: "file://" + dir.path("src").path, fetchRefspec: "+refs/*:refs/*")
        XCTAssertThrowsError(try mirror.fetch("origin", options: TransferOptions(environment: dir.environment(), isCancelled: { true })))
        XCTAssertNil(try mirror.referenceTarget("refs/heads/main"))
        try mirror.fetch("origin", options: TransferOptions(environment: dir.environment()))
        XCTAssertEqual(try mirror.referenceTarget("refs/heads/main"), head)
    }
}
