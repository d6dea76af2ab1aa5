import CGit2
import FolioBasics
import FoundationEssentials
import Glibc

/// One running `ssh` (`SSHLaunch`) carrying one git service (`git-upload-pack`, `git-receive-pack`): libgit2 reads
/// its standard output and writes its standard input (socket pairs: a write to an `ssh` that died is an error here,
/// never a SIGPIPE), and its standard error is read alongside (`SSHStandardError`).
///
/// It runs in a session of its own (no controlling terminal: nothing it asks can reach the user's terminal), and is
/// the leader of its own process group, which `finish` (or the transfer's watch, on a cancel or a timeout) kills
/// whole: no `ssh`, `ProxyCommand` or `ProxyJump` process outlives the transfer. The child is reaped in `finish`.
final class SSHChild {
    let pid: pid_t
    private var input: Int32
    private var output: Int32
    private var errors: Int32
    private let watch: TransferWatch?
    private let launch: SSHLaunch
    private let address: SSHAddress
    private(set) var standardError = SSHStandardError()
    /// Whether anything came from the server yet.
    private var answered = false
    private var finished = false

    /// How long `finish` waits for `ssh` to end by itself once its input is closed, before killing it.
    static let grace: Duration = .seconds(2)

    /// Starts `ssh` for `service` at `address` under `watch`.
    init(_ launch: SSHLaunch, address: SSHAddress, service: String, watch: TransferWatch?) throws {
        let arguments = try launch.commandLine(launch.arguments(address, extra: SSHLaunch.batchOptions, remote: address.remoteCommand(service)))
        var pairs: [(parent: Int32, child: Int32)] = []
        defer { pairs.forEach { _ = close($0.child) } }
        do {
            for _ in 0..<3 { pairs.append(try Self.socketPair()) }
            var spawn = ChildSpawn(program: arguments[0], arguments: Array(arguments.dropFirst()), environment: launch.environment,
                                   descriptors: [(0, .descriptor(pairs[0].child)), (1, .descriptor(pairs[1].child)), (2, .descriptor(pairs[2].child))])
            spawn.newSession = true
            spawn.searchPath = true
            spawn.closeOthers = .whenAvailable
            pid = try spawn.start()
        } catch {
            pairs.forEach { _ = close($0.parent) }
            throw error as? SSHLaunchRefused ?? SSHLaunchRefused(reason: "cannot start \(arguments[0]): \(error)")
        }
        (input, output, errors) = (pairs[0].parent, pairs[1].parent, pairs[2].parent)
        (self.launch, self.address, self.watch) = (launch, address, watch)
        if let watch, !watch.adoptChild(pid) { finish() }
    }

    deinit { finish() }

    /// A connected pair of stream sockets, close-on-exec: (ours, the child's).
    private static func socketPair() throws -> (parent: Int32, child: Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw SSHLaunchRefused(reason: "cannot make a socket pair for ssh: \(String(cString: strerror(errno)))")
        }
        return (fds[0], fds[1])
    }

    // MARK: Reading and writing

    /// Reads what `ssh` printed of the server's answer into `buffer`: the count (0 at its end), or nil on an error
    /// (`git_error` set). Standard error is read meanwhile; the watch is looked at every tenth of a second.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int? {
        while true {
            guard waitFor(output, events: Int16(POLLIN)) else { return nil }
            let got = recv(output, buffer, count, 0)
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return Self.fail("error reading from ssh: \(String(cString: strerror(errno)))") }
            if got == 0 { finish(); return 0 }
            if !answered { answered = true; watch?.progressed(.waiting) } else { watch?.progressed() }
            return got
        }
    }

    /// Writes all of `bytes` to `ssh`'s input; false on an error (`git_error` set).
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var sent = 0
        while sent < bytes.count {
            guard waitFor(input, events: Int16(POLLOUT)), let base = bytes.baseAddress else { return false }
            let count = send(input, base + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return Self.fail("error writing to ssh: \(String(cString: strerror(errno)))") != nil }
            sent += count
            watch?.progressed()
        }
        return true
    }

    /// Waits until `fd` is ready for `events` (true), reading standard error meanwhile; false when the transfer's
    /// watch stopped it or `fd` is closed (`git_error` set).
    private func waitFor(_ fd: Int32, events: Int16) -> Bool {
        guard fd >= 0 else { return Self.fail("ssh has ended") != nil }
        while true {
            if watch?.stop != nil { return Self.fail("the transfer was stopped") != nil }
            var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, errors >= 0 ? 2 : 1, 100)
            if ready < 0 && errno != EINTR { return Self.fail("poll failed: \(String(cString: strerror(errno)))") != nil }
            if ready <= 0 { continue }
            if errors >= 0, fds[1].revents != 0 { readErrors() }
            if fds[0].revents != 0 { return true }
        }
    }

    /// Reads what is waiting on standard error; closes it at its end.
    private func readErrors() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(errors, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 { standardError.append(chunk.prefix(count)) }
        else if count == 0 || (errno != EAGAIN && errno != EINTR) { _ = close(errors); errors = -1 }
    }

    private static func fail(_ message: String) -> Int? {
        git_error_set_str(Int32(GIT_ERROR_SSH.rawValue), message)
        return nil
    }

    // MARK: The end

    /// Ends the child: closes its input, gives it `grace` to end by itself (none once the watch has stopped the
    /// transfer) while reading its standard error, kills its process group, reaps it, and records a failure with the
    /// watch. Idempotent.
    func finish() {
        guard !finished else { return }
        finished = true
        if input >= 0 { _ = close(input); input = -1 }
        let deadline = ContinuousClock.now + Self.grace
        var exited = false
        while !exited, watch?.stop == nil, ContinuousClock.now < deadline {
            var info = siginfo_t()
            exited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
            if !exited, errors >= 0 { drainErrors(milliseconds: 20) } else if !exited { usleep(2_000) }
        }
        watch?.releaseChild(pid) ?? { _ = kill(-pid, SIGKILL) }()  // the whole group, while the leader is unreaped
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        drainErrors(milliseconds: 0)
        standardError.finish()
        for fd in [output, errors] where fd >= 0 { _ = close(fd) }
        (output, errors) = (-1, -1)
        record(status, exited: exited)
    }

    /// Reads standard error for up to `milliseconds` (all that is waiting when 0).
    private func drainErrors(milliseconds: Int32) {
        while errors >= 0 {
            var fd = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, milliseconds) > 0 else { return }
            readErrors()
            if milliseconds > 0 { return }
        }
    }

    /// Tells the watch how `ssh` failed, when it exited by itself with a status other than 0.
    private func record(_ status: Int32, exited: Bool) {
        guard exited, status & 0x7f == 0 else { return }
        let code = (status >> 8) & 0xff
        guard code != 0, let watch else { return }
        var ended = SSHExit(status: code, origin: launch.origin, lastLines: standardError.lastLines)
        if let reason = standardError.hostKeyRefusal {
            let name = SSHHostKeyName(launch, address)
            ended.hostKey = (name.entry, standardError.fingerprint ?? "unavailable", reason)
            if reason == .unknown { ended.acceptCommand = name.acceptCommand }
        }
        watch.recordSSHFailure(ended)
    }
}
