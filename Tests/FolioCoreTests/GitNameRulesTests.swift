import FolioCore
import FolioGit
import FolioTestSupport
import Foundation
import XCTest

/// Every name Folio writes into git is checked with git's own rules first, so `git fsck --strict` stays clean, and a
/// document is never made inside another.
final class GitNameRulesTests: StoreTestCase {
    /// Names git's `check_refname_format` refuses as `refs/tags/<name>` (libgit2 1.5 takes some of them).
    static let refusedByGit = ["/x", "x/", ".x", "a/.b", "a..b", "x.lock", "a.lock/b", "@{", "a@{b", "a.", "a//b", "a b", "a~1",
                               "a^", "a:b", "a?", "a*", "a[b", "a\\b", "a\tb", "a\nb", "a\u{7F}b", "\u{1B}[31m"]

    func testGivenNamesGitRefusesWhenTaggedThenEachIsRefusedInFolioWordsAndFsckStaysClean() throws {
        // Given a document with two versions
        let document = try store.create(at: dir.path("Doc"))
        try document.write(Data("a\n".utf8), to: "document.txt", message: "A")
        for name in Self.refusedByGit {
            // When a version is named with a name git refuses
            XCTAssertThrowsError(try document.tag(name), GitNames.shown(name)) { error in
                // Then it is refused with its own case, one line saying why, the name shown without control characters
                XCTAssertEqual(error as? FolioError, .invalidVersionName(name))
                let line = "\(error)"
                XCTAssertTrue(line.hasPrefix("'\(GitNames.shown(name))' is not a valid version name: "), line)
                XCTAssertFalse(line.contains("\n") || line.contains("\u{1B}") || line.contains("\u{7F}"), line)
                XCTAssertFalse(line.contains("libgit2") || line.contains("refs/tags"), line)
            }
        }
        // And nothing was written: no tag, and git's strictest check finds nothing
        XCTAssertEqual(try document.tags(), [])
        try assertFsckClean("Doc")
    }

    func testGivenGitsOwnRefNameCheckWhenFolioJudgesTheSameNamesThenItNeverAcceptsOneGitRefuses() throws {
        // Given names around every rule of check_refname_format, and some git accepts
        let accepted = ["v1.0", "a/b", "release-2", "ü", "x.lockx", "a.b.c", "@x@", "under_score"]
        for name in Self.refusedByGit + accepted {
            // When git itself and Folio judge `refs/tags/<name>`
            let gitSays = try git(["check-ref-format", "refs/tags/" + name], in: dir.url, environment: dir.environment()).status == 0
            let folioSays = GitNames.problem(with: name, as: .tag) == nil
            // Then Folio accepts only what git accepts, and what git accepts here Folio accepts too
            XCTAssertEqual(folioSays, gitSays, GitNames.shown(name))
        }
    }

    func testGivenValidNamesWhenTaggedThenTheTagObjectPassesFsck() throws {
        // Given a document
        let document = try store.create(at: dir.path("Doc"))
        // When versions are named with names git accepts, nested ones included
        for name in ["v1.0", "drafts/first", "ü"] { try document.tag(name) }
        // Then they are listed and git's strict check is clean (the tag objects' own names included)
        XCTAssertEqual(try document.tags().map(\.name), ["drafts/first", "v1.0", "ü"])
        try assertFsckClean("Doc")
    }

    func testGivenFolioVersionSyntaxWhenUsedAsATagThenItIsRefused() throws {
        // Given a document
        let document = try store.create(at: dir.path("Doc"))
        // When a version is named like Folio's own version references, then it is refused (it could never be reached)
        for name in ["@1", "@", "HEAD", "head"] {
            XCTAssertThrowsError(try document.tag(name), name) { XCTAssertEqual($0 as? FolioError, .invalidVersionName(name)) }
        }
    }

    // MARK: Nesting

    func testGivenADocumentWhenANewDocumentIsCreatedInsideItThenItIsRefusedAndNothingIsWritten() throws {
        // Given a document with a folder inside it
        let outer = try store.create(at: dir.path("Outer"))
        try FileManager.default.createDirectory(at: dir.path("Outer/nest"), withIntermediateDirectories: true)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path("Outer/nest").path)
        // When a document is created in it, directly or in a folder below
        for path in ["Outer/b", "Outer/nest/b"] {
            XCTAssertThrowsError(try store.create(at: dir.path(path)), path) { error in
                // Then it is refused naming the outer document
                XCTAssertEqual(error as? FolioError, .invalidDocumentPath(path: dir.path(path).path, problem: .insideDocument(outer.url.path)))
            }
        }
        // And nothing was written there (no staging folder either)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Outer/b").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path("Outer/nest").path), before)
        XCTAssertEqual(try outer.repository.changedPaths(), [])
    }

    func testGivenALinkIntoADocumentWhenADocumentIsCreatedThroughItThenItIsRefused() throws {
        // Given a document and a link outside it pointing into it
        let outer = try store.create(at: dir.path("Outer"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("into").path, withDestinationPath: outer.url.path)
        // When a document is created through the link, then it is refused: it would land inside the document
        XCTAssertThrowsError(try store.create(at: dir.path("into/b"))) { error in
            XCTAssertEqual(error as? FolioError, .invalidDocumentPath(path: dir.path("into/b").path, problem: .insideDocument(outer.url.path)))
        }
        // And a document beside the outer one is fine
        XCTAssertNoThrow(try store.create(at: dir.path("Beside")))
    }

    func assertFsckClean(_ document: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let fsck = try git(["fsck", "--strict"], in: dir.path(document), environment: dir.environment())
        XCTAssertEqual(fsck.status, 0, fsck.stdout + fsck.stderr, file: file, line: line)
        XCTAssertFalse(fsck.stderr.contains("warning") || fsck.stderr.contains("error"), fsck.stderr, file: file, line: line)
    }
}
