import Foundation
import FolioCLITestSupport
import XCTest

final class SyncCommandTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    func testRemoteAddListRemoveThroughTheCommandLine() throws {
        // Given a document and a bare repository given as a relative path
        ws.folio(["new", "Doc"])
        try ws.bareRepository("doc.git")
        // When a remote is added and listed
        ws.folio(["remote", "Doc", "add", "origin", "servers/doc.git"])
        let list = ws.folio(["remote", "Doc", "list", "--json"]).stdout
        // Then it is there with an absolute path
        let remotes = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: String]])
        XCTAssertEqual(remotes, [["name": "origin", "url": ws.serversRoot.appendingPathComponent("doc.git").path]])
        // And adding it twice, or removing an unknown one, fails in one line
        XCTAssertEqual(ws.folio(["remote", "Doc", "add", "origin", "x"], expect: 1).stderr.split(separator: "\n").count, 1)
        XCTAssertTrue(ws.folio(["remote", "Doc", "remove", "nope"], expect: 1).stderr.contains("no remote named 'nope'"))
        // When it is removed, the list is empty
        ws.folio(["remote", "Doc", "remove", "origin"])
        XCTAssertEqual(ws.folio(["remote", "Doc", "list"]).stdout, "")
        XCTAssertTrue(ws.folio(["push", "Doc"], expect: 1).stderr.contains("no remote to use"))
    }

    func testPushCloneSyncPullConflictsAndStatusOverGitDaemon() throws {
        try ws.bareRepository("doc.git")
        let daemon = try GitDaemon(basePath: ws.serversRoot, environment: ws.env)
        // Given a document pushed to git daemon and cloned with a progress bar on a "terminal"
        ws.folio(["new", "A"])
        ws.folio(["remote", "A", "add", "origin", daemon.url("doc.git")])
        XCTAssertTrue(ws.folio(["push", "A"]).stdout.hasPrefix("Pushed "))
        let cloned = runFolio(["clone", daemon.url("doc.git"), "B"], environment: ws.env, cwd: ws.dir.url, interactive: true)
        XCTAssertEqual(cloned.status, 0, cloned.stderr)
        XCTAssertTrue(cloned.stderr.contains("Receiving ["), cloned.stderr)
        XCTAssertEqual(ws.folio(["clone", daemon.url("doc.git"), "B2"]).stderr, "")
        try ws.assertClean(ws.dir.path("B"))
        // When both write the same file and sync
        _ = runFolio(["write", "A", "document.txt", "-m", "A"], environment: ws.env, cwd: ws.dir.url, stdin: Data("from A\n".utf8))
        _ = runFolio(["write", "B", "document.txt", "-m", "B"], environment: ws.env, cwd: ws.dir.url, stdin: Data("from B\n".utf8))
        ws.folio(["sync", "A"])
        let conflicted = ws.folio(["sync", "B"], expect: 1)
        // Then B is told in one line how to compare and choose
        XCTAssertEqual(conflicted.stderr.split(separator: "\n").count, 1, conflicted.stderr)
        XCTAssertTrue(conflicted.stderr.contains("folio diff"), conflicted.stderr)
        let kept = ws.folio(["conflicts", "B", "--json"]).stdout
        let refs = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(kept.utf8)) as? [[String: String]]).compactMap { $0["ref"] }
        XCTAssertEqual(refs.count, 1)
        let ref = try XCTUnwrap(refs.first)
        XCTAssertTrue(ws.folio(["diff", "B", "HEAD", ref]).stdout.contains("+from A"))
        // And status says one ahead, one behind, and a kept conflict
        let status = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ws.folio(["status", "B", "--json"]).stdout.utf8)) as? [String: Any])
        let remote = try XCTUnwrap((status["remotes"] as? [[String: Any]])?.first)
        XCTAssertEqual(remote["ahead"] as? Int, 1)
        XCTAssertEqual(remote["behind"] as? Int, 1)
        XCTAssertEqual(status["unrecordedChanges"] as? [String], [])
        // When B takes the remote version for the conflict and syncs
        ws.folio(["conflicts", "B", "--keep", "remote", ref])
        ws.folio(["sync", "B"])
        // Then A pulls it, and both have A's text
        XCTAssertTrue(ws.folio(["pull", "A"]).stdout.hasPrefix("Fast-forwarded"))
        XCTAssertEqual(ws.folio(["show", "B"]).stdout, "from A\n")
        XCTAssertEqual(ws.folio(["show", "A"]).stdout, "from A\n")
        XCTAssertTrue(ws.folio(["status", "A"]).stdout.contains("ahead 0, behind 0"))
        XCTAssertEqual(ws.folio(["conflicts", "B"]).stdout, "No kept conflicts\n")
    }

    func testCloneOfANonDocumentIsRefusedInOneLine() throws {
        let bare = try ws.bareRepository("empty.git")
        let result = ws.folio(["clone", bare.path, "X"], expect: 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.dir.path("X").path))
    }
}
