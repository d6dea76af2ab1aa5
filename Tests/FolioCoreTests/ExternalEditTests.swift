import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// A file changed in the work tree by another program (the user's `$EDITOR`, here plain file operations standing in
/// for it) is recorded through `Document` as exactly one commit — or none when nothing changed — and never through
/// a link out of the document.
final class ExternalEditTests: StoreTestCase {
    private func document() throws -> Document {
        let document = try store.create(at: dir.path("Doc"))
        try document.apply([.write(path: "Sources/App/main.swift", data: Data("print(1)\n".utf8)),
                            .write(path: "run.sh", data: Data("#!/bin/sh\n".utf8), executable: true)], message: "Files")
        return document
    }

    private func commits(_ document: Document) throws -> Int { try document.log(limit: 100).count }

    func testGivenTheEditorAppendsALineWhenTheEditFinishesThenOneCommitRecordsExactlyThatContent() throws {
        let document = try document()
        let before = try commits(document)
        let edit = try document.beginExternalEdit(of: "Sources/App/main.swift")
        XCTAssertEqual(edit.fileURL.path, document.url.path + "/Sources/App/main.swift")
        let handle = try FileHandle(forWritingTo: edit.fileURL)
        handle.seekToEndOfFile(); handle.write(Data("print(2)\n".utf8)); handle.closeFile()

        let outcome = try document.finishExternalEdit(edit)

        XCTAssertEqual(try commits(document), before + 1)
        XCTAssertEqual(outcome.commit?.summary, "Edit Sources/App/main.swift")
        XCTAssertEqual(try document.head().id, outcome.commit?.id)
        XCTAssertEqual(try document.read(path: "Sources/App/main.swift"), Data("print(1)\nprint(2)\n".utf8))
        XCTAssertTrue(try document.workTreeStatus().isCurrent, "the work tree shows the new version")
        XCTAssertNil(try document.commitWorkTree(), "nothing is left unrecorded")
    }

    func testGivenTheEditorChangesNothingWhenTheEditFinishesThenNothingIsCommitted() throws {
        let document = try document()
        let head = try document.head().id
        let edit = try document.beginExternalEdit(of: "Sources/App/main.swift")
        // Saved with the same bytes (a new inode, as editors that write a copy and rename do).
        try Data("print(1)\n".utf8).write(to: edit.fileURL, options: .atomic)

        let outcome = try document.finishExternalEdit(edit)

        XCTAssertNil(outcome.commit)
        XCTAssertEqual(try document.head().id, head)
    }

    func testGivenTheEditorDeletesTheFileWhenTheEditFinishesThenTheDeletionIsOneCommit() throws {
        let document = try document()
        let edit = try document.beginExternalEdit(of: "run.sh")
        try FileManager.default.removeItem(at: edit.fileURL)

        let outcome = try document.finishExternalEdit(edit)

        XCTAssertTrue(outcome.deleted)
        XCTAssertEqual(outcome.commit?.summary, "Delete run.sh")
        XCTAssertFalse(try document.files().contains { $0.path == "run.sh" })
        XCTAssertTrue(try document.files().contains { $0.path == "Sources/App/main.swift" })
    }

    func testGivenTheEditorWritesANewFileAndASwapFileBesideItThenTheNewFileIsAddedInTheSameCommitAndTheSwapFileLeftOut() throws {
        let document = try document()
        let before = try commits(document)
        let edit = try document.beginExternalEdit(of: "Sources/App/main.swift")
        let folder = edit.fileURL.deletingLastPathComponent()
        try Data("print(3)\n".utf8).write(to: edit.fileURL)
        try Data("let x = 1\n".utf8).write(to: folder.appendingPathComponent("Extra.swift"))
        try Data("swap".utf8).write(to: folder.appendingPathComponent(".main.swift.swp"))
        try Data("backup".utf8).write(to: folder.appendingPathComponent("main.swift~"))

        let outcome = try document.finishExternalEdit(edit)

        XCTAssertEqual(try commits(document), before + 1)
        XCTAssertEqual(outcome.added, ["Sources/App/Extra.swift"])
        XCTAssertEqual(outcome.ignored, ["Sources/App/.main.swift.swp", "Sources/App/main.swift~"])
        XCTAssertEqual(outcome.commit?.summary, "Edit Sources/App/main.swift, add Sources/App/Extra.swift")
        XCTAssertEqual(try document.read(path: "Sources/App/Extra.swift"), Data("let x = 1\n".utf8))
        XCTAssertFalse(try document.files().contains { $0.path.hasSuffix(".swp") || $0.path.hasSuffix("~") })
    }

    func testGivenAnExecutableFileWhenEditedThenItStaysExecutable() throws {
        let document = try document()
        let edit = try document.beginExternalEdit(of: "run.sh")
        try Data("#!/bin/sh\necho hi\n".utf8).write(to: edit.fileURL)

        _ = try document.finishExternalEdit(edit)

        XCTAssertEqual(try document.listFiles().first { $0.path == "run.sh" }?.kind, .executable)
    }

    func testGivenAFolderReplacedByALinkOutOfTheDocumentWhenEditingBeginsThenItIsRefusedAndNothingOutsideIsTouched() throws {
        let document = try document()
        let outside = dir.path("outside")
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Data("secret\n".utf8).write(to: outside.appendingPathComponent("App/main.swift"))
        try FileManager.default.removeItem(at: document.url.appendingPathComponent("Sources"))
        try FileManager.default.createSymbolicLink(at: document.url.appendingPathComponent("Sources"), withDestinationURL: outside)

        XCTAssertThrowsError(try document.beginExternalEdit(of: "Sources/App/main.swift")) { error in
            XCTAssertTrue("\(error)".contains("not a regular file beneath the document"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: outside.appendingPathComponent("App/main.swift")), Data("secret\n".utf8))
    }

    func testGivenTheEditorReplacesTheFileWithALinkWhenTheEditFinishesThenNothingIsRecorded() throws {
        let document = try document()
        let head = try document.head().id
        let edit = try document.beginExternalEdit(of: "run.sh")
        try FileManager.default.removeItem(at: edit.fileURL)
        try FileManager.default.createSymbolicLink(atPath: edit.fileURL.path, withDestinationPath: "/etc/passwd")

        XCTAssertThrowsError(try document.finishExternalEdit(edit)) { error in
            XCTAssertTrue("\(error)".contains("no longer a regular file"), "\(error)")
        }
        XCTAssertEqual(try document.head().id, head)
    }

    func testGivenALinkOrAFolioFileWhenEditingBeginsThenItIsRefused() throws {
        let document = try document()
        XCTAssertThrowsError(try document.beginExternalEdit(of: ".folio/document.json"))
        XCTAssertThrowsError(try document.beginExternalEdit(of: ".git/config"))
        XCTAssertThrowsError(try document.beginExternalEdit(of: "../outside"))
        XCTAssertThrowsError(try document.beginExternalEdit(of: "Sources"))
    }

    func testGivenFilesWhenListedThenEachHasItsSizeAndKindAndFolioFilesAreLeftOut() throws {
        let document = try document()
        let files = try document.listFiles()
        XCTAssertEqual(files.first { $0.path == "Sources/App/main.swift" }?.size, 9)
        XCTAssertEqual(files.first { $0.path == "run.sh" }?.kind, .executable)
        XCTAssertFalse(files.contains { $0.path.hasPrefix(".folio/") })
    }
}
