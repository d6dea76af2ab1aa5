@testable import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// Temporary files of the work-tree writer: a writer killed mid-write leaves them, the next writer or open (under the
/// writer lock, so their creator is dead) removes them from the folders it was writing, never through a link; and
/// names starting with `.folio-tmp-` are reserved, so a temporary file is never a user's file.
final class TemporaryFileTests: StoreTestCase {
    /// Leaves `document` as a writer killed while writing `notes/a.txt` for its last change leaves it: the crash note
    /// names the last commit and the tree before it, the work tree still shows the old content, and temporary
    /// files (a file and a link) sit beside the file.
    private func simulateKilledWriter(_ document: Document) throws -> (outside: URL, link: String) {
        try document.write(Data("one\n".utf8), to: "notes/a.txt", message: "One")
        let shown = try document.head().tree
        try document.write(Data("two\n".utf8), to: "notes/a.txt", message: "Two")
        let current = try document.head().id
        try Data((current.hex + " " + shown.hex).utf8).write(to: URL(fileURLWithPath: document.url.path + "/.git/folio/lock"))
        try Data("one\n".utf8).write(to: document.url.appendingPathComponent("notes/a.txt"))
        try Data("two\n".utf8).write(to: document.url.appendingPathComponent("notes/.folio-tmp-4242-beef"))
        try Data().write(to: document.url.appendingPathComponent("notes/.folio-tmp-4242-0"))
        let outside = dir.path("outside.txt")
        try Data("outside\n".utf8).write(to: outside)
        let link = document.url.path + "/notes/.folio-tmp-4243-a1"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside.path)
        return (outside, link)
    }

    func testGivenTemporaryFilesOfAKilledWriterWhenTheDocumentIsOpenedThenTheyAreRemovedAndTheWorkTreeIsClean() throws {
        // Given a writer killed while writing notes/a.txt
        let document = try store.create(at: dir.path("Doc"))
        let (outside, link) = try simulateKilledWriter(document)
        // When the document is opened (the next writer)
        let reopened = try store.open(at: document.url)
        // Then the change is finished, the temporary file and link beside the file are gone, the link's target is
        // untouched, and git sees a clean work tree
        XCTAssertEqual(FileManager.default.contents(atPath: document.url.path + "/notes/a.txt"), Data("two\n".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: document.url.path + "/notes"), ["a.txt"])
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link))
        XCTAssertEqual(FileManager.default.contents(atPath: outside.path), Data("outside\n".utf8))
        XCTAssertEqual(try git(["status", "--porcelain", "--untracked-files=all"], in: document.url, environment: env).stdout, "")
        XCTAssertEqual(try reopened.workTreeStatus(), .current)
    }

    func testGivenTemporaryFilesOfAKilledWriterBehindAFolderSwappedForALinkWhenOpenedThenNothingOutsideIsRemoved() throws {
        // Given a killed writer's state, and then notes/ replaced by a link to a folder outside holding a temp name
        let document = try store.create(at: dir.path("Doc"))
        _ = try simulateKilledWriter(document)
        let elsewhere = dir.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: elsewhere.appendingPathComponent(".folio-tmp-4242-beef"))
        try FileManager.default.removeItem(at: document.url.appendingPathComponent("notes"))
        try FileManager.default.createSymbolicLink(atPath: document.url.path + "/notes", withDestinationPath: elsewhere.path)
        // When opened
        let reopened = try store.open(at: document.url)
        // Then nothing behind the link is touched, and the work tree is reported out of date rather than written
        XCTAssertEqual(FileManager.default.contents(atPath: elsewhere.path + "/.folio-tmp-4242-beef"), Data("mine\n".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [".folio-tmp-4242-beef"])
        XCTAssertEqual(try reopened.workTreeStatus().outOfDate, ["notes/a.txt"])
    }

    func testGivenAPathWithTheReservedTemporaryPrefixWhenWrittenThenRefusedNamingItAndNothingIsCommitted() throws {
        let document = try store.create(at: dir.path("Doc"))
        let before = try document.head().id
        for path in [".folio-tmp-1-a", "notes/.folio-tmp-x", ".FOLIO-TMP-2-b/inside.txt"] {
            XCTAssertThrowsError(try document.write(Data("x".utf8), to: path, message: "Reserved")) { error in
                let name = String(path.split(separator: "/").first { $0.lowercased().hasPrefix(".folio-tmp-") } ?? "")
                XCTAssertEqual(error as? WorkTreeError, .reservedName(path: document.url.path + "/" + path, name: name))
                XCTAssertTrue("\(error)".contains("reserved"), "\(error)")
            }
        }
        XCTAssertEqual(try document.head().id, before)
        // A name that only looks alike is a user's file like any other
        XCTAssertNotNil(try document.write(Data("x".utf8), to: "folio-tmp-1-a", message: "Alike"))
        XCTAssertNotNil(try document.write(Data("x".utf8), to: ".folio-tmp", message: "Alike"))
    }

    func testGivenAFileWithTheReservedPrefixCreatedByAnotherProgramWhenRecordingTheWorkTreeThenRefusedAndNothingIsCommitted() throws {
        let document = try store.create(at: dir.path("Doc"))
        let before = try document.head().id
        try Data("x".utf8).write(to: document.url.appendingPathComponent(".folio-tmp-7-c"))
        XCTAssertThrowsError(try document.commitWorkTree()) { error in
            XCTAssertEqual(error as? WorkTreeError, .reservedName(path: document.url.path + "/.folio-tmp-7-c", name: ".folio-tmp-7-c"))
        }
        XCTAssertEqual(try document.head().id, before)
    }

    func testGivenNamesWhenCheckedThenOnlyExactTemporaryNamesAreSweptAndThePrefixIsReservedInAnyCase() {
        XCTAssertTrue(WorkTree.isTemporaryName(WorkTree.temporaryName()))
        XCTAssertTrue(WorkTree.isTemporaryName(".folio-tmp-1-0"))
        for name in [".folio-tmp-", ".folio-tmp-1-", ".folio-tmp--a", ".folio-tmp-1-g", ".folio-tmp-1-123456789", ".folio-tmp-a-1",
                     ".FOLIO-TMP-1-a", ".folio-tmp-1-a.txt", "x.folio-tmp-1-a"] {
            XCTAssertFalse(WorkTree.isTemporaryName(name), name)
        }
        XCTAssertTrue(WorkTree.isReserved(".Folio-Tmp-anything"))
        XCTAssertFalse(WorkTree.isReserved(".folio-tmp"))
        XCTAssertFalse(WorkTree.isReserved(".folio\u{0E}tmp-"))
    }
}

/// Recording the work tree is as durable as any change under sync=full.
final class RecordingDurabilityTests: XCTestCase {
    func testGivenSyncFullWhenRecordingTheWorkTreeThenTheBranchAndTheIndexAreFsynced() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        for sync in [SyncMode.full, .none] {
            let document = try DocumentStore(settings: Settings(sync: sync), environment: env).create(at: dir.path("Doc-\(sync)"))
            try Data("edited elsewhere\n".utf8).write(to: document.url.appendingPathComponent("document.txt"))
            let before = Repository.syncedFileCount(gitDirectoryPath: document.repository.gitDirectoryPath)
            XCTAssertNotNil(try document.commitWorkTree(message: "Recorded"))
            let synced = Repository.syncedFileCount(gitDirectoryPath: document.repository.gitDirectoryPath) - before
            XCTAssertEqual(synced, sync == .full ? 2 : 0, "\(sync): the branch and the index")
        }
    }
}
