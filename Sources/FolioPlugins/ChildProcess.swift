import FolioBasics
import FoundationEssentials
import Glibc

/// What a finished child process left: its output channel, what it printed beside it, and how it ended.
struct ChildResult {
    /// The channel read as the result: standard output, or the `reportFD` channel when one was asked for.
    var output: Data
    /// With a `reportFD`: the first `PluginProbeOutput.keptBytes` bytes of the child's standard output (else empty).
    var printed = Data()
    /// With a `reportFD`: how many bytes the child wrote to standard output in all.
    var printedBytes = 0
    var status: Int32
    var signal: Int32?
    var timedOut: Bool
    /// With `keepErrors`: the last `ChildProcess.errorTailBytes` bytes the child wrote to standard error (else empty).
    var errors = Data()
}

/// Starting a child process with posix_spawn (product code never uses Foundation's Process).
enum ChildProcess {
    struct SpawnError: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// The most bytes read from the result channel before the child counts as runaway (and is killed).
    static let outputCap = 16 << 20
    /// How much of the end of a child's standard error `keepErrors` keeps.
    static let errorTailBytes = 8 << 10

    /// Runs `executable` with `arguments` until it ends or `timeout` passes (then it is killed), reading its result
    /// channel: its standard output, or — with `reportFD` — that descriptor, while its standard output is read on a
    /// channel of its own (bounded: see `ChildResult.printed`). Standard input is /dev/null; standard error is dropped,
    /// or with `keepErrors` read on a channel of its own, its last bytes kept (`ChildResult.errors`).
    ///
    /// `environmentAsGiven` passes `environment` whole (else only what a plugin host may see); `killGroup` ends the
    /// child's whole process group once it ends or times out (a child that leads its own session), so that nothing
    /// it started outlives it.
    static func run(executable: String, arguments: [String], environment: [String: String], timeout: Duration,
                    reportFD: Int32? = nil, keepErrors: Bool = false, environmentAsGiven: Bool = false, killGroup: Bool = false) throws -> ChildResult {
        let result = try channel()
        defer { close(result.parent) }
        let printed = try reportFD.map { _ in try channel() }
        defer { if let printed { close(printed.parent) } }
        let errors = keepErrors ? try channel() : nil
        defer { if let errors { close(errors.parent) } }
        let pid = try spawn(executable, arguments, environment, result: (result.child, reportFD ?? 1), printed: printed?.child, errors: errors?.child,
                            asGiven: environmentAsGiven)
        var reader = ChildReader(result: result.parent, printed: printed?.parent, errors: errors?.parent)
        let timedOut = !reader.readAll(until: ContinuousClock.now + timeout)
        if timedOut { kill(killGroup ? -pid : pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if killGroup { kill(-pid, SIGKILL) }
        let termination = status & 0x7f
        var ended = ChildResult(output: reader.output, printed: reader.printed, printedBytes: reader.printedBytes,
                                status: termination != 0 ? -1 : (status >> 8) & 0xff, signal: nil, timedOut: timedOut, errors: reader.errors)
        if termination != 0 { ended.signal = termination }
        return ended
    }

    /// A socketpair, close-on-exec from the start (Glibc's module has no pipe2): a child spawned at the same moment
    /// from another thread must not inherit it — it would hold it open, and this child's output would seem not to
    /// end until that other child exits.
    private static func channel() throws -> (parent: Int32, child: Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw SpawnError(call: "socketpair", code: errno)
        }
        return (fds[0], fds[1])
    }

    /// Spawns the child with `result.fd` on descriptor `result.target`, `printed` (when given) as its standard output;
    /// closes the child's ends here.
    private static func spawn(_ executable: String, _ arguments: [String], _ environment: [String: String],
                              result: (fd: Int32, target: Int32), printed: Int32?, errors: Int32? = nil, asGiven: Bool = false) throws -> pid_t {
        defer {
            close(result.fd)
            if let printed { close(printed) }
            if let errors { close(errors) }
        }
        var environment = asGiven ? environment : PluginIsolation.hostEnvironment(from: environment)
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a crashing plugin must not start the interactive backtracer
        var descriptors: [(child: Int32, source: ChildSpawn.Source)] = [(0, .nullForReading), (2, errors.map { .descriptor($0) } ?? .nullForWriting)]
        if let printed { descriptors.append((1, .descriptor(printed))) }
        descriptors.append((result.target, .descriptor(result.fd)))
        var child = ChildSpawn(program: executable, arguments: arguments, environment: environment, descriptors: descriptors)
        child.closeOthers = .whenAvailable
        do { return try child.start() } catch { throw SpawnError(call: error.call, code: error.code) }
    }

    static func signalName(_ signal: Int32) -> String? {
        switch signal {
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGFPE: return "SIGFPE"
        case SIGKILL: return "SIGKILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGTERM: return "SIGTERM"
        case SIGXCPU: return "SIGXCPU"
        case SIGXFSZ: return "SIGXFSZ"
        case SIGSYS: return "SIGSYS"
        default: return nil
        }
    }
}

/// Reads a child's result channel and (optionally) its printed output until both end, with a deadline.
private struct ChildReader {
    private var open: [Int32]
    private let result: Int32
    private(set) var output = Data()
    private(set) var printed = Data()
    private(set) var printedBytes = 0
    /// The end of the child's standard error (at most `ChildProcess.errorTailBytes`).
    private(set) var errors = Data()
    private let errorsFD: Int32?
    private var buffer = [UInt8](repeating: 0, count: 65536)

    init(result: Int32, printed: Int32?, errors: Int32? = nil) {
        self.result = result
        errorsFD = errors
        open = [result] + (printed.map { [$0] } ?? []) + (errors.map { [$0] } ?? [])
    }

    /// Reads until every channel ended (true), or the deadline passed or the result channel overflowed (false).
    mutating func readAll(until deadline: ContinuousClock.Instant) -> Bool {
        while !open.isEmpty {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { return false }
            var pollers = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let millis = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&pollers, nfds_t(pollers.count), millis)
            if ready < 0 { if errno == EINTR { continue }; return true }
            for poller in pollers where poller.revents != 0 {
                guard readOnce(poller.fd) else { return false }
            }
        }
        return true
    }

    /// One read from `fd`; false when the result channel passed `ChildProcess.outputCap` (a runaway child).
    private mutating func readOnce(_ fd: Int32) -> Bool {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { return true }
        guard count > 0 else { open.removeAll { $0 == fd }; return true }
        if fd == result {
            output.append(contentsOf: buffer[0..<count])
            return output.count <= ChildProcess.outputCap
        }
        if fd == errorsFD {
            errors.append(contentsOf: buffer[0..<count])
            if errors.count > 2 * ChildProcess.errorTailBytes { errors = Data(errors.suffix(ChildProcess.errorTailBytes)) }
            return true
        }
        printedBytes += count
        let room = PluginProbeOutput.keptBytes - printed.count
        if room > 0 { printed.append(contentsOf: buffer[0..<min(room, count)]) }
        return true
    }
}
