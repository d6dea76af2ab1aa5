import FolioBasics
import FoundationEssentials
import Glibc

/// A transfer whose `ssh` program failed: it could not connect or log in, or git could not run on the server.
public struct SSHFailed: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was being done ("fetch", "push", "connect").
    public let operation: String
    /// The remote's name or URL.
    public let remote: String
    /// Where the program was chosen (`GIT_SSH_COMMAND`, `core.sshCommand`, `GIT_SSH`, or `PATH` for `ssh`).
    public let origin: String
    /// ssh's exit status: 255 when ssh itself failed, else the server's command's.
    public let status: Int32
    /// The last lines ssh wrote to its standard error (text from outside, control characters escaped).
    public let lastLines: [String]

    /// What went wrong, without the remote: the program, its status and its last lines.
    public var problem: String {
        let program = origin == "PATH" ? "ssh" : "ssh (from \(origin))"
        let said = lastLines.isEmpty ? "" : ": " + lastLines.joined(separator: " | ")
        return "\(program) exited with status \(status)\(said)"
    }

    public var description: String { "\(remote): \(operation) failed: \(problem)" }
}

/// How one `ssh` run ended, when it failed (`SSHChild`), made into the transfer's error by `error(_:_:)`.
struct SSHExit: Sendable {
    var status: Int32
    var origin: SSHLaunch.Origin
    var lastLines: [String]
    /// The refused host key: its known_hosts name, fingerprint and why.
    var hostKey: (host: String, fingerprint: String, reason: HostKeyRefused.Reason)?
    /// For an unknown host key: the command that accepts it.
    var acceptCommand: String?

    init(status: Int32, origin: SSHLaunch.Origin, lastLines: [String]) {
        self.status = status
        self.origin = origin
        self.lastLines = lastLines
    }

    /// `HostKeyRefused` for a refused host key, else `SSHFailed`.
    func error(_ operation: String, _ remote: String) -> any Error {
        if let hostKey {
            return HostKeyRefused(operation: operation, remote: remote, host: hostKey.host, fingerprint: hostKey.fingerprint,
                                  reason: hostKey.reason, acceptCommand: acceptCommand)
        }
        return SSHFailed(operation: operation, remote: remote, origin: origin.rawValue, status: status, lastLines: lastLines)
    }
}

/// The name a refused server has in known_hosts, and the command that accepts its key, from `ssh -G` (what the
/// user's ssh config makes of the address: `HostName`, `Port`, `HostKeyAlias`); the address as written when `-G`
/// cannot say (a program that is not OpenSSH's).
struct SSHHostKeyName {
    var entry: String
    var acceptCommand: String?

    init(_ launch: SSHLaunch, _ address: SSHAddress) {
        let config = launch.isOpenSSH ? Self.effectiveConfig(launch, address) : [:]
        let port = config["port"].flatMap { Int($0) } ?? address.port ?? 22
        entry = config["hostkeyalias"].map { $0.lowercased() }
            ?? SSHKnownHosts.entryName(host: config["hostname"] ?? address.host, port: port)
        guard launch.isOpenSSH, let arguments = try? launch.arguments(address, extra: ["-o", "StrictHostKeyChecking=accept-new"], remote: "true") else { return }
        acceptCommand = launch.shown(arguments)
    }

    /// `ssh -G`'s settings (`hostname`, `port`, …), empty when it fails; at most 5 seconds.
    private static func effectiveConfig(_ launch: SSHLaunch, _ address: SSHAddress) -> [String: String] {
        guard let arguments = try? launch.commandLine(launch.arguments(address, extra: ["-G"], remote: nil)),
              let text = run(arguments, environment: launch.environment) else { return [:] }
        var settings: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, settings[String(parts[0])] == nil { settings[String(parts[0])] = String(parts[1]) }
        }
        return settings
    }

    /// The standard output of `arguments` (at most 64 KB), nil when it fails or takes more than 5 seconds.
    private static func run(_ arguments: [String], environment: [String: String]) -> String? {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        defer { _ = close(fds[0]) }
        var spawn = ChildSpawn(program: arguments[0], arguments: Array(arguments.dropFirst()), environment: environment,
                               descriptors: [(0, .nullForReading), (1, .descriptor(fds[1])), (2, .nullForWriting)])
        (spawn.newSession, spawn.searchPath, spawn.closeOthers) = (true, true, .whenAvailable)
        let started = try? spawn.start()
        _ = close(fds[1])
        guard let pid = started else { return nil }
        var output: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(5)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while output.count < 1 << 16, ContinuousClock.now < deadline {
            var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 || errno == EINTR else { break }
            guard poller.revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fds[0], $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            output += chunk.prefix(count)
        }
        _ = kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status == 0 || !output.isEmpty ? String(decoding: output, as: UTF8.self) : nil
    }
}
