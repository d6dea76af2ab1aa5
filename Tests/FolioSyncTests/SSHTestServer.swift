import Foundation
import FolioTestSupport
import XCTest

/// A real OpenSSH `sshd` on 127.0.0.1 for the ssh transport tests, started as a child process and stopped when
/// released. Everything it uses is in its own folder: a generated ed25519 host key, a generated client key (the
/// only authorized key), its `sshd_config` (no `/etc/ssh` config is read), its pid file. The client logs in as the
/// user running the tests, whose git commands on the server see no system or global git config.
final class SSHTestServer {
    let port: UInt16
    /// The folder holding keys, config and pid file.
    let directory: URL
    /// The client's private key (`FOLIO_SSH_KEY`); its public half is beside it as `client_key.pub`.
    let clientKey: URL
    /// A known_hosts file listing this server's host key for `[127.0.0.1]:PORT`.
    let knownHosts: URL
    /// The host key's fingerprint as OpenSSH prints it (`SHA256:…`).
    let hostFingerprint: String
    /// The user the client logs in as.
    let user: String
    private var pid: pid_t = 0
    private let log: URL

    /// sshd's absolute path (it refuses to start from a relative one), if installed.
    static var sshdPath: String? {
        ["/usr/sbin/sshd", "/usr/bin/sshd", "/usr/local/sbin/sshd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts sshd; skips the test when openssh-server is not installed (scripts/setup installs it). With
    /// `forwarding`, it forwards TCP for its clients (a `ProxyJump` host).
    init(in directory: URL, forwarding: Bool = false) throws {
        guard let sshd = Self.sshdPath else {
            throw XCTSkip("sshd is not installed: run scripts/setup (Debian's openssh-server) to test the ssh transport")
        }
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let hostKey = directory.appendingPathComponent("host_key")
        clientKey = directory.appendingPathComponent("client_key")
        for key in [hostKey, clientKey] {
            let made = try runProgram("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", key.lastPathComponent, "-f", key.path])
            guard made.status == 0 else { throw SSHTestServerError("ssh-keygen failed: \(made.stderr)") }
        }
        let authorizedKeys = directory.appendingPathComponent("authorized_keys")
        try FileManager.default.copyItem(at: clientKey.appendingPathExtension("pub"), to: authorizedKeys)
        user = String(cString: getpwuid(getuid()).pointee.pw_name)
        // As root, sshd wants its privilege separation folder.
        if getuid() == 0, !FileManager.default.fileExists(atPath: "/run/sshd") {
            try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        let config = directory.appendingPathComponent("sshd_config")
        let publicHostKey = try String(contentsOf: hostKey.appendingPathExtension("pub"), encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        let knownHosts = directory.appendingPathComponent("known_hosts")
        self.knownHosts = knownHosts
        let fingerprint = try runProgram("ssh-keygen", ["-l", "-E", "sha256", "-f", hostKey.appendingPathExtension("pub").path])
        hostFingerprint = fingerprint.stdout.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let log = directory.appendingPathComponent("sshd.log")
        self.log = log
        let user = self.user
        // sshd listens in its own process (-D): the port is checked to be its own, else it starts on another.
        do {
            (port, pid) = try startOnLoopbackPort(nil, seconds: 15) { port in
                try Data("""
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(hostKey.path)
                PidFile \(directory.appendingPathComponent("sshd.pid").path)
                AuthorizedKeysFile \(authorizedKeys.path)
                AllowUsers \(user)
                StrictModes no
                UsePAM no
                PubkeyAuthentication yes
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PermitRootLogin prohibit-password
                AllowAgentForwarding no
                AllowTcpForwarding \(forwarding ? "local" : "no")
                X11Forwarding no
                PrintMotd no
                SetEnv GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
                LogLevel VERBOSE

                """.utf8).write(to: config)
                try Data("[127.0.0.1]:\(port) \(publicHostKey)\n".utf8).write(to: knownHosts)
                // posix_spawn, not Foundation.Process: sshd closes every inherited descriptor, which Foundation takes
                // for the child's exit and then blocks in wait4 on it, hanging every later Process in the test run.
                // -D: stay a child; -e: log to stderr (the log file); -f: only this config.
                let pid = try Self.spawn(sshd, ["-D", "-e", "-f", config.path], log: log)
                return LoopbackServerStart(server: pid, pid: pid, isRunning: { var status: Int32 = 0; return waitpid(pid, &status, WNOHANG) == 0 },
                                           stop: { kill(pid, SIGTERM); var status: Int32 = 0; while waitpid(pid, &status, 0) == -1 && errno == EINTR {} })
            }
        } catch {
            throw SSHTestServerError("sshd did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
    }

    private static func spawn(_ path: String, _ arguments: [String], log: URL) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"), nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard code == 0 else { throw SSHTestServerError("cannot start \(path): \(String(cString: strerror(code)))") }
        return pid
    }

    /// Stops sshd (SIGTERM) and reaps it; its forked session processes end with their connections.
    private func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        pid = 0
    }

    /// The `ssh://` URL of a repository at `path` on this server.
    func url(_ path: URL) -> String { "ssh://\(user)@127.0.0.1:\(port)\(path.path)" }

    /// What sshd logged (to explain a failure).
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    deinit { stop() }
}

struct SSHTestServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
