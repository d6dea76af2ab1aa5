import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// Callers tell failures apart by their case, not by parsing messages.
final class TypedErrorTests: StoreTestCase {
    func testGivenAFreshDocumentWhenUndoneOrRedoneThenTheCaseNamesTheDocument() throws {
        // Given a document with only its first version
        let document = try store.create(at: dir.path("Notes"))
        // When undo and redo are asked for, then each throws its own case naming the document
        XCTAssertThrowsError(try document.undo()) { error in
            XCTAssertEqual(error as? FolioError, .nothingToUndo(document: document.url.path))
            XCTAssertEqual("\(error)", "\(document.url.path): nothing to undo")
        }
        XCTAssertThrowsError(try document.redo()) { error in
            XCTAssertEqual(error as? FolioError, .nothingToRedo(document: document.url.path))
        }
        // And after one undo there is something to redo, and nothing more to undo
        try document.write(Data("a\n".utf8), to: "document.txt", message: "A")
        try document.undo()
        XCTAssertNoThrow(try document.redo())
    }

    func testGivenANamedVersionWhenTheNameIsReusedOrMalformedThenTheCasesDiffer() throws {
        // Given a document with a version named "draft"
        let document = try store.create(at: dir.path("Notes"))
        try document.tag("draft")
        // When the name is given again, or a name git refuses, then each is its own case
        XCTAssertThrowsError(try document.tag("draft")) { error in
            XCTAssertEqual(error as? FolioError, .versionExists(name: "draft", document: document.url.path))
        }
        XCTAssertThrowsError(try document.tag("a..b")) { error in
            XCTAssertEqual(error as? FolioError, .invalidVersionName("a..b"))
        }
    }

    func testGivenRefusedPathsWhenCheckedThenTheProblemIsTyped() {
        let cases: [(String, DocumentPathProblem)] = [
            ("a\\b", .forbiddenCharacter), ("../x", .notRelative), ("a//b", .notRelative), ("/etc/passwd", .notRelative),
            (".GIT/config", .insideGit), (".folio/document.json", .folioFolder),
            // NTFS and HFS+ spellings of .git (git fsck's hasDotgit): short name, trailing dot, an ignored code point
            ("git~1/config", .insideGit), ("a/.git./hooks/x", .insideGit), (".g\u{200C}it/x", .insideGit),
        ]
        for (path, problem) in cases {
            XCTAssertThrowsError(try DocumentPath.validate(path, allowFolioFolder: false), path) { error in
                XCTAssertEqual(error as? FolioError, .invalidDocumentPath(path: path, problem: problem), path)
            }
        }
        // And a document inside a .git folder, or in a folder that does not exist, is refused with its own case
        XCTAssertThrowsError(try store.create(at: dir.path("repo/.git/Doc"))) { error in
            XCTAssertEqual(error as? FolioError, .invalidDocumentPath(path: dir.path("repo/.git/Doc").path, problem: .gitFolder))
        }
        XCTAssertThrowsError(try store.create(at: dir.path("missing/Doc"))) { error in
            XCTAssertEqual(error as? FolioError, .missingFolder(dir.path("missing").path))
        }
    }

    func testGivenAFileThatCannotBeReadWhenDescribedThenTheCauseIsNamed() throws {
        XCTAssertEqual(FolioError.unreadable(dir.path("nope").path), .unreadableFile(path: dir.path("nope").path, reason: "No such file or directory"))
        XCTAssertEqual(FolioError.unreadable(dir.url.path), .unreadableFile(path: dir.url.path, reason: "it is a folder"))
    }
}
