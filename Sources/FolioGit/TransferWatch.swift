import CGit2
import Dispatch
import FoundationEssentials
import FolioBasics
import Glibc
import Synchronization

/// A network transfer given up on because the server sent nothing and took nothing for the whole timeout.
public struct TransferTimedOut: Error, CustomStringConvertible, Sendable {
    /// The remote's URL.
    public let remote: String
    /// How long the transfer waited without progress.
    public let timeout: Duration
    /// What it was waiting for, as the end of a sentence: "while connecting", "while receiving objects".
    public let waitingFor: String

    public var description: String {
        "\(remote): no answer from the server for \(Self.seconds(timeout)) s \(waitingFor); gave up"
    }

    /// "30", "1.5".
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if value == value.rounded(), let whole = Int(exactly: value) { return String(whole) }
        return NumberText.fixed(value, digits: 1)
    }
}

/// A transfer stopped because its caller cancelled it (`TransferOptions.isCancelled`, or `TransferWatch.cancel`).
public struct TransferCancelled: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was being done ("fetch", "push").
    public let operation: String
    /// The remote's name or URL.
    public let remote: String

    public var description: String { "\(remote): \(operation) failed: cancelled" }
}

/// What a transfer was doing when it last made progress; a stalled transfer's error says what it waited for.
enum TransferPhase: Sendable, Equatable {
    case connecting, sshHandshake, tlsHandshake, waiting, receiving, sending

    var waitingFor: String {
        switch self {
        case .connecting: "while connecting"
        case .sshHandshake: "during the ssh handshake"
        case .tlsHandshake: "during the TLS handshake"
        case .waiting: "while waiting for its reply"
        case .receiving: "while receiving objects"
        case .sending: "while sending objects"
        }
    }
}

/// The watchdog of one transfer (fetch, push, connect): it stops the transfer when the caller cancels it or when
/// nothing has moved for `timeout`, even while libgit2 or libssh2 is blocked reading a silent socket.
///
/// libgit2 1.5 has no server timeout, and its progress callbacks are not called while a server is silent, so a
/// callback alone cannot stop a stalled transfer. Every socket libgit2 opens is Folio's own stream
/// (`WatchedSocketStream`), which connects without blocking and registers its socket with the watch of the transfer
/// running on its thread. A timer checks the watch ten times a second; on a cancel or a timeout it `shutdown`s the
/// transfer's sockets, which wakes any read or poll blocked on them (libgit2's own and libssh2's, which reads the
/// socket directly), so libgit2 returns an error and the caller gets `TransferTimedOut` or `TransferCancelled` instead.
/// Progress is any byte sent or received through the stream, and any libgit2 callback (ssh's bytes go to libssh2
/// directly, so over ssh the callbacks and the handshake's end are what count).
final class TransferWatch: Sendable {
    enum Stop: Sendable, Equatable {
        case cancelled
        case timedOut(TransferPhase)
    }

    private struct State {
        var lastProgress: ContinuousClock.Instant
        /// Nil until the transfer opens a socket: a local transfer (a path) has no server to wait for.
        var phase: TransferPhase?
        var sockets: Set<Int32> = []
        /// The process groups of the `ssh` programs the transfer runs (`SSHChild`), killed on a stop.
        var children: Set<pid_t> = []
        /// How the last `ssh` failed, when it did (`SSHChild`): the transfer's error instead of libgit2's.
        var sshFailure: SSHExit?
        var stop: Stop?
    }

    /// The remote's URL (for the error).
    let remote: String
    let timeout: Duration
    private let isCancelled: (@Sendable () -> Bool)?
    /// The phase after a socket connects: the ssh or TLS handshake, else the server's first reply.
    private let afterConnect: TransferPhase
    private let state: Mutex<State>
    /// How this transfer runs `ssh` (nil: libssh2 does ssh, or the transfer is not over ssh).
    let ssh: SSHLaunch?

    /// How often the timer looks: a cancel takes effect within this (plus the time libgit2 takes to return).
    static let tick: Duration = .milliseconds(100)
    private static let queue = DispatchQueue(label: "folio.transfer-watch")

    /// For a plain-http transfer through a proxy: the server's host and port, and the proxy's. libgit2 (1.5, issue
    /// libgit2#5650) writes its requests to a proxy in absolute form (`GET http://host/path`) but opens the socket to
    /// the server itself; the stream opens it to the proxy instead (`WatchedSocketStream`).
    struct ForwardingProxy: Sendable, Equatable {
        var targetHost: String, targetPort: String, proxyHost: String, proxyPort: String
    }
    let forwardingProxy: ForwardingProxy?

    /// A watch for a transfer shown as `remote`, connecting to `connecting` (the URL as rewritten by the user's
    /// `insteadOf`, which decides the phases; `remote` when nil).
    init(remote: String, timeout: Duration, isCancelled: (@Sendable () -> Bool)?, forwardingProxy: ForwardingProxy? = nil,
         connecting: String? = nil, ssh: SSHLaunch? = nil) {
        self.forwardingProxy = forwardingProxy
        self.remote = remote
        self.ssh = ssh
        self.timeout = timeout
        self.isCancelled = isCancelled
        let target = connecting ?? remote
        self.afterConnect = Self.isSSH(target) ? .sshHandshake : target.lowercased().hasPrefix("https://") ? .tlsHandshake : .waiting
        self.state = Mutex(State(lastProgress: .now))
    }

    /// ssh:// URLs and scp-like `host:path` (not a local path, not another scheme).
    static func isSSH(_ url: String) -> Bool {
        let lower = url.lowercased()
        if lower.hasPrefix("ssh://") || lower.hasPrefix("git+ssh://") || lower.hasPrefix("ssh+git://") { return true }
        guard !url.contains("://"), !url.hasPrefix("/"), let colon = url.firstIndex(of: ":") else { return false }
        return !url[..<colon].contains("/")
    }

    // MARK: Progress

    /// Something moved (a byte, a callback); `phase`, when given, is what the transfer does now.
    func progressed(_ phase: TransferPhase? = nil) {
        state.withLock { state in
            state.lastProgress = .now
            if let phase, state.phase != nil { state.phase = phase }
        }
    }

    /// The stop, once the watch has stopped the transfer.
    var stop: Stop? { state.withLock { $0.stop } }

    // MARK: Sockets

    /// A socket starts connecting (the clock restarts: the previous request, if any, was answered).
    func connecting() {
        state.withLock { state in
            state.lastProgress = .now
            state.phase = .connecting
        }
    }

    /// Takes a connected socket under watch; false (and the socket is left to the caller) when already stopped.
    func adopt(_ socket: Int32) -> Bool {
        state.withLock { state in
            guard state.stop == nil else { return false }
            state.sockets.insert(socket)
            state.lastProgress = .now
            state.phase = afterConnect
            return true
        }
    }

    /// Closes a socket under the lock, so that the timer never shuts down a number the system has given to another file.
    func close(_ socket: Int32) {
        state.withLock { state in
            state.sockets.remove(socket)
            _ = Glibc.close(socket)
        }
    }

    // MARK: Child processes

    /// Takes a started `ssh` (the leader of its own process group) under watch, like a connected socket; false when
    /// already stopped (the caller kills and reaps it).
    func adoptChild(_ pid: pid_t) -> Bool {
        state.withLock { state in
            guard state.stop == nil else { return false }
            state.children.insert(pid)
            state.lastProgress = .now
            state.phase = afterConnect
            return true
        }
    }

    /// Kills a child's process group and leaves the watch; the caller reaps the child after (its process group id
    /// cannot go to another process before that).
    func releaseChild(_ pid: pid_t) {
        state.withLock { state in
            state.children.remove(pid)
            _ = kill(-pid, SIGKILL)
        }
    }

    /// Records why `ssh` failed (the first failure is kept).
    func recordSSHFailure(_ failure: SSHExit) {
        state.withLock { state in
            if state.sshFailure == nil { state.sshFailure = failure }
        }
    }

    /// Why `ssh` failed, if it did.
    var sshFailure: SSHExit? { state.withLock { $0.sshFailure } }

    // MARK: The timer

    /// Runs `body` (a blocking libgit2 transfer) with this watch current on the calling thread, the timer running.
    func run<R>(_ body: () throws -> R) throws -> R {
        let previous = pthread_getspecific(Self.currentKey)
        pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
        let timer = DispatchSource.makeTimerSource(queue: Self.queue)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(20))
        timer.setEventHandler { [self] in check() }
        timer.resume()
        defer {
            timer.cancel()
            pthread_setspecific(Self.currentKey, previous)
        }
        return try body()
    }

    /// Stops the transfer when the caller cancelled it or nothing moved for `timeout`: shuts its sockets down.
    func check(now: ContinuousClock.Instant = .now) {
        let cancelled = isCancelled?() == true  // the caller's code, called outside the lock
        state.withLock { state in
            guard state.stop == nil else { return }
            if cancelled { state.stop = .cancelled }
            else if let phase = state.phase, now - state.lastProgress >= timeout { state.stop = .timedOut(phase) }
            else { return }
            for socket in state.sockets { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            for child in state.children { _ = kill(-child, SIGKILL) }  // ssh, its ProxyCommand, all it started
        }
    }

    /// The error for a stopped transfer (nil while it runs): `TransferTimedOut` or `TransferCancelled`.
    func stopError(_ operation: String, _ subject: String) -> (any Error)? {
        switch stop {
        case nil: return nil
        case .cancelled: return TransferCancelled(operation: operation, remote: subject)
        case let .timedOut(phase): return TransferTimedOut(remote: remote, timeout: timeout, waitingFor: phase.waitingFor)
        }
    }

    // MARK: The thread's current watch

    /// The key of the thread-local current watch: libgit2 creates a transfer's sockets on the thread running it, and
    /// its stream constructor has no payload to say which transfer a socket belongs to.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The watch of the transfer running on this thread.
    static var current: TransferWatch? {
        pthread_getspecific(currentKey).map { Unmanaged<TransferWatch>.fromOpaque($0).takeUnretainedValue() }
    }
}
