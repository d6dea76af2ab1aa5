import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import FolioCLITestSupport
import XCTest

/// Sync and template sources over `ssh://` against a real OpenSSH server on loopback (`SSHTestServer`), with the
/// client key and known_hosts given to Folio through `FOLIO_SSH_KEY` and `FOLIO_SSH_KNOWN_HOSTS` (never `~/.ssh`).
final class SSHTransportTests: XCTestCase {
    var ws: SyncWorkspace!
    var server: SSHTestServer!

    override func setUpWithError() throws {
        ws = try SyncWorkspace()
        server = try SSHTestServer(in: ws.dir.path("sshd"))
    }

    override func tearDown() {
        server = nil
        ws = nil
    }

    enum KnownHosts { case server, none, file(URL) }

    /// The workspace's environment (HOME in the workspace) with the test's ssh key and a known_hosts file.
    func environment(_ knownHosts: KnownHosts = .server) -> [String: String] {
        var env = ws.env
        env["FOLIO_SSH_KEY"] = server.clientKey.path
        env.removeValue(forKey: "SSH_AUTH_SOCK")
        // ssh reads ~/.ssh/config from the passwd home, not $HOME: no user config at all, so the machine's never matters.
        env["GIT_SSH_COMMAND"] = "ssh -F /dev/null"
        switch knownHosts {
        case .server: env["FOLIO_SSH_KNOWN_HOSTS"] = server.knownHosts.path
        case .none: break
        case .file(let url): env["FOLIO_SSH_KNOWN_HOSTS"] = url.path
        }
        return env
    }

    /// A new ed25519 public key as known_hosts writes it (`ssh-ed25519 AAAA…`).
    func otherPublicKey(_ name: String) throws -> String {
        let key = ws.dir.path(name)
        XCTAssertEqual(try runProgram("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key.path]).status, 0)
        return try String(contentsOf: key.appendingPathExtension("pub"), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
    }

    @discardableResult
    func folio(_ args: [String], env: [String: String]? = nil, stdin: Data = Data(), expect status: Int32 = 0,
               file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(args, environment: env ?? environment(), cwd: ws.dir.url, stdin: stdin)
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)\nsshd: \(server.logText)",
                       file: file, line: line)
        return result
    }

    func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: ws.dir.path(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    func testGivenADocumentOnAnSSHServerWhenClonedPushedAndPulledThenEveryChangeArrivesOnBothSides() throws {
        // Given document A pushed over ssh to a bare repository
        let bare = try ws.bareRepository("doc.git")
        folio(["new", "A"])
        folio(["remote", "A", "add", "origin", server.url(bare)])
        XCTAssertTrue(folio(["push", "A"]).stdout.hasPrefix("Pushed "))
        // When it is cloned over ssh as B
        folio(["clone", server.url(bare), "B"])
        // Then B has A's history and a clean work tree
        XCTAssertEqual(try git(["rev-parse", "HEAD"], in: ws.dir.path("B"), environment: ws.env).stdout,
                       try git(["rev-parse", "HEAD"], in: ws.dir.path("A"), environment: ws.env).stdout)
        try ws.assertClean(ws.dir.path("B"))
        // When A writes and pushes, and B pulls
        folio(["write", "A", "document.txt", "-m", "From A"], stdin: Data("from A\n".utf8))
        folio(["push", "A"])
        folio(["pull", "B"])
        // Then B has A's change
        XCTAssertEqual(text("B/document.txt"), "from A\n")
        // When B writes and pushes, and A pulls
        folio(["write", "B", "notes.txt", "-m", "From B"], stdin: Data("from B\n".utf8))
        folio(["push", "B"])
        folio(["pull", "A"])
        // Then A has B's change, and the server holds both, intact
        XCTAssertEqual(text("A/notes.txt"), "from B\n")
        XCTAssertEqual(text("A/document.txt"), "from A\n")
        let serverLog = try git(["--git-dir", bare.path, "log", "--format=%s", "main"], in: ws.dir.url, environment: ws.env).stdout
        XCTAssertEqual(serverLog.split(separator: "\n").prefix(2), ["From B", "From A"])
        try ws.assertFsck(bare)
        try ws.assertFsck(ws.dir.path("A"))
        XCTAssertTrue(server.logText.contains("Accepted publickey for \(server.user)"), server.logText)
    }

    func testGivenADocumentOnAnSSHServerWhenTheFolioProgramClonesItThenItArrives() throws {
        guard FileManager.default.isExecutableFile(atPath: folioExecutable.path) else { throw XCTSkip("folio is not built at \(folioExecutable.path)") }
        // Given document A with a change, pushed over ssh
        let bare = try ws.bareRepository("doc.git")
        folio(["new", "A"])
        folio(["write", "A", "document.txt", "-m", "From A"], stdin: Data("from A\n".utf8))
        folio(["remote", "A", "add", "origin", server.url(bare)])
        folio(["push", "A"])
        // When the folio program itself clones it (its libgit2 starts SSH only at this first remote operation)
        let result = try runProgram(folioExecutable.path, ["clone", server.url(bare), "B"], cwd: ws.dir.url, environment: environment())
        // Then the document arrives with A's change
        XCTAssertEqual(result.status, 0, result.stderr + "\nsshd: " + server.logText)
        XCTAssertEqual(text("B/document.txt"), "from A\n")
    }

    func testGivenATemplateRepositoryOnAnSSHServerWhenAddedAsASourceThenNewMakesADocumentFromIt() throws {
        // Given a template repository with a tagged template, pushed to the ssh server
        let bare = try ws.bareRepository("templates.git")
        let work = ws.dir.path("template-work")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("hello/files"), withIntermediateDirectories: true)
        try Data("""
        {"id": "ssh/hello", "name": "Hello", "version": "1.0.0", "contentType": "public.plain-text", "primaryFile": "hello.txt",
         "variables": [{"name": "who", "type": "string", "default": "world"}]}
        """.utf8).write(to: work.appendingPathComponent("hello/template.json"))
        try Data("Hello {{who}} over ssh\n".utf8).write(to: work.appendingPathComponent("hello/files/hello.txt"))
        for args in [["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "one"], ["tag", "-a", "v1.0.0", "-m", "v1.0.0"],
                     ["push", "-q", bare.path, "main", "--tags"]] {
            let result = try git(args, in: work, environment: ws.env)
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
        }
        // When it is added as a template source by its ssh URL and a document is made from it
        folio(["templates", "add", "team", server.url(bare)])
        XCTAssertTrue(folio(["templates", "list", "--source", "team"]).stdout.contains("ssh/hello"))
        folio(["new", "Greeting", "--template", "ssh/hello", "--source", "team", "--set", "who=Ada", "--defaults"])
        // Then the document holds the rendered file and records where the template came from
        XCTAssertEqual(text("Greeting/hello.txt"), "Hello Ada over ssh\n")
        let metadata = try XCTUnwrap(text("Greeting/.folio/document.json"))
        XCTAssertTrue(metadata.contains(server.url(bare)), metadata)
    }

    func testGivenAnUnknownHostKeyWhenCloningOverSSHThenItIsRefusedNamingHostAndFingerprintAndNothingIsLeft() throws {
        // Given a document on the server, and no known_hosts entry for it
        let bare = try ws.bareRepository("doc.git")
        folio(["new", "A"])
        folio(["remote", "A", "add", "origin", server.url(bare)])
        folio(["push", "A"])
        let before = try FileManager.default.contentsOfDirectory(atPath: ws.dir.url.path).sorted()
        let acceptedBefore = server.logText.components(separatedBy: "Accepted publickey").count
        // When it is cloned, and A pushes, without being told the server's key
        let unknown = environment(.none)
        let cloned = folio(["clone", server.url(bare), "B"], env: unknown, expect: 1)
        folio(["write", "A", "document.txt", "-m", "More"], env: unknown, stdin: Data("more\n".utf8))
        let pushed = folio(["push", "A"], env: unknown, expect: 1)
        // Then both are refused in one line naming the host as known_hosts spells it and the key's fingerprint
        let expected = "unknown host key for [127.0.0.1]:\(server.port) (fingerprint \(server.hostFingerprint))"
        XCTAssertTrue(server.hostFingerprint.hasPrefix("SHA256:"), server.hostFingerprint)
        for result in [cloned, pushed] {
            XCTAssertTrue(result.stderr.contains(expected), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        // And nothing was left behind, no key was offered to the server, and the server did not get the change
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ws.dir.url.path).sorted(), before)
        XCTAssertEqual(server.logText.components(separatedBy: "Accepted publickey").count, acceptedBefore, server.logText)
        let serverLog = try git(["--git-dir", bare.path, "log", "--format=%s", "main"], in: ws.dir.url, environment: ws.env).stdout
        XCTAssertFalse(serverLog.contains("More"), serverLog)
    }

    func testGivenAKnownHostsEntryWithAnotherKeyWhenCloningThenItIsRefusedAsNotMatching() throws {
        // Given a known_hosts file naming the server with some other key
        let bare = try ws.bareRepository("doc.git")
        folio(["new", "A"])
        folio(["remote", "A", "add", "origin", server.url(bare)])
        folio(["push", "A"])
        let otherKey = try otherPublicKey("other_key")
        let hosts = ws.dir.path("changed_known_hosts")
        try Data("[127.0.0.1]:\(server.port) \(otherKey)\n".utf8).write(to: hosts)
        // When the document is cloned
        let result = folio(["clone", server.url(bare), "B"], env: environment(.file(hosts)), expect: 1)
        // Then it is refused as a changed key, naming the key actually offered
        XCTAssertTrue(result.stderr.contains("the host key for [127.0.0.1]:\(server.port) does not match known_hosts (fingerprint \(server.hostFingerprint))"),
                      result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.dir.path("B").path))
    }

    func testGivenAKeyKnownHostsRevokesWhenTheLibraryPushesThenTheErrorSaysRevokedNamingHostAndFingerprint() throws {
        // Given a document published to the server, and a known_hosts file that marks the server's own key @revoked
        let bare = try ws.bareRepository("doc.git")
        let document = try ws.document("A")
        try document.addRemote("origin", url: server.url(bare))
        try document.push(options: TransferOptions(environment: environment()))
        let serverKey = try String(contentsOf: server.knownHosts, encoding: .utf8).split(separator: " ").dropFirst().prefix(2).joined(separator: " ")
        let hosts = ws.dir.path("revoked_known_hosts")
        try Data("@revoked [127.0.0.1]:\(server.port) \(serverKey)\n[127.0.0.1]:\(server.port) \(serverKey)\n".utf8).write(to: hosts)
        try document.write(Data("more\n".utf8), to: "document.txt", message: "More")
        // When it pushes through the library
        XCTAssertThrowsError(try document.push(options: TransferOptions(environment: environment(.file(hosts))))) { error in
            // Then the error is the host key refusal, saying why, for the host as known_hosts names it, with the fingerprint
            guard let refused = error as? HostKeyRefused else { return XCTFail("expected HostKeyRefused, got \(error)") }
            XCTAssertEqual(refused.reason, .revoked)
            XCTAssertEqual([refused.operation, refused.remote, refused.host, refused.fingerprint],
                           ["push", "origin", "[127.0.0.1]:\(server.port)", server.hostFingerprint])
            XCTAssertEqual("\(refused)", "origin: push failed: the host key for [127.0.0.1]:\(server.port) is revoked in known_hosts (fingerprint \(server.hostFingerprint))")
        }
    }

    func testGivenAHashedKnownHostsEntryForTheServerWhenCloningThenTheKeyIsAccepted() throws {
        // Given the server's known_hosts entry hashed as `ssh-keygen -H` writes it (Debian's default), among others
        let bare = try ws.bareRepository("doc.git")
        folio(["new", "A"])
        folio(["remote", "A", "add", "origin", server.url(bare)])
        folio(["push", "A"])
        let hosts = ws.dir.path("hashed_known_hosts")
        let plain = try String(contentsOf: server.knownHosts, encoding: .utf8)
        try Data("# comment\nexample.com \(try otherPublicKey("other_key"))\n\(plain)".utf8).write(to: hosts)
        XCTAssertEqual(try runProgram("ssh-keygen", ["-H", "-f", hosts.path]).status, 0)
        let hashed = try String(contentsOf: hosts, encoding: .utf8)
        XCTAssertFalse(hashed.contains("127.0.0.1"), hashed)
        // When the document is cloned with it
        folio(["clone", server.url(bare), "B"], env: environment(.file(hosts)))
        // Then the clone is there
        XCTAssertEqual(text("B/.folio/document.json"), text("A/.folio/document.json"))
    }
}
