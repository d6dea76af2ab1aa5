import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

/// A collaborator cannot choose which plugin opens your document: a remote version that changes its content type to
/// one it was never opened with is fetched and checked, but held — not fast-forwarded, not merged, nothing pushed —
/// until the user accepts it; status says why in one line.
final class RemoteContentTypeTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    private func options(accept: Bool = false) -> SyncOptions { SyncOptions(transfer: TransferOptions(environment: ws.env), acceptContentType: accept) }

    /// The author's plain-text document on a shared remote, the victim's clone, and a git work tree of the attacker's.
    private func shared() throws -> (victim: Document, attacker: URL) {
        let bare = try ws.bareRepository("shared.git")
        let author = try ws.document("Author")
        try author.write(Data("milk\n".utf8), to: "document.txt", message: "Milk")
        try author.addRemote("origin", url: bare.path)
        try author.push(options: TransferOptions(environment: ws.env))
        let victim = try ws.store.clone(from: bare.path, to: ws.dir.path("Victim"), options: TransferOptions(environment: ws.env))
        let attacker = ws.dir.path("attacker")
        XCTAssertEqual(try git(["clone", "-q", bare.path, attacker.path], in: ws.dir.url, environment: ws.env).status, 0)
        return (victim, attacker)
    }

    /// The attacker commits `change` (with plain git) and pushes it.
    private func push(_ attacker: URL, _ message: String, _ change: (URL) throws -> Void) throws {
        try change(attacker)
        for args in [["add", "-A"], ["commit", "-qm", message], ["push", "-q", "origin", "HEAD:main"]] {
            let result = try git(args, in: attacker, environment: ws.env)
            XCTAssertEqual(result.status, 0, "git \(args): \(result.stderr)")
        }
    }

    /// Rewrites `.folio/document.json`'s content type.
    private func setType(_ type: String) -> (URL) throws -> Void {
        { root in
            let file = root.appendingPathComponent(".folio/document.json")
            var text = try String(contentsOf: file, encoding: .utf8)
            let current = try XCTUnwrap(text.range(of: #""contentType" : "[^"]*""#, options: .regularExpression)
                ?? text.range(of: #""contentType": "[^"]*""#, options: .regularExpression), text)
            text.replaceSubrange(current, with: "\"contentType\": \"\(type)\"")
            try Data(text.utf8).write(to: file)
        }
    }

    private func write(_ path: String, _ text: String) -> (URL) throws -> Void {
        { root in try Data(text.utf8).write(to: root.appendingPathComponent(path)) }
    }

    func testGivenARemoteVersionChangingTheContentTypeWhenPulledThenItIsHeldNotFastForwarded() throws {
        let (victim, attacker) = try shared()
        let before = try victim.head().id
        // When the attacker changes the content type (and the text) and the victim pulls
        try push(attacker, "Innocent-looking change") { root in
            try self.setType("net.daringfireball.markdown")(root)
            try self.write("document.txt", "# pwned\n")(root)
        }
        let outcome = try victim.pull(options: options())
        // Then the version is held: the document, its type and its work tree are as they were
        guard case let .held(held) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(held.current, .plainText)
        XCTAssertEqual(held.incoming, .markdown)
        XCTAssertEqual(try victim.head().id, before)
        XCTAssertEqual(try ws.store.open(at: victim.url).metadata.contentType, .plainText)
        XCTAssertEqual(ws.text(victim, "document.txt"), "milk\n")
        try ws.assertClean(victim.url)
        // And status says why in one line
        let status = try XCTUnwrap(try victim.syncStatus().heldContentType)
        XCTAssertFalse(status.contains("\n"), status)
        XCTAssertTrue(status.contains("public.plain-text") && status.contains("net.daringfireball.markdown") && status.contains(held.commit.short), status)
        XCTAssertFalse(status.contains("--"), "library text names no CLI flags: \(status)")
    }

    func testGivenAHeldVersionWhenSyncedThenNothingIsMergedOrPushedAndAcceptingBringsItIn() throws {
        let (victim, attacker) = try shared()
        // Given a local change, and a remote version changing the content type
        try victim.write(Data("milk\neggs\n".utf8), to: "notes.txt", message: "Eggs")
        let local = try victim.head().id
        try push(attacker, "Retype", setType("net.daringfireball.markdown"))
        let remoteTip = try git(["rev-parse", "HEAD"], in: attacker, environment: ws.env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // When the victim syncs (which would merge, then push)
        let (pulled, pushed) = try victim.sync(options: options())
        // Then nothing was merged, nothing pushed: the remote still names the attacker's version
        guard case .held = pulled else { return XCTFail("\(pulled)") }
        XCTAssertNil(pushed)
        XCTAssertEqual(try victim.head().id, local)
        XCTAssertEqual(try git(["rev-parse", "main"], in: ws.serversRoot.appendingPathComponent("shared.git"), environment: ws.env).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines), remoteTip)
        // And a continuous-sync round says the same in its summary, and pushes nothing
        let round = try victim.syncRound(.sync, options: options())
        XCTAssertEqual(round.pushed, 0)
        XCTAssertTrue(round.summary.contains("held back"), round.summary)
        // When the user accepts the type
        let accepted = try victim.sync(options: options(accept: true))
        // Then it is merged and pushed, and the document has the new type
        guard case .merged = accepted.pull else { return XCTFail("\(accepted.pull)") }
        XCTAssertNotNil(accepted.push)
        XCTAssertEqual(try ws.store.open(at: victim.url).metadata.contentType, .markdown)
        XCTAssertNil(try victim.syncStatus().heldContentType)
        // And a later change back to the type it had before is not held (both were used for it)
        XCTAssertEqual(try git(["pull", "-q", "--rebase=false", "origin", "main"], in: attacker, environment: ws.env).status, 0)
        try push(attacker, "Back", setType("public.plain-text"))
        guard case .fastForwarded = try victim.pull(options: options()) else { return XCTFail("a type used before was held") }
        XCTAssertEqual(try ws.store.open(at: victim.url).metadata.contentType, .plainText)
    }

    func testGivenRemoteVersionsKeepingTheContentTypeWhenPulledThenTheyArriveAsBefore() throws {
        let (victim, attacker) = try shared()
        // When the remote changes only the text, then it fast-forwards as always
        try push(attacker, "Bread", write("document.txt", "milk\nbread\n"))
        guard case .fastForwarded = try victim.pull(options: options()) else { return XCTFail("held a version keeping the type") }
        XCTAssertEqual(ws.text(victim, "document.txt"), "milk\nbread\n")
    }

    func testGivenAHeldVersionWhenTheCLISyncsThenOneLineSaysWhyAndHowToAcceptAndStatusRepeatsIt() throws {
        let (victim, attacker) = try shared()
        try push(attacker, "Retype", setType("net.daringfireball.markdown"))
        // When folio sync runs
        let refused = ws.folio(["sync", victim.url.path], expect: 1)
        // Then one line names the change and the way to accept it, and nothing changed
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("content type") && refused.stderr.contains("--accept-type"), refused.stderr)
        XCTAssertEqual(ws.folio(["show", victim.url.path]).stdout, "milk\n")
        // And folio status says it in one line too
        let status = ws.folio(["status", victim.url.path]).stdout
        XCTAssertEqual(status.split(separator: "\n").filter { $0.contains("held back") }.count, 1, status)
        // When the user accepts it with folio pull --accept-type, then it arrives
        XCTAssertTrue(ws.folio(["pull", victim.url.path, "--accept-type"]).stdout.hasPrefix("Fast-forwarded"))
        XCTAssertFalse(ws.folio(["status", victim.url.path]).stdout.contains("held back"))
    }
    func testGivenAHeldVersionWhenTheEditorsSyncLoopRunsThenItsStateSaysSoAndAcceptingThroughItTakesTheVersion() throws {
        // Given a remote version changing the content type, and the sync loop an open editor runs
        let (victim, attacker) = try shared()
        try push(attacker, "Retype", setType("net.daringfireball.markdown"))
        let loop = DocumentSyncLoop(document: victim.url, store: ws.store, options: .init(transferTimeout: .seconds(5), environment: ws.env))
        defer { loop.stop() }
        // When the editor syncs now
        let round = try loop.perform(.sync)
        // Then the version is held, and the loop's state (the editor's banner) says so in one line
        guard case .held = round.pulled else { return XCTFail("\(String(describing: round.pulled))") }
        let held = try XCTUnwrap(loop.state.heldContentType)
        XCTAssertTrue(held.contains("net.daringfireball.markdown") && !held.contains("\n"), held)
        XCTAssertEqual(loop.state.badge, "held")
        XCTAssertEqual(try ws.store.open(at: victim.url).metadata.contentType, .plainText)
        // When the user accepts it there
        let accepted = try loop.perform(.sync, acceptContentType: true)
        // Then it arrives and nothing is held any more
        guard case .fastForwarded = accepted.pulled else { return XCTFail("\(String(describing: accepted.pulled))") }
        XCTAssertNil(loop.state.heldContentType)
        XCTAssertEqual(try ws.store.open(at: victim.url).metadata.contentType, .markdown)
    }
}
