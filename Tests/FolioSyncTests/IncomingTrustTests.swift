import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTemplates
import FolioTestSupport
import XCTest

/// An attacker with push access to a shared remote crafts commits git itself would refuse (`HostileCase.all`); every
/// way such history reaches a document — pull, sync, clone, template sources, restore, redo — refuses it in one line
/// naming the commit and the entry, and leaves refs, objects, index, work tree and the folder around it as they were.
final class IncomingTrustTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    private func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

    /// What a refused fetch must leave exactly as it was.
    private struct Snapshot: Equatable {
        let refs: String
        let workTree: [String]
        let beside: [String]
        let hooks: [String]
        let config: String
    }

    private func snapshot(_ url: URL) throws -> Snapshot {
        let fm = FileManager.default
        let files = (fm.enumerator(atPath: url.path)?.allObjects as? [String] ?? []).filter { !$0.hasPrefix(".git/") && $0 != ".git" }.sorted()
        return Snapshot(
            refs: try git(["for-each-ref", "--format=%(refname) %(objectname)"], in: url, environment: ws.env).stdout,
            workTree: files,
            beside: try fm.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted(),
            hooks: (try? fm.contentsOfDirectory(atPath: url.appendingPathComponent(".git/hooks").path).sorted()) ?? [],
            config: (try? String(contentsOf: url.appendingPathComponent(".git/config"), encoding: .utf8)) ?? "")
    }

    /// The shared remote with the author's document pushed to it, the victim's clone, and the attacker's tools.
    private func sharedDocument(url: (URL) -> String) throws -> (victim: Document, attacker: HostileHistory, base: String) {
        let bare = try ws.bareRepository("shared.git")
        let author = try ws.document("Author")
        try author.write(Data("milk\n".utf8), to: "document.txt", message: "Milk")
        try author.addRemote("origin", url: url(bare))
        try author.push(options: transfer())
        let victim = try ws.store.clone(from: url(bare), to: ws.dir.path("Victim"), options: transfer())
        let attacker = HostileHistory(repository: bare, environment: ws.env)
        return (victim, attacker, try attacker.head())
    }

    /// Asserts the error names the refused commit and what is wrong, and the victim is exactly as before.
    private func assertRefused(_ text: String, commit: String, case hostile: HostileCase, victim: URL, before: Snapshot,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(text.contains("refused"), "\(hostile.name): \(text)", file: file, line: line)
        XCTAssertTrue(text.contains(String(commit.prefix(7))), "\(hostile.name): names the commit: \(text)", file: file, line: line)
        XCTAssertTrue(text.contains(hostile.names), "\(hostile.name): names '\(hostile.names)': \(text)", file: file, line: line)
        XCTAssertFalse(text.trimmingCharacters(in: .newlines).contains("\n"), "one line: \(text)", file: file, line: line)
        XCTAssertEqual(try snapshot(victim), before, "\(hostile.name): the document changed", file: file, line: line)
        XCTAssertNotEqual(try git(["cat-file", "-e", commit], in: victim, environment: ws.env).status, 0,
                          "\(hostile.name): the refused commit was kept", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/folio-pwned"), file: file, line: line)
        try ws.assertClean(victim, file: file, line: line)
        try ws.assertFsck(victim, file: file, line: line)
    }

    func testPullRefusesEveryHostileCommitOverGitDaemonAndLeavesTheDocumentAsItWas() throws {
        // Given a document shared through git daemon, cloned by the victim
        try FileManager.default.createDirectory(at: ws.serversRoot, withIntermediateDirectories: true)
        let daemon = try GitDaemon(basePath: ws.serversRoot, environment: ws.env)
        try assertEveryHostileCommitRefusedOnPull { daemon.url($0.lastPathComponent) }
    }

    func testPullRefusesEveryHostileCommitOverAPathAndLeavesTheDocumentAsItWas() throws {
        // Given a document shared through a bare repository reached by path (libgit2 reads its objects itself)
        try assertEveryHostileCommitRefusedOnPull { $0.path }
    }

    private func assertEveryHostileCommitRefusedOnPull(url: (URL) -> String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (victim, attacker, base) = try sharedDocument(url: url)
        for hostile in HostileCase.all {
            // When the attacker pushes a hostile commit and the victim pulls (a fast-forward)
            let commit = try hostile.make(attacker, base)
            try attacker.setBranch(commit)
            let before = try snapshot(victim.url)
            var refusal = "no error"
            XCTAssertThrowsError(try victim.pull(options: SyncOptions(transfer: transfer())), hostile.name, file: file, line: line) { refusal = "\($0)" }
            if hostile.transportsRefuse {
                // No transport delivers it: the transfer fails, and the document is as it was
                XCTAssertEqual(try snapshot(victim.url), before, hostile.name, file: file, line: line)
                continue
            }
            // Then it is refused, naming the commit and the entry, and nothing changed
            try assertRefused(refusal, commit: commit, case: hostile, victim: victim.url, before: before, file: file, line: line)
        }
    }

    func testGivenLinksThatStayInsideTheDocumentWhenPulledThenTheyArriveAsLinks() throws {
        // Given the remote adds `notes/up -> ../document.txt` and `latest -> notes/up` (inside, through another link)
        let (victim, attacker, base) = try sharedDocument { $0.path }
        let notes = try HostileCase.folder(attacker, "up", "../document.txt", mode: "120000")
        let root = try attacker.entries(of: base) + [.init("40000", "notes", notes), .init("120000", "latest", try attacker.blob("notes/up"))]
        try attacker.setBranch(try attacker.commit(tree: attacker.tree(root), parent: base))
        // When the victim pulls, then both arrive as links that read the document's own file
        _ = try victim.pull(options: SyncOptions(transfer: transfer()))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: victim.url.path + "/notes/up"), "../document.txt")
        XCTAssertEqual(try String(contentsOfFile: victim.url.path + "/latest", encoding: .utf8), "milk\n")
        try ws.assertClean(victim.url)
    }

    func testAGoodCommitBeneathAHostileOneDoesNotArriveEither() throws {
        // Given a good commit and a hostile one on top of it on the remote
        let (victim, attacker, base) = try sharedDocument { $0.path }
        let good = try attacker.commit(tree: attacker.run(["rev-parse", "\(base)^{tree}"]), parent: base, message: "Good")
        let hostile = HostileCase.all[0]
        let bad = try hostile.make(attacker, good)
        try attacker.setBranch(bad)
        let before = try snapshot(victim.url)
        // When the victim fetches
        var refusal = "no error"
        XCTAssertThrowsError(try victim.fetch(options: transfer())) { refusal = "\($0)" }
        // Then no ref moved, not even to the good commit, and neither object was kept
        try assertRefused(refusal, commit: bad, case: hostile, victim: victim.url, before: before)
        XCTAssertNotEqual(try git(["cat-file", "-e", good], in: victim.url, environment: ws.env).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: victim.url.appendingPathComponent(".git/folio").path)
            .filter { $0.hasPrefix("incoming-") }, [], "the quarantine was left behind")
    }

    func testFolioPullOverHTTPAndSyncByPathRefuseInOneLineWithANonZeroExit() throws {
        // Given a document shared over git http-backend
        try FileManager.default.createDirectory(at: ws.serversRoot, withIntermediateDirectories: true)
        let server = try GitHTTPServer(root: ws.serversRoot, environment: ws.env)
        let (victim, attacker, base) = try sharedDocument { server.url($0.lastPathComponent) }
        for (index, hostile) in HostileCase.all.enumerated() where !hostile.transportsRefuse {
            let command = index % 2 == 0 ? "pull" : "sync"
            let commit = try hostile.make(attacker, base)
            try attacker.setBranch(commit)
            let before = try snapshot(victim.url)
            // When the victim runs folio pull / folio sync
            let result = ws.folio([command, victim.url.path], expect: 1)
            // Then one line says what was refused, and nothing changed
            try assertRefused(result.stderr, commit: commit, case: hostile, victim: victim.url, before: before)
        }
    }

    func testCloneRefusesHostileHistoryAndLeavesNothingBeside() throws {
        // Given a shared document whose tip is hostile
        try FileManager.default.createDirectory(at: ws.serversRoot, withIntermediateDirectories: true)
        let daemon = try GitDaemon(basePath: ws.serversRoot, environment: ws.env)
        let (_, attacker, base) = try sharedDocument { daemon.url($0.lastPathComponent) }
        for hostile in HostileCase.all where !hostile.transportsRefuse {
            let commit = try hostile.make(attacker, base)
            try attacker.setBranch(commit)
            let besideBefore = try FileManager.default.contentsOfDirectory(atPath: ws.dir.url.path).sorted()
            // When it is cloned
            XCTAssertThrowsError(try ws.store.clone(from: daemon.url("shared.git"), to: ws.dir.path("Clone"), options: transfer())) { error in
                // Then the error names the commit and the entry, never Folio's staging folder, and nothing is left
                let text = "\(error)"
                XCTAssertTrue(text.contains(String(commit.prefix(7))) && text.contains(hostile.names), "\(hostile.name): \(text)")
                XCTAssertFalse(text.contains("folio-clone"), text)
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ws.dir.url.path).sorted(), besideBefore)
        }
    }

    func testRestoreRefusesEveryHostileTreeAFetchWouldRefuse() throws {
        // Given a document whose own repository holds hostile commits (made with plain git, not fetched)
        let doc = try ws.document("Local")
        try doc.write(Data("one\n".utf8), to: "document.txt", message: "One")
        let local = HostileHistory(repository: doc.url, environment: ws.env)
        let base = try local.head()
        // (a commit's own header is not restored: a restore makes a new commit of the old tree)
        for hostile in HostileCase.all where !hostile.transportsRefuse && !hostile.names.contains("author") && !hostile.names.contains("time zone") {
            let bad = try hostile.make(local, base)
            let before = try snapshot(doc.url)
            // When it is restored, then it is refused naming the entry, and nothing was written
            XCTAssertThrowsError(try doc.restore(bad), hostile.name) { error in
                XCTAssertTrue("\(error)".contains(hostile.names) && "\(error)".contains("nothing was changed"), "\(hostile.name): \(error)")
            }
            XCTAssertEqual(try snapshot(doc.url), before, hostile.name)
            XCTAssertEqual(try local.head(), base, hostile.name)
        }
    }

    func testRestoreAndRedoRefuseAVersionAFetchWouldRefuse() throws {
        // Given a document whose own repository holds a hostile commit (made with plain git, not fetched)
        let doc = try ws.document("Local")
        try doc.write(Data("one\n".utf8), to: "document.txt", message: "One")
        let local = HostileHistory(repository: doc.url, environment: ws.env)
        let base = try local.head()
        let hostile = HostileCase.all[0]
        let bad = try hostile.make(local, base)
        let before = try snapshot(doc.url)
        // When it is restored
        XCTAssertThrowsError(try doc.restore(bad)) { error in
            // Then it is refused like a fetch, and nothing was written
            XCTAssertTrue("\(error)".contains("'.git'") && "\(error)".contains("nothing was changed"), "\(error)")
        }
        XCTAssertEqual(try snapshot(doc.url), before)
        // Given the hostile commit made current behind Folio's back (plain git), then undone by Folio
        try local.setBranch(bad)
        let reopened = try ws.store.open(at: doc.url)
        _ = try reopened.undo()
        XCTAssertFalse(FileManager.default.fileExists(atPath: doc.url.appendingPathComponent(".git/hooks/post-checkout").path))
        // When the undo is redone, then the hostile tree is refused again
        XCTAssertThrowsError(try reopened.redo()) { error in XCTAssertTrue("\(error)".contains("'.git'"), "\(error)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: doc.url.appendingPathComponent(".git/hooks/post-checkout").path))
    }

    func testATemplateSourceWithAHostileCommitIsRefusedAndTheCachedMirrorKept() throws {
        // Given a template repository served by git daemon, resolved once
        let repo = ws.dir.path("servers/templates.git")
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("t/files"), withIntermediateDirectories: true)
        try Data(#"{"id": "d/t", "name": "T", "version": "1.0.0", "contentType": "public.plain-text", "primaryFile": "hello.txt"}"#.utf8)
            .write(to: repo.appendingPathComponent("t/template.json"))
        try Data("hello\n".utf8).write(to: repo.appendingPathComponent("t/files/hello.txt"))
        for args in [["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "init"]] { try git(args, in: repo, environment: ws.env) }
        let daemon = try GitDaemon(basePath: ws.serversRoot, environment: ws.env)
        let source = TemplateSource(name: "shared", location: daemon.url("templates.git"))
        let resolver = TemplateResolver(environment: ws.env)
        let first = try awaitResult { try await resolver.resolve(source) }
        // When the attacker adds a .git folder to the template repository
        let attacker = HostileHistory(repository: repo, environment: ws.env)
        let bad = try HostileCase.all[0].make(attacker, attacker.head())
        try attacker.setBranch(bad)
        let second = try awaitResult { try await resolver.resolve(source) }
        // Then the fetch is refused (a warning naming the commit), the cached version stays, and the mirror holds no
        // trace of it
        XCTAssertEqual(second.commit, first.commit)
        XCTAssertTrue(second.warnings.contains { $0.contains(String(bad.prefix(7))) && $0.contains("'.git'") }, "\(second.warnings)")
        let mirrors = ws.dir.path("home/.cache/folio/sources")
        for mirror in try FileManager.default.contentsOfDirectory(atPath: mirrors.path) where !mirror.hasPrefix(".") {
            XCTAssertNotEqual(try git(["cat-file", "-e", bad], in: mirrors.appendingPathComponent(mirror), environment: ws.env).status, 0)
            try ws.assertFsck(mirrors.appendingPathComponent(mirror))
        }
    }

    func testAFetchKilledAtAnyMomentLeavesNoTraceAndTheNextPullBringsEverything() throws {
        // Given a remote 3,000 commits ahead of the victim (made with git fast-import)
        let (victim, attacker, _) = try sharedDocument { $0.path }
        var script = ""
        for index in 0..<3000 {
            script += "commit refs/heads/main\ncommitter A <a@example.org> \(1_700_000_000 + index) +0000\ndata 2\nc\n"
                + (index == 0 ? "from refs/heads/main^0\n" : "") + "M 100644 inline notes/\(index % 50).txt\ndata <<EOF\n\(index)\nEOF\n\n"
        }
        _ = try attacker.run(["fast-import", "--quiet"], stdin: Data(script.utf8))
        let tip = try attacker.head()
        let folio = folioExecutable.path
        for delay in [20_000, 60_000, 150_000] as [useconds_t] {
            // When folio pull is killed with SIGKILL partway
            let process = Process()
            process.executableURL = URL(fileURLWithPath: folio)
            process.arguments = ["pull", victim.url.path]
            process.environment = ws.env
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // Then the document is sound, whatever the moment
            try ws.assertFsck(victim.url)
            try ws.assertClean(victim.url)
        }
        // And the next pull brings everything and clears what the killed ones left
        let outcome = try ws.store.open(at: victim.url).pull(options: SyncOptions(transfer: transfer()))
        XCTAssertEqual(try victim.head().id.hex, tip, "\(outcome)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: victim.url.appendingPathComponent(".git/folio").path)
            .filter { $0.hasPrefix("incoming-") }, [])
        try ws.assertFsck(victim.url)
    }
}
