import Foundation
import FolioCLITestSupport
import FolioCore
import FolioGit
import FolioSync
import XCTest

/// Remote names are checked with git's rules before anything is written; a repository inside a document never wedges
/// its status, commit or pull; and no document is created or cloned inside another.
final class NamesAndNestingSyncTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    func testGivenRemoteNamesGitRefusesWhenAddedThenEachIsRefusedInFolioWordsAndNothingIsConfigured() throws {
        // Given a document
        let document = try ws.document("Doc")
        let configBefore = try String(contentsOf: document.url.appendingPathComponent(".git/config"), encoding: .utf8)
        for name in [".x", "x.lock", "a..b", "x/", "/x", "a/b", "@{", "a b", "a\tb", "a\u{7F}", "-x", "", "x."] {
            // When a remote is added under a name git (or Folio's rule for remotes) refuses
            XCTAssertThrowsError(try document.addRemote(name, url: ws.serversRoot.path), GitNames.shown(name)) { error in
                // Then it is refused with its own case and one line in Folio's words, never libgit2's
                XCTAssertEqual(error as? SyncError, .invalidRemoteName(name))
                let line = "\(error)"
                XCTAssertTrue(line.hasPrefix("'\(GitNames.shown(name))' is not a valid remote name: "), line)
                XCTAssertFalse(line.contains("\n") || line.contains("\t") || line.contains("\u{7F}") || line.contains("failed"), line)
            }
        }
        // And the config is untouched, the document has no remote, and fsck is clean
        XCTAssertEqual(try String(contentsOf: document.url.appendingPathComponent(".git/config"), encoding: .utf8), configBefore)
        XCTAssertEqual(try document.remotes(), [])
        try ws.assertFsck(document.url)
        // And a name git accepts still works
        XCTAssertNoThrow(try document.addRemote("backup-2.old", url: ws.serversRoot.path))
    }

    func testGivenRemoteURLsFolioCannotUseWhenAddedThenEachIsRefusedInOneLineAndNothingIsConfigured() throws {
        // Given a document
        let document = try ws.document("Doc")
        let configBefore = try String(contentsOf: document.url.appendingPathComponent(".git/config"), encoding: .utf8)
        for url in ["", "  ", "h\u{1B}]0;title\u{07}", "https://host/a\nb", "x\u{7F}", "ftp://host/repo", "https://"] {
            // When a remote is added with a URL that is empty, holds a control character or names another scheme
            XCTAssertThrowsError(try document.addRemote("backup", url: url), GitNames.shown(url)) { error in
                // Then it is refused with its own case, in one line that shows control characters as escapes
                guard case .invalidRemoteURL(url, _)? = error as? SyncError else { return XCTFail("\(error)") }
                let line = "\(error)"
                XCTAssertTrue(line.contains("is not a remote Folio can use: "), line)
                XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, line)
            }
        }
        // And the config is untouched and the document has no remote
        XCTAssertEqual(try String(contentsOf: document.url.appendingPathComponent(".git/config"), encoding: .utf8), configBefore)
        XCTAssertEqual(try document.remotes(), [])
        // And a local folder with a space, and the URL forms Folio fetches from, are still taken
        for (index, url) in ["/srv/My Docs/doc.git", "ssh://git@host/doc.git", "git@host:doc.git", "file:///srv/doc.git"].enumerated() {
            XCTAssertNoThrow(try document.addRemote("r\(index)", url: url), url)
        }
    }

    func testGivenABadRemoteNameOnTheCommandLineWhenAddedThenOneLineAndExitOne() throws {
        // Given a document
        ws.folio(["new", "Doc"])
        // When `folio remote add` gets a name libgit2 refuses (it used to print libgit2's own message)
        let result = ws.folio(["remote", "Doc", "add", ".x", ws.serversRoot.path], expect: 1)
        // Then one line in Folio's words
        XCTAssertEqual(result.stderr, "folio remote: '.x' is not a valid remote name: it cannot start with '.'\n")
    }

    func testGivenAPlainGitRepositoryInsideADocumentWhenStatusCommitAndPullRunThenTheyWorkAndLeaveItOut() throws {
        // Given a document pushed to a remote, holding a repository made by plain git and a real change beside it
        try ws.bareRepository("doc.git")
        let document = try ws.document("Doc")
        try document.addRemote("origin", url: ws.serversRoot.appendingPathComponent("doc.git").path)
        try document.push()
        _ = try git(["init", "-q", "b"], in: document.url, environment: ws.env)
        try Data("inner\n".utf8).write(to: document.url.appendingPathComponent("b/inner.txt"))
        try Data("other\n".utf8).write(to: document.url.appendingPathComponent("other.txt"))
        // When the status is read, then the repository is listed apart, not as a change to record
        let status = try document.syncStatus()
        XCTAssertEqual(status.unrecordedChanges, ["other.txt"])
        XCTAssertEqual(status.nestedRepositories, ["b/"])
        // And recording the work tree records the change beside it, never the repository
        let commit = try XCTUnwrap(document.commitWorkTree())
        XCTAssertEqual(commit.summary, "Add other.txt")
        XCTAssertEqual(try document.files().map(\.path).sorted(), ["document.txt", "other.txt"])
        XCTAssertEqual(try document.syncStatus().unrecordedChanges, [])
        XCTAssertNil(try document.commitWorkTree())
        // And a pull is not stopped by it
        XCTAssertEqual(try document.pull(), .upToDate)
        try ws.assertFsck(document.url)
    }

    func testGivenANestedRepositoryWhenStatusAndCommitRunOnTheCommandLineThenNeitherIsWedged() throws {
        // Given a document holding a repository made by plain git
        ws.folio(["new", "Doc"])
        _ = try git(["init", "-q", "b"], in: ws.dir.path("Doc"), environment: ws.env)
        _ = try ws.dir.write("Doc/b/inner.txt", "inner\n")
        // When the status is asked, then it reports no change to record and says what b/ is
        let status = ws.folio(["status", "Doc"]).stdout
        XCTAssertTrue(status.contains("no unrecorded changes"), status)
        XCTAssertTrue(status.contains("b/: a git repository of its own inside the document"), status)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ws.folio(["status", "Doc", "--json"]).stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["unrecordedChanges"] as? [String], [])
        XCTAssertEqual(json["nestedRepositories"] as? [String], ["b/"])
        // And `folio commit` succeeds with nothing to record (it used to fail with "invalid path: 'b/'")
        _ = try ws.dir.write("Doc/c.txt", "c\n")
        XCTAssertTrue(ws.folio(["commit", "Doc"]).stdout.contains("Add c.txt"))
        try ws.assertFsck(ws.dir.path("Doc"))
    }

    func testGivenADocumentWhenNewOrCloneTargetsAFolderInsideItThenBothAreRefusedInOneLine() throws {
        // Given a document and a remote holding another document
        try ws.bareRepository("doc.git")
        ws.folio(["new", "Source"])
        ws.folio(["remote", "Source", "add", "origin", "servers/doc.git"])
        ws.folio(["push", "Source"])
        ws.folio(["new", "Outer"])
        let outer = ws.dir.path("Outer").path
        // When `folio new` or `folio clone` would put a document inside it
        let made = ws.folio(["new", "Outer/nest"], expect: 1)
        let cloned = ws.folio(["clone", "servers/doc.git", "Outer/copy"], expect: 1)
        // Then each is refused in one line naming the outer document, and nothing is left inside it
        XCTAssertEqual(made.stderr, "folio new: '\(outer)/nest': it would be inside the document \(outer); a document cannot be made inside another\n")
        XCTAssertEqual(cloned.stderr, "folio clone: '\(outer)/copy': it would be inside the document \(outer); a document cannot be made inside another\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outer).sorted(), [".folio", ".git", "document.txt"])
        XCTAssertTrue(ws.folio(["status", "Outer"]).stdout.contains("no unrecorded changes"))
    }
}
