import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// A document's repository made ahead of its files: used by `create`, and never left behind when it is not.
final class DocumentStoreStagingTests: XCTestCase {
    private func leftovers(in dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".folio-new") }
    }

    func testGivenARepositoryBegunAheadWhenTheDocumentIsCreatedThenItIsWholeAndNothingIsLeftBeside() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        // Given a repository begun ahead of its files
        let staging = try store.beginCreate(at: dir.path("Doc"))
        // When the document is created in it
        let metadata = DocumentMetadata(contentType: .plainText, title: "Doc", primaryFile: "a.txt")
        let document = try store.create(at: dir.path("Doc"), metadata: metadata, files: [DocumentFile(path: "a.txt", data: Data("a\n".utf8))],
                                        message: "Create Doc", staging: staging)
        // Then it is a whole document with the document settings, and no staging folder is left
        XCTAssertEqual(try git(["fsck", "--strict"], in: document.url, environment: env).status, 0)
        XCTAssertEqual(try git(["config", "core.logAllRefUpdates"], in: document.url, environment: env).stdout, "false\n")
        XCTAssertEqual(try git(["log", "--format=%s"], in: document.url, environment: env).stdout, "Create Doc\n")
        XCTAssertEqual(try leftovers(in: dir), [])
    }

    func testGivenARepositoryBegunAheadWhenItIsDroppedOrTheDestinationAppearsThenNothingIsLeftBeside() throws {
        let dir = TemporaryDirectory()
        let store = DocumentStore(settings: Settings(sync: .none), environment: dir.environment())
        // Given a repository begun and then dropped (the files could not be prepared)
        do { _ = try store.beginCreate(at: dir.path("Dropped")) }
        // Then its folder is gone
        XCTAssertEqual(try leftovers(in: dir), [])
        // Given one begun, When someone else creates the destination before the document is
        let staging = try store.beginCreate(at: dir.path("Taken"))
        try FileManager.default.createDirectory(at: dir.path("Taken"), withIntermediateDirectories: false)
        let metadata = DocumentMetadata(contentType: .plainText, title: "T", primaryFile: "a.txt")
        // Then creating it is refused, the other folder is untouched, and nothing is left beside it
        XCTAssertThrowsError(try store.create(at: dir.path("Taken"), metadata: metadata, files: [DocumentFile(path: "a.txt", data: Data())],
                                              message: "m", staging: staging)) { error in
            XCTAssertTrue("\(error)".contains("Taken"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path("Taken").path), [])
        XCTAssertEqual(try leftovers(in: dir), [])
        // And a destination that already exists is refused before anything is made
        XCTAssertThrowsError(try store.beginCreate(at: dir.path("Taken")))
        XCTAssertEqual(try leftovers(in: dir), [])
    }
}

/// Staging folders a killed `folio` left behind are cleaned up by the next document created beside them.
final class AbandonedStagingTests: XCTestCase {
    func testGivenStagingFoldersOfADeadAndALiveProcessWhenADocumentIsCreatedBesideThemThenOnlyTheDeadOnesGo() throws {
        let dir = TemporaryDirectory()
        let store = DocumentStore(settings: Settings(sync: .none), environment: dir.environment())
        // Given a staging folder of a process that has ended (a kill -9 mid-creation), one of a live process, and
        // folders that only look alike
        let ended = try runProgram("/bin/sh", ["-c", "echo $$"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let dead = dir.path(".folio-new-\(ended)-1a2b3c4d")
        let live = dir.path(".folio-new-\(getppid())-5e6f7a8b")
        let lookalikes = [dir.path(".folio-new-notes"), dir.path(".folio-new-12-notes"), dir.path(".folio-new--1-ab")]
        for folder in [dead, live] + lookalikes {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git/objects"), withIntermediateDirectories: true)
        }
        // When a document is created in the same folder
        _ = try store.create(at: dir.path("Doc"))
        // Then the dead process's staging folder is gone, and the rest are untouched
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: dir.url.path)).subtracting(["home"])
        XCTAssertFalse(names.contains(dead.lastPathComponent))
        XCTAssertEqual(names, Set(["Doc", live.lastPathComponent] + lookalikes.map(\.lastPathComponent)))
    }
}
