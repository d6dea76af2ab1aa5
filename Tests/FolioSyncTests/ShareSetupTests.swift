import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

/// Sharing a document: a share that cannot push leaves no remote behind, and a fresh bare repository in a folder
/// gets its HEAD pointed at what was pushed, so that `git clone` of it checks it out without a warning.
final class ShareSetupTests: XCTestCase {
    var ws: SyncWorkspace!
    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    func testGivenAMistypedURLWhenSharingFailsThenNoRemoteIsLeftAndSharingAgainWithTheRightOneWorks() throws {
        let a = try ws.document("A")
        try a.write(Data("hello\n".utf8), to: "document.txt", message: "Hello")
        XCTAssertThrowsError(try a.share(remote: "origin", url: ws.dir.path("servers/nosuch.git").path, options: TransferOptions(environment: ws.env)))
        XCTAssertEqual(try a.remotes(), [], "the failed share left no remote")
        let bare = try ws.bareRepository("doc.git")
        try a.share(remote: "origin", url: bare.path, options: TransferOptions(environment: ws.env))
        XCTAssertEqual(try a.remotes().map(\.name), ["origin"])
    }

    func testGivenAFreshBareRepositoryOnMasterWhenSharedThenItsHeadNamesThePushedBranchAndGitClonesIt() throws {
        let root = ws.dir.path("servers")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let bare = root.appendingPathComponent("fresh.git")
        XCTAssertEqual(try git(["init", "--bare", "-q", "-b", "master", bare.path], in: root, environment: ws.env).status, 0)
        let a = try ws.document("A")
        try a.write(Data("hello\n".utf8), to: "document.txt", message: "Hello")
        try a.share(remote: "origin", url: bare.path, options: TransferOptions(environment: ws.env))
        let head = try git(["symbolic-ref", "HEAD"], in: bare, environment: ws.env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(head, "refs/heads/main")
        let cloned = try git(["clone", "-q", bare.path, ws.dir.path("plain").path], in: ws.dir.url, environment: ws.env)
        XCTAssertEqual(cloned.status, 0, cloned.stderr)
        XCTAssertFalse(cloned.stderr.contains("warning"), cloned.stderr)
        XCTAssertEqual(try String(contentsOf: ws.dir.path("plain/document.txt"), encoding: .utf8), "hello\n")
    }
}
