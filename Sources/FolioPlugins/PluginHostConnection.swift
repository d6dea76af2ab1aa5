import FolioBasics
import FolioPluginWire
import FoundationEssentials
import Glibc
import Synchronization

/// Why a call into a plugin host failed without an answer from the plugin.
public struct PluginHostFailure: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Cause: Sendable, Equatable {
        /// The call passed its deadline; the host was killed.
        case timedOut(Duration)
        /// The host died or broke the protocol: "SIGSEGV", "exit status 3", "protocol violation: …".
        case crashed(String)
        /// Someone cancelled the call (Esc in the editor host); the host was killed.
        case cancelled
        /// The host could not be started.
        case spawnFailed(String)
    }
    public let editor: String
    public let command: String
    public let cause: Cause
    /// What the kernel refused the plugin during the call (its confinement), when it tried anything.
    public var refused: PluginRefusedCalls?
    /// The plugin's own last lines on standard error in the host that failed (from its log), shown as text; the
    /// description names the telling one (a Swift runtime's "Fatal error: …", else the last).
    public var stderr: [String] = []

    /// A failure; `refused` names what the plugin was refused before it.
    public init(editor: String, command: String, cause: Cause, refused: PluginRefusedCalls? = nil) {
        self.editor = editor
        self.command = command
        self.cause = cause
        self.refused = refused
    }

    public var description: String {
        var tried = refused.map { "; \($0)" } ?? ""
        if let words = lastWords { tried += "; it wrote '\(words)'" }
        switch cause {
        case let .timedOut(limit):
            return "editor '\(editor)' did not answer '\(command)' within \(PluginLimits.describe(limit))\(tried); nothing was changed"
        case let .crashed(why):
            return "editor '\(editor)' crashed (\(why)) in '\(command)'\(tried); nothing was changed"
        case .cancelled:
            return "editor '\(editor)' was stopped in '\(command)'; nothing was changed"
        case let .spawnFailed(why):
            return "editor '\(editor)' could not be started for '\(command)': \(why); nothing was changed"
        }
    }

    /// The line of `stderr` that tells most: the runtime's fatal error when there is one, else the last line.
    public var lastWords: String? {
        stderr.first { $0.contains("Fatal error") || $0.contains("fatal error") } ?? stderr.last
    }

    /// Whether this counts towards quarantine (crashes and timeouts do; a cancel or a failed spawn does not).
    var isStrike: Bool {
        switch cause {
        case .timedOut, .crashed: return true
        case .cancelled, .spawnFailed: return false
        }
    }

    /// The cause as a quarantine record keeps it.
    var strikeCause: String {
        switch cause {
        case let .timedOut(limit): return "no answer within \(PluginLimits.describe(limit))"
        case let .crashed(why): return why
        case .cancelled: return "cancelled"
        case let .spawnFailed(why): return why
        }
    }
}

/// One running plugin host process seen from Folio: the child's pid, Folio's end of the socket, and the calls.
/// Calls are made one at a time by the owner (`IsolatedPlugin` holds its lock around each); `cancel()` may be
/// called from any thread and kills the child, which ends the call in progress.
final class PluginHostConnection: Sendable {
    let pid: pid_t
    private let socket: Int32
    /// Folio's end of the refusal channel (`HostWire.refusalFD` in the host), non-blocking.
    private let refusals: Int32
    private let cap: Int
    private let cancelled = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let sequence = Atomic<UInt32>(1)

    private init(pid: pid_t, socket: Int32, refusals: Int32, cap: Int) {
        self.pid = pid
        self.socket = socket
        self.refusals = refusals
        self.cap = cap
    }

    deinit {
        close(socket)
        close(refusals)
        if !finished.load(ordering: .acquiring) {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// Starts `folio-plugin-host` (`executable`) with Folio's end of a socketpair as fd 3, the refusal channel as fd 4,
    /// stdin and stdout on /dev/null, stderr appended to `log`, every other descriptor closed, a session of its own,
    /// the Swift backtracer off and only the plugin's environment (`PluginIsolation.hostEnvironment`). `confined: false`
    /// (folio-bench only) starts it without confinement.
    static func spawn(executable: URL, limits: PluginLimits, log: URL?, environment: [String: String], confined: Bool = true) throws -> PluginHostConnection {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw PluginWire.WireError.io("socketpair", errno)
        }
        defer { close(pair[1]) }
        var refusalPair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &refusalPair) == 0 else {
            close(pair[0])
            throw PluginWire.WireError.io("socketpair", errno)
        }
        defer { close(refusalPair[1]) }
        _ = shutdown(refusalPair[0], Int32(SHUT_WR))
        var env = PluginIsolation.hostEnvironment(from: environment)
        env["SWIFT_BACKTRACE"] = "enable=no"
        let logs = log.map { PluginIsolation.pluginLogFolder(beside: $0) }
        let arguments = ["--memory", String(limits.memory), "--buffer", String(limits.buffer)] + (confined ? [] : [HostWire.unconfinedOption])
            + (logs.map { [HostWire.logFolderOption, $0.path] } ?? [])
        var child = ChildSpawn(program: executable.path, arguments: arguments,
                               environment: env,
                               descriptors: [(0, .nullForReading), (1, .nullForWriting), (2, log.map { .appending($0.path) } ?? .nullForWriting),
                                             (HostWire.socketFD, .descriptor(pair[1])), (HostWire.refusalFD, .descriptor(refusalPair[1]))])
        // A session of its own: no controlling terminal, so a plugin can neither open /dev/tty nor get the terminal's
        // ^C, and the whole group (anything the plugin forks) is killed at once.
        child.newSession = true
        let pid: pid_t
        do { pid = try child.start() } catch {
            close(pair[0])
            close(refusalPair[0])
            throw PluginWire.WireError.io(error.call == "posix_spawn" ? "posix_spawn \(executable.path)" : error.call, error.code)
        }
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        _ = fcntl(refusalPair[0], F_SETFL, fcntl(refusalPair[0], F_GETFL) | O_NONBLOCK)
        return PluginHostConnection(pid: pid, socket: pair[0], refusals: refusalPair[0], cap: PluginLimits.messageCap(bufferCap: limits.buffer))
    }

    /// What the kernel refused the plugin since the last time this was asked (nil when nothing): read without waiting,
    /// at most `PluginRefusedCalls.readCap` bytes kept. The host writes each refusal as it happens, so after a reply or
    /// the host's death every refusal of the call is there.
    func takeRefusals() -> PluginRefusedCalls? {
        var kept = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(refusals, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            if kept.count < PluginRefusedCalls.readCap { kept.append(contentsOf: buffer[0..<min(count, PluginRefusedCalls.readCap - kept.count)]) }
        }
        let calls = PluginRefusedCalls(parsing: kept)
        return calls.isEmpty ? nil : calls
    }

    private var channel: WireChannel { WireChannel(fd: socket, cap: cap) }
    private var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Sends a request without waiting (release).
    func post(_ kind: PluginWire.Kind, _ fields: [Data], deadline: Duration) throws {
        let seq = sequence.add(1, ordering: .relaxed).newValue
        try channel.send(kind, sequence: seq, fields: fields, until: .now + deadline, cancelled: { isCancelled })
    }

    /// Sends a request; the caller then `await`s the reply with the same sequence.
    func send(_ kind: PluginWire.Kind, _ fields: [Data], deadline: ContinuousClock.Instant) throws -> UInt32 {
        let seq = sequence.add(1, ordering: .relaxed).newValue
        try channel.send(kind, sequence: seq, fields: fields, until: deadline, cancelled: { isCancelled })
        return seq
    }

    /// Waits for the reply to `sequence` (0 for the host's `ready`).
    func reply(to sequence: UInt32, deadline: ContinuousClock.Instant) throws -> PluginWire.Message {
        let message = try channel.receive(until: deadline, cancelled: { isCancelled })
        guard message.sequence == sequence else { throw PluginWire.WireError.violation("a reply to call \(message.sequence), expected \(sequence)") }
        guard message.kind.rawValue >= PluginWire.Kind.ready.rawValue else { throw PluginWire.WireError.violation("a request sent as a reply") }
        return message
    }

    /// Kills the host (from any thread); the call in progress ends with `cancelled`.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        killGroup()
    }

    /// SIGKILL to the host's process group (the host and anything a plugin started), then to the host itself.
    private func killGroup() {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }

    /// Ends the host after `error` ended a call, and names the cause: the signal or exit status it died of when
    /// it died by itself, else the protocol problem. Always kills and reaps it (no zombie is left).
    func terminate(after error: any Error, limit: Duration) -> PluginHostFailure.Cause {
        if isCancelled {
            reap(killFirst: true)
            return .cancelled
        }
        if case PluginWire.WireError.deadline = error {
            reap(killFirst: true)
            return .timedOut(limit)
        }
        // It closed the connection or sent garbage: give it a moment to finish dying to learn why.
        var status: Int32 = 0
        for _ in 0..<50 {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                finished.store(true, ordering: .releasing)
                return Self.cause(status: status, error: error)
            }
            if result < 0 && errno != EINTR { break }
            usleep(2000)
        }
        reap(killFirst: true)
        if case PluginWire.WireError.violation(let what) = error { return .crashed("protocol violation: \(what)") }
        return .crashed("\(error)")
    }

    private func reap(killFirst: Bool) {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if killFirst { killGroup() }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private static func cause(status: Int32, error: any Error) -> PluginHostFailure.Cause {
        let signal = status & 0x7f
        if signal != 0 { return .crashed(ChildProcess.signalName(signal) ?? "signal \(signal)") }
        if case PluginWire.WireError.violation(let what) = error { return .crashed("protocol violation: \(what)") }
        let code = (status >> 8) & 0xff
        return .crashed(code == 0 ? "it exited" : "exit status \(code)")
    }
}
