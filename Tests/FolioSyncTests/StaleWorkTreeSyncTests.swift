import FolioCore
import FolioGit
@testable import FolioSync
import FolioTestSupport
import Foundation
import XCTest

/// Pulling into a document whose work tree a failed write left behind, and what a sync=full pull makes durable.
final class StaleWorkTreeSyncTests: XCTestCase {
    func testGivenAWorkTreeLeftBehindByAFullDiskWhenPullingThenItMergesAndRepairMendsTheWorkTreeButAUserChangeStillStopsIt() throws {
        let ws = try SyncWorkspace()
        guard let disk = SmallFileSystem(at: ws.dir.path("disk"), bytes: 2 << 20) else { throw XCTSkip("mounting a tmpfs needs root") }
        // Given a document, a clone of it with a new version, and a write here that could not reach the full disk
        let document = try ws.store.create(at: disk.url.appendingPathComponent("Doc"))
        let other = try ws.store.clone(from: document.url.path, to: ws.dir.path("Other"))
        try other.write(Data("theirs\n".utf8), to: "other.txt", message: "Theirs")
        try document.addRemote("other", url: other.url.path)
        try disk.fill(leaving: 64 << 10)
        try document.write(Data(count: 300_000), to: "big.txt", message: "Big")
        XCTAssertEqual(try document.workTreeStatus().outOfDate, ["big.txt"])
        // When the user puts their own big.txt there, then the pull stops: that is their change
        try Data("mine\n".utf8).write(to: document.url.appendingPathComponent("big.txt"))
        XCTAssertThrowsError(try document.pull(from: "other")) { error in
            XCTAssertEqual(error as? SyncError, .unrecordedChanges(document: document.url.path, paths: ["big.txt"]))
        }
        try FileManager.default.removeItem(at: document.url.appendingPathComponent("big.txt"))
        // When `folio pull` runs with only Folio's stale file out of date, then the remote version is merged, with
        // one warning that the work tree is still out of date
        let pulled = ws.folio(["pull", document.url.path, "other"])
        XCTAssertTrue(pulled.stdout.hasSuffix("] Merge other/main\n"), pulled.stdout)
        XCTAssertTrue(pulled.stderr.hasPrefix("folio: warning: work tree out of date: big.txt"), pulled.stderr)
        XCTAssertEqual(pulled.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(try document.log().map(\.summary), ["Merge other/main", "Big", "Theirs", "Create Doc"])
        XCTAssertTrue(try document.workTreeStatus().outOfDate.contains("big.txt"))
        // And once the disk has room, repairing brings the whole work tree up to date
        try disk.drain()
        XCTAssertEqual(try document.repairWorkTree(), .current)
        XCTAssertEqual(ws.text(document, "other.txt"), "theirs\n")
        XCTAssertEqual(FileManager.default.contents(atPath: document.url.path + "/big.txt"), Data(count: 300_000))
        try ws.assertClean(document.url)
        try ws.assertFsck(document.url)
    }

    func testGivenSyncFullWhenPullingThenTheFetchedPackAndTrackingRefAreFsyncedAndWithSyncNoneNothingIs() throws {
        let ws = try SyncWorkspace()
        for sync in [SyncMode.full, .none] {
            // Given a document with sync set, and a clone of it with a new version
            let store = DocumentStore(settings: Settings(sync: sync), environment: ws.env)
            let document = try store.create(at: ws.dir.path("Doc-\(sync)"))
            let other = try ws.store.clone(from: document.url.path, to: ws.dir.path("Other-\(sync)"))
            try other.write(Data("theirs\n".utf8), to: "other.txt", message: "Theirs")
            try document.addRemote("other", url: other.url.path)
            let gitDirectory = document.repository.gitDirectoryPath
            let packsBefore = document.repository.packFileNames()
            let syncedBefore = Repository.syncedFileCount(gitDirectoryPath: gitDirectory)
            // When pulling (a fast-forward)
            guard case .fastForwarded = try document.pull(from: "other") else { return XCTFail("expected a fast-forward") }
            // Then with sync=full every new pack file, the tracking ref, the branch and the index were fsynced
            let newPackFiles = document.repository.packFileNames().subtracting(packsBefore)
            XCTAssertFalse(newPackFiles.filter { $0.hasSuffix(".pack") }.isEmpty, "the fetch wrote a pack")
            let synced = Repository.syncedFileCount(gitDirectoryPath: gitDirectory) - syncedBefore
            XCTAssertEqual(synced, sync == .full ? newPackFiles.count + 3 : 0, "\(sync): \(newPackFiles)")
            try ws.assertFsck(document.url)
        }
    }
}

/// A repository holding a file named like Folio's temporary files is not cloned as a document.
final class ReservedNameCloneTests: XCTestCase {
    func testGivenARepositoryWithAFileNamedLikeAFolioTemporaryFileWhenClonedThenRefusedInOneLineAndNothingIsLeft() throws {
        let ws = try SyncWorkspace()
        let source = try ws.document("Source")
        // Given a document into which plain git recorded a file with a reserved name
        try Data("x".utf8).write(to: source.url.appendingPathComponent(".folio-tmp-1-a"))
        XCTAssertEqual(try git(["add", "-A"], in: source.url, environment: ws.env).status, 0)
        XCTAssertEqual(try git(["commit", "-qm", "Reserved"], in: source.url, environment: ws.env).status, 0)
        // When cloned, then it is refused naming the file, and no folder is left
        XCTAssertThrowsError(try ws.store.clone(from: source.url.path, to: ws.dir.path("Clone"))) { error in
            XCTAssertTrue("\(error)".contains("'.folio-tmp-1-a'"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.dir.path("Clone").path))
    }
}
