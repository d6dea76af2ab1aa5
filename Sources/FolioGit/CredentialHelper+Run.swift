import FoundationEssentials
import FolioBasics
import Glibc

/// How one run of a credential helper ended.
package struct CredentialHelperRun: Sendable, Equatable {
    /// Its standard output (at most `CredentialHelper.answerLimit` + 1 bytes read).
    package var output: [UInt8] = []
    /// The end of its standard error (at most `CredentialHelper.errorLimit` bytes).
    package var errors: [UInt8] = []
    /// Its exit status; nil when a signal ended it or it was stopped.
    package var status: Int32?
    package var timedOut = false

    /// Whether it ran to the end and exited with 0.
    package var succeeded: Bool { status == 0 && !timedOut }

    /// What it wrote to standard error as Folio quotes it: one line, control characters shown as `?`, at most 200
    /// characters; nil when it wrote nothing.
    package var quotedErrors: String? {
        let text = String(decoding: errors, as: UTF8.self).trimming(.whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        let flat = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return "\"" + flat.prefix(200) + "\""
    }
}

extension CredentialHelper {
    /// Runs the helper for `action` with `request` on its standard input and `environment` as its environment,
    /// reading its standard output and error until it exits (a helper that leaves a daemon holding its standard
    /// error open is not waited for), stopping it after `timeLimit`. Throws when it could not be started.
    package func run(_ action: String, request: String, environment: [String: String],
                     timeLimit: Duration = CredentialHelper.timeLimit) throws -> CredentialHelperRun {
        let input = try HelperChannel(), output = try HelperChannel(), errors = try HelperChannel()
        var child = ChildSpawn(program: "/bin/sh", arguments: ["-c", commandLine(action)], environment: environment,
                               descriptors: [(0, .descriptor(input.child)), (1, .descriptor(output.child)), (2, .descriptor(errors.child))])
        child.closeOthers = .whenAvailable
        child.newSession = true  // no terminal to prompt on; stopped with its process group
        let pid: pid_t
        do { pid = try child.start() } catch { throw CredentialHelperError(helper: name, problem: "could not start: \(error)") }
        [input, output, errors].forEach { $0.closeChild() }
        input.send(Array(request.utf8))
        input.closeParent()
        var run = CredentialHelperRun()
        run.timedOut = !HelperReader(output: output.parent, errors: errors.parent, pid: pid).read(into: &run, until: .now + timeLimit)
        if run.timedOut { kill(-pid, SIGKILL); kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if status & 0x7f == 0 && !run.timedOut { run.status = (status >> 8) & 0xff }
        output.closeParent()
        errors.closeParent()
        return run
    }
}

/// A credential helper Folio could not run.
package struct CredentialHelperError: Error, CustomStringConvertible, Sendable, Equatable {
    package let helper: String
    package let problem: String
    package var description: String { "credential helper '\(helper)': \(problem)" }
}

/// One of a helper's standard descriptors: a socket pair, close-on-exec from the start (a child spawned at the same
/// time from another thread must not inherit it), written with MSG_NOSIGNAL (a helper that exits without reading
/// cannot raise SIGPIPE here).
private final class HelperChannel {
    let parent: Int32
    let child: Int32
    private var parentOpen = true
    private var childOpen = true

    init() throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw CredentialHelperError(helper: "", problem: "socketpair failed: \(String(cString: strerror(errno)))")
        }
        (parent, child) = (fds[0], fds[1])
    }

    deinit {
        closeChild()
        closeParent()
    }

    func closeChild() { if childOpen { close(child); childOpen = false } }
    func closeParent() { if parentOpen { close(parent); parentOpen = false } }

    /// Writes `bytes` (a small request: the socket's buffer holds it), giving up when the helper stopped reading.
    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(parent, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            sent += count
        }
    }
}

/// Reads a helper's standard output and error until it has exited and its output ended.
private struct HelperReader {
    let output: Int32
    let errors: Int32
    let pid: pid_t

    /// True when the helper finished before `deadline`.
    func read(into run: inout CredentialHelperRun, until deadline: ContinuousClock.Instant) -> Bool {
        var open = [output, errors]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while open.contains(output) || (open.contains(errors) && !exited) {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { return false }
            var pollers = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let slice = min(remaining, .milliseconds(100))  // to notice the exit while a daemon holds standard error
            let millis = Int32(clamping: slice.components.seconds * 1000 + slice.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&pollers, nfds_t(pollers.count), millis)
            if ready < 0 { if errno == EINTR { continue }; return true }
            for poller in pollers where poller.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(poller.fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { open.removeAll { $0 == poller.fd }; continue }
                if poller.fd == output {
                    run.output += buffer[0..<min(count, CredentialHelper.answerLimit + 1 - run.output.count)]
                    if run.output.count > CredentialHelper.answerLimit { open.removeAll { $0 == output } }
                } else {
                    run.errors = Array((run.errors + buffer[0..<count]).suffix(CredentialHelper.errorLimit))
                }
            }
        }
        return true
    }

    /// Whether the helper has exited (without reaping it).
    private var exited: Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._kill.si_pid != 0
    }
}
