import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import FolioCLITestSupport
import XCTest

/// Transfers over ssh through the system's OpenSSH `ssh`, with everything it reads from an ssh config file of the
/// test's own: OpenSSH takes `~` from the passwd database, not `$HOME`, so a test cannot put a `~/.ssh/config` of
/// its own; it gives ssh `-F CONFIG` instead (through `GIT_SSH_COMMAND`, or `core.sshCommand` in the test's
/// `GIT_CONFIG_GLOBAL`), which makes ssh read that file in place of `~/.ssh/config` (and no system file). The
/// servers are real `sshd`s on loopback (`SSHTestServer`); Folio is given no key and no known_hosts of its own
/// (no `FOLIO_SSH_KEY`, `FOLIO_SSH_KNOWN_HOSTS`, agent): all comes from the config file.
final class OpenSSHTransportTests: XCTestCase {
    var ws: SyncWorkspace!
    var server: SSHTestServer!
    /// The ssh client's folder: its config file, and any programs the config runs (its path marks their processes).
    var client: URL!

    override func setUpWithError() throws {
        guard SSHLaunch.installedSSH(ProcessInfo.processInfo.environment) != nil else { throw XCTSkip("ssh is not installed (openssh-client)") }
        ws = try SyncWorkspace()
        server = try SSHTestServer(in: ws.dir.path("sshd"))
        client = ws.dir.path("ssh-client")
        try FileManager.default.createDirectory(at: client, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server = nil
        ws = nil
    }

    var config: URL { client.appendingPathComponent("config") }

    /// An ssh config `Host` block reaching `server` only through the alias `name`: its address, port, account, key
    /// and known_hosts, as a user's `~/.ssh/config` would give them; `extra` lines after.
    func hostBlock(_ name: String, _ server: SSHTestServer, knownHosts: URL? = nil, extra: [String] = []) -> String {
        (["Host \(name)", "  HostName 127.0.0.1", "  Port \(server.port)", "  User \(server.user)",
          "  IdentityFile \(server.clientKey.path)", "  IdentitiesOnly yes", "  UserKnownHostsFile \((knownHosts ?? server.knownHosts).path)"]
         + extra.map { "  " + $0 }).joined(separator: "\n") + "\n"
    }

    func writeConfig(_ blocks: String...) throws {
        try Data(blocks.joined(separator: "\n").utf8).write(to: config)
    }

    /// The workspace's environment with no agent, and `GIT_SSH_COMMAND` running ssh with the test's config.
    func environment(sshCommand: String? = nil) -> [String: String] {
        var env = ws.env
        env.removeValue(forKey: "SSH_AUTH_SOCK")
        env["GIT_CONFIG_GLOBAL"] = ws.dir.path("gitconfig").path
        env["GIT_SSH_COMMAND"] = sshCommand ?? "ssh -F \(config.path)"
        return env
    }

    @discardableResult
    func folio(_ args: [String], env: [String: String], stdin: Data = Data(), expect status: Int32 = 0,
               file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(args, environment: env, cwd: ws.dir.url, stdin: stdin)
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)\nsshd: \(server.logText)",
                       file: file, line: line)
        return result
    }

    func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: ws.dir.path(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Processes whose command line names the client's folder (ssh with `-F`, the config's programs), waiting
    /// (bounded) for killed ones to be gone: empty when none is left.
    func processesOfTheClient() -> [String] {
        var left: [String] = []
        let deadline = Date().addingTimeInterval(3)
        repeat {
            left = []
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
                guard let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
                let line = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
                if line.contains(client.path) { left.append("\(entry): \(line)") }
            }
            if left.isEmpty { return [] }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        return left
    }

    /// A bare repository on the server with document A pushed to it (by path: no ssh), A's change in it.
    func publishedDocument() throws -> URL {
        let bare = try ws.bareRepository("doc.git")
        folio(["new", "A"], env: ws.env)
        folio(["write", "A", "document.txt", "-m", "From A"], env: ws.env, stdin: Data("from A\n".utf8))
        folio(["remote", "A", "add", "origin", bare.path], env: ws.env)
        folio(["push", "A"], env: ws.env)
        return bare
    }

    // MARK: An ssh config alias

    func testGivenAServerReachableOnlyThroughAnSSHConfigAliasWhenClonedFetchedAndPushedThenEveryChangeArrives() throws {
        // Given a document on an sshd that only the ssh config's alias reaches (its address, port, account, key and
        // known_hosts are in the config alone), and the URL naming the alias scp-like
        let bare = try publishedDocument()
        try writeConfig(hostBlock("folio-test-server", server))
        let url = "folio-test-server:\(bare.path)"
        let env = environment()
        // When it is cloned through the alias
        folio(["clone", url, "B"], env: env)
        // Then B has A's history
        XCTAssertEqual(text("B/document.txt"), "from A\n")
        // When A changes on the server and B pulls (fetch), then B writes and pushes
        folio(["write", "A", "document.txt", "-m", "More from A"], env: ws.env, stdin: Data("more from A\n".utf8))
        folio(["push", "A"], env: ws.env)
        folio(["pull", "B"], env: env)
        XCTAssertEqual(text("B/document.txt"), "more from A\n")
        folio(["write", "B", "notes.txt", "-m", "From B"], env: env, stdin: Data("from B\n".utf8))
        folio(["push", "B"], env: env)
        // Then the server has B's change, intact, and ssh logged in with the config's key; no ssh is left running
        let serverLog = try git(["--git-dir", bare.path, "log", "--format=%s", "main"], in: ws.dir.url, environment: ws.env).stdout
        XCTAssertEqual(serverLog.split(separator: "\n").first, "From B")
        try ws.assertFsck(bare)
        XCTAssertTrue(server.logText.contains("Accepted publickey for \(server.user)"), server.logText)
        XCTAssertEqual(processesOfTheClient(), [])
    }

    func testGivenAServerBehindAProxyJumpHostWhenClonedAndPushedThroughTheAliasThenBothGoThroughTheJumpHost() throws {
        // Given a second sshd that forwards, and a config whose alias reaches the first server only through it
        let bare = try publishedDocument()
        let jump = try SSHTestServer(in: ws.dir.path("sshd-jump"), forwarding: true)
        try writeConfig(hostBlock("folio-jump", jump), hostBlock("folio-behind-jump", server, extra: ["ProxyJump folio-jump"]))
        let env = environment()
        // When the document is cloned and pushed through the alias
        folio(["clone", "ssh://folio-behind-jump\(bare.path)", "B"], env: env)
        folio(["write", "B", "notes.txt", "-m", "Through the jump"], env: env, stdin: Data("jumped\n".utf8))
        folio(["push", "B"], env: env)
        // Then it arrived both ways, and the jump host logged the client in and forwarded to the server
        XCTAssertEqual(text("B/document.txt"), "from A\n")
        let serverLog = try git(["--git-dir", bare.path, "log", "--format=%s", "main"], in: ws.dir.url, environment: ws.env).stdout
        XCTAssertEqual(serverLog.split(separator: "\n").first, "Through the jump")
        XCTAssertTrue(jump.logText.contains("Accepted publickey for \(jump.user)"), jump.logText)
        XCTAssertEqual(processesOfTheClient(), [])
    }

    func testGivenControlMasterWithControlPersistWhenCloningTwiceThenOneLoginServesBothAndOnlyTheUsersMasterStays() throws {
        // Given an alias that shares one connection (ControlMaster auto, ControlPersist)
        let bare = try publishedDocument()
        try writeConfig(hostBlock("folio-test-server", server, extra: ["ControlMaster auto", "ControlPath \(client.path)/cm-%C", "ControlPersist 60"]))
        let env = environment()
        defer { _ = try? runProgram("ssh", ["-F", config.path, "-O", "exit", "folio-test-server"], cwd: ws.dir.url, environment: env) }
        // When the document is cloned twice
        folio(["clone", "folio-test-server:\(bare.path)", "B"], env: env)
        folio(["clone", "folio-test-server:\(bare.path)", "C"], env: env)
        // Then both arrived over the one login of the master
        XCTAssertEqual(text("C/document.txt"), "from A\n")
        XCTAssertEqual(server.logText.components(separatedBy: "Accepted publickey").count - 1, 1, server.logText)
        // And the only process left is the master the user's ControlPersist keeps (ssh detaches it into a session of
        // its own on purpose); every ssh of the transfers ended
        let left = processesOfTheClient()
        XCTAssertEqual(left.count, 1, "\(left)")
        XCTAssertTrue(left.allSatisfy { $0.contains("/cm-") && $0.contains(" [mux]") }, "\(left)")
        XCTAssertEqual(try runProgram("ssh", ["-F", config.path, "-O", "exit", "folio-test-server"], cwd: ws.dir.url, environment: env).status, 0)
        XCTAssertEqual(processesOfTheClient(), [])
    }

    // MARK: Which ssh runs

    func testGivenCoreSSHCommandInTheUsersGitConfigAndAnotherInTheDocumentsOwnConfigWhenPushingThenOnlyTheUsersRuns() throws {
        // Given the user's git config (GIT_CONFIG_GLOBAL) naming ssh with the test's config, no GIT_SSH_COMMAND, and
        // a cloned document whose own .git/config sets a core.sshCommand that would leave a mark
        let bare = try publishedDocument()
        try writeConfig(hostBlock("folio-test-server", server))
        var env = environment()
        env.removeValue(forKey: "GIT_SSH_COMMAND")
        try Data("[core]\n\tsshCommand = ssh -F \(config.path)\n".utf8).write(to: ws.dir.path("gitconfig"))
        folio(["clone", "folio-test-server:\(bare.path)", "B"], env: env)
        let mark = ws.dir.path("document-command-ran")
        XCTAssertEqual(try git(["config", "core.sshCommand", "touch \(mark.path); false"], in: ws.dir.path("B"), environment: ws.env).status, 0)
        // When B writes and pushes
        folio(["write", "B", "notes.txt", "-m", "From B"], env: env, stdin: Data("from B\n".utf8))
        folio(["push", "B"], env: env)
        // Then the push went through the user's command, and the document's command never ran
        let serverLog = try git(["--git-dir", bare.path, "log", "--format=%s", "main"], in: ws.dir.url, environment: ws.env).stdout
        XCTAssertEqual(serverLog.split(separator: "\n").first, "From B")
        XCTAssertFalse(FileManager.default.fileExists(atPath: mark.path))
    }

    func testGivenGITSSHCOMMANDAndCoreSSHCommandWhenCloningThenGITSSHCOMMANDWinsAndRunsThroughAShell() throws {
        // Given GIT_SSH_COMMAND, a shell command line that leaves a mark and runs ssh with the test's config, and a
        // core.sshCommand in the user's git config that would fail
        let bare = try publishedDocument()
        try writeConfig(hostBlock("folio-test-server", server))
        let mark = ws.dir.path("git-ssh-command-ran")
        let env = environment(sshCommand: "echo ran >> '\(mark.path)' && ssh -F '\(config.path)'")
        try Data("[core]\n\tsshCommand = false\n".utf8).write(to: ws.dir.path("gitconfig"))
        // When the document is cloned
        folio(["clone", "folio-test-server:\(bare.path)", "B"], env: env)
        // Then GIT_SSH_COMMAND ran through a shell (once for each connection of the clone)
        XCTAssertEqual(text("B/document.txt"), "from A\n")
        let runs = try XCTUnwrap(text("git-ssh-command-ran")).split(separator: "\n")
        XCTAssertFalse(runs.isEmpty)
        XCTAssertEqual(Set(runs), ["ran"])
    }

    func testGivenGITSSHNamingAProgramCalledSSHWhenCloningThenItRunsWithGitsOpenSSHArguments() throws {
        // Given GIT_SSH naming a program (no shell) called ssh, which runs the system's ssh with the test's config and
        // leaves a mark of its arguments
        let bare = try publishedDocument()
        try writeConfig(hostBlock("folio-test-server", server))
        let folder = client.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let program = folder.appendingPathComponent("ssh")
        let mark = ws.dir.path("git-ssh-arguments")
        try Data("#!/bin/sh\necho \"$@\" >> '\(mark.path)'\nexec /usr/bin/ssh -F '\(config.path)' \"$@\"\n".utf8).write(to: program)
        XCTAssertEqual(chmod(program.path, 0o755), 0)
        var env = environment()
        env.removeValue(forKey: "GIT_SSH_COMMAND")
        env["GIT_SSH"] = program.path
        // When the document is cloned
        folio(["clone", "ssh://folio-test-server\(bare.path)", "B"], env: env)
        // Then it arrived through the program, given OpenSSH's options, the host and git's command
        XCTAssertEqual(text("B/document.txt"), "from A\n")
        let first = try XCTUnwrap(text("git-ssh-arguments")?.split(separator: "\n").first)
        XCTAssertEqual(first, "-o BatchMode=yes -v folio-test-server git-upload-pack '\(bare.path)'")
    }

    func testGivenStrictHostKeyCheckingAcceptNewInTheSSHConfigWhenCloningAnUnknownServerThenSSHAddsItsKeyAsItWouldForGit() throws {
        // Given an alias whose known_hosts is empty and whose StrictHostKeyChecking is accept-new
        let bare = try publishedDocument()
        let knownHosts = client.appendingPathComponent("known_hosts")
        try Data().write(to: knownHosts)
        try writeConfig(hostBlock("folio-test-server", server, knownHosts: knownHosts, extra: ["StrictHostKeyChecking accept-new"]))
        // When the document is cloned
        folio(["clone", "folio-test-server:\(bare.path)", "B"], env: environment())
        // Then it arrived, and ssh wrote the server's key to the config's known_hosts
        XCTAssertEqual(text("B/document.txt"), "from A\n")
        XCTAssertTrue(try String(contentsOf: knownHosts, encoding: .utf8).hasPrefix("[127.0.0.1]:\(server.port) ssh-ed25519 "))
    }

    // MARK: Servers that never answer

    func testGivenASilentServerBehindAnAliasWhenPullingThenItGivesUpInOneLineAndNoSSHIsLeft() throws {
        // Given a TCP listener that accepts and never says anything, reached through an alias
        let silent = try SilentServer()
        try writeConfig("Host folio-silent\n  HostName 127.0.0.1\n  Port \(silent.port)\n  UserKnownHostsFile \(server.knownHosts.path)\n")
        folio(["new", "A"], env: ws.env)
        folio(["remote", "A", "add", "origin", "folio-silent:doc.git"], env: ws.env)
        // When the document pulls with a one-second timeout
        let env = environment()
        let workspace = ws!
        let start = Date()
        guard case let .success(result)? = runBounded(seconds: 15, { runFolio(["pull", "A", "--timeout", "1"], environment: env, cwd: workspace.dir.url) }) else {
            return XCTFail("folio pull still waits after 15 s")
        }
        // Then it gives up soon, in one line saying it waited for the ssh handshake, and no ssh process is left
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 8)
        XCTAssertEqual(result.stderr, "folio pull: folio-silent:doc.git: no answer from the server for 1 s during the ssh handshake; gave up\n")
        XCTAssertEqual(processesOfTheClient(), [])
    }

    func testGivenAProxyCommandThatHangsWhenFetchingThroughTheLibraryThenItTimesOutAndNoProxyOrSSHIsLeft() throws {
        // Given an alias whose ProxyCommand never connects (sleep, under a name in the client's folder)
        let hung = client.appendingPathComponent("hung-proxy")
        try FileManager.default.createSymbolicLink(atPath: hung.path, withDestinationPath: "/bin/sleep")
        try writeConfig("Host folio-hung\n  ProxyCommand \(hung.path) 1000\n  UserKnownHostsFile \(server.knownHosts.path)\n")
        let document = try ws.document("A")
        try document.addRemote("origin", url: "ssh://folio-hung/doc.git")
        let options = TransferOptions(environment: environment(), timeout: .seconds(1))
        // When it fetches through the library (the proxy is running once ssh waits on it)
        let start = Date()
        XCTAssertThrowsError(try document.fetch(options: options)) { error in
            // Then it times out during the ssh handshake, in one line
            XCTAssertTrue(error is TransferTimedOut, "\(error)")
            XCTAssertEqual("\(error)", "ssh://folio-hung/doc.git: no answer from the server for 1 s during the ssh handshake; gave up")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 8)
        // And neither ssh nor its proxy is left
        XCTAssertEqual(processesOfTheClient(), [])
    }

    func testGivenAProxyCommandThatHangsWhenTheCallerCancelsThenTheFetchStopsAsCancelledAndNoProxyOrSSHIsLeft() throws {
        // Given an alias whose ProxyCommand never connects, and a caller that cancels once the proxy runs
        let hung = client.appendingPathComponent("hung-proxy")
        try FileManager.default.createSymbolicLink(atPath: hung.path, withDestinationPath: "/bin/sleep")
        try writeConfig("Host folio-hung\n  ProxyCommand \(hung.path) 1000\n  UserKnownHostsFile \(server.knownHosts.path)\n")
        let document = try ws.document("A")
        try document.addRemote("origin", url: "folio-hung:doc.git")
        let marker = client.path
        let cancel: @Sendable () -> Bool = {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains { entry in
                FileManager.default.contents(atPath: "/proc/\(entry)/cmdline").map { String(decoding: $0, as: UTF8.self).hasPrefix(marker + "/hung-proxy") } ?? false
            }
        }
        // When it fetches with a long timeout
        let start = Date()
        XCTAssertThrowsError(try document.fetch(options: TransferOptions(environment: environment(), isCancelled: cancel, timeout: .seconds(60)))) { error in
            // Then it stops as cancelled, soon
            XCTAssertTrue(error is TransferCancelled, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        // And neither ssh nor its proxy is left
        XCTAssertEqual(processesOfTheClient(), [])
    }

    // MARK: Template sources

    func testGivenATemplateRepositoryBehindAnAliasWhenAddedAsASourceThenNewMakesADocumentFromItThroughSSH() throws {
        // Given a template repository with a tagged template on the server, reached only through the config's alias
        let bare = try ws.bareRepository("templates.git")
        let work = ws.dir.path("template-work")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("hello/files"), withIntermediateDirectories: true)
        try Data("""
        {"id": "ssh/hello", "name": "Hello", "version": "1.0.0", "contentType": "public.plain-text", "primaryFile": "hello.txt",
         "variables": [{"name": "who", "type": "string", "default": "world"}]}
        """.utf8).write(to: work.appendingPathComponent("hello/template.json"))
        try Data("Hello {{who}} through OpenSSH\n".utf8).write(to: work.appendingPathComponent("hello/files/hello.txt"))
        for args in [["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "one"], ["tag", "-a", "v1.0.0", "-m", "v1.0.0"],
                     ["push", "-q", bare.path, "main", "--tags"]] {
            let result = try git(args, in: work, environment: ws.env)
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
        }
        try writeConfig(hostBlock("folio-test-server", server))
        let env = environment()
        // When it is added as a template source by an ssh:// URL naming the alias, and a document is made from it
        folio(["templates", "add", "team", "ssh://folio-test-server\(bare.path)"], env: env)
        folio(["new", "Greeting", "--template", "ssh/hello", "--source", "team", "--set", "who=Ada", "--defaults"], env: env)
        // Then the document holds the rendered file
        XCTAssertEqual(text("Greeting/hello.txt"), "Hello Ada through OpenSSH\n")
        XCTAssertEqual(processesOfTheClient(), [])
    }

    // MARK: Host keys

    func testGivenAnUnknownHostKeyWhenCloningThroughAnAliasThenItIsRefusedWithTheFingerprintAndTheCommandThatAcceptsIt() throws {
        // Given an alias whose known_hosts file does not list the server
        let bare = try publishedDocument()
        let knownHosts = client.appendingPathComponent("known_hosts")
        try Data().write(to: knownHosts)
        try writeConfig(hostBlock("folio-test-server", server, knownHosts: knownHosts))
        let env = environment()
        let acceptedBefore = server.logText.components(separatedBy: "Accepted publickey").count
        // When the document is cloned (nothing on standard input to answer a prompt with)
        let refused = folio(["clone", "folio-test-server:\(bare.path)", "B"], env: env, expect: 1)
        // Then one line names the server as known_hosts does, the key's fingerprint and the command to accept it;
        // no key was offered, nothing was cloned, nothing was written to known_hosts, no prompt was shown
        let accept = "ssh -F \(config.path) -o StrictHostKeyChecking=accept-new folio-test-server true"
        XCTAssertEqual(refused.stderr, "folio clone: folio-test-server:\(bare.path): cannot clone (unknown host key for [127.0.0.1]:\(server.port) "
                       + "(fingerprint \(server.hostFingerprint)); it is not in known_hosts; once the fingerprint is checked with the "
                       + "server's owner, accept it with: \(accept)); nothing was cloned\n")
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(server.logText.components(separatedBy: "Accepted publickey").count, acceptedBefore, server.logText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.dir.path("B").path))
        XCTAssertEqual(try Data(contentsOf: knownHosts), Data())
        // When the command it gave is run, and the clone again
        let accepted = try runProgram("/bin/sh", ["-c", accept], cwd: ws.dir.url, environment: env)
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        folio(["clone", "folio-test-server:\(bare.path)", "B"], env: env)
        // Then the key is in known_hosts and the clone is there
        XCTAssertEqual(text("B/document.txt"), "from A\n")
    }

    // MARK: Failures, and no ssh

    func testGivenAPathTheServerDoesNotHaveWhenCloningThroughAnAliasThenOneLineQuotesWhatTheServerSaid() throws {
        // Given an alias to the server, and a path on it that is no repository
        try writeConfig(hostBlock("folio-test-server", server))
        let missing = ws.dir.path("servers/missing.git").path
        // When it is cloned
        let result = folio(["clone", "folio-test-server:\(missing)", "B"], env: environment(), expect: 1)
        // Then one line says ssh failed and quotes the server's last words, as text
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertEqual(result.stderr, "folio clone: folio-test-server:\(missing): cannot clone (ssh (from GIT_SSH_COMMAND) exited with status 128: "
                       + "fatal: '\(missing)' does not appear to be a git repository); nothing was cloned\n")
        XCTAssertEqual(processesOfTheClient(), [])
    }

    func testGivenNoSSHProgramWhenPushingThenLibssh2CarriesItAsBeforeAndItsFailureSaysNoSSHWasFound() throws {
        // Given a document whose remote is the server by address, and an environment where no ssh program is found
        let bare = try ws.bareRepository("doc.git")
        let document = try ws.document("A")
        try document.addRemote("origin", url: server.url(bare))
        var env = ws.env
        env.removeValue(forKey: "SSH_AUTH_SOCK")
        env["PATH"] = client.path
        env["FOLIO_SSH_KEY"] = server.clientKey.path
        env["FOLIO_SSH_KNOWN_HOSTS"] = server.knownHosts.path
        XCTAssertNil(SSHLaunch.resolve(environment: env))
        // When it pushes: libssh2 carries it, as before
        try document.push(options: TransferOptions(environment: env))
        XCTAssertEqual(try git(["--git-dir", bare.path, "rev-parse", "main"], in: ws.dir.url, environment: ws.env).status, 0)
        // When it pushes to an ssh config alias, which libssh2 cannot read
        try document.addRemote("alias", url: "folio-test-server:\(bare.path)")
        XCTAssertThrowsError(try document.push(to: "alias", options: TransferOptions(environment: env))) { error in
            // Then the error says Folio found no ssh program and used libssh2
            XCTAssertTrue("\(error)".contains("no ssh program found: Folio used its built-in libssh2, which reads no ~/.ssh/config"), "\(error)")
        }
    }
}
