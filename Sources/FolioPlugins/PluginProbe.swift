import FolioCore
import Foundation

/// What `folio plugins check FILE.so` found: what the library provides, or why it is refused.
public struct PluginProbeReport: Codable, Sendable, Equatable {
    public var library: String
    /// Whether the library loads, passes every check and matches its manifest (when one is beside it).
    public var ok: Bool
    /// The one-line reason when it is refused (or crashed).
    public var refusal: String?
    public var id: String?
    public var name: String?
    public var version: String?
    /// "major.minor" the library was built for.
    public var abi: String?
    /// The manifest beside it that it was checked against; nil when it has none (its description is its manifest).
    public var manifest: String?
    public var editors: [EditorManifest]

    /// An empty report for `library`.
    public init(library: String) {
        self.library = library
        ok = false
        editors = []
    }
}

extension PluginHost {
    /// Loads `library` into this process and describes it. Used by the child process of `check`; a plugin that
    /// crashes takes this process down with it.
    public static func probe(library: URL) -> PluginProbeReport {
        var report = PluginProbeReport(library: library.path)
        do {
            let loaded = try LoadedPlugin.load(library)
            report.id = loaded.id
            report.name = loaded.name
            report.version = loaded.version
            report.abi = "\(loaded.abiMajor).\(loaded.abiMinor)"
            report.editors = loaded.editors.map(\.manifest)
            // A manifest beside the library (an installed plugin) must say what the library says; without one, the
            // description above is the manifest discovery generates.
            let manifestURL = ManifestLocator.besideManifest(for: library)
            if FileManager.default.fileExists(atPath: manifestURL.path) {
                report.manifest = manifestURL.path
                let manifest: PluginManifest
                do { manifest = try PluginManifest.load(from: manifestURL) } catch {
                    throw PluginRefusal(file: library.path, reason: "bad manifest: \(error)")
                }
                try loaded.check(against: manifest, manifestURL: manifestURL)
            }
            report.ok = true
        } catch {
            report.refusal = "\(error)"
        }
        return report
    }

    /// Checks `library` in a child process (`executable ARGUMENTS… FILE`, spawned with posix_spawn) so that a plugin
    /// that crashes or hangs cannot take the caller down. The child prints a `PluginProbeReport` as JSON.
    public static func check(library: URL, executable: URL, arguments: [String], environment: [String: String],
                             timeout: Duration = .seconds(20)) -> PluginProbeReport {
        var report = PluginProbeReport(library: library.path)
        let result: ChildResult
        do {
            result = try ChildProcess.run(executable: executable.path, arguments: arguments + [library.path], environment: environment, timeout: timeout)
        } catch {
            report.refusal = "\(library.path): cannot start the check: \(error)"
            return report
        }
        if let signal = result.signal {
            let name = ChildProcess.signalName(signal)
            report.refusal = result.timedOut
                ? "\(library.path): plugin refused: it did not finish loading within \(timeout)"
                : "\(library.path): plugin refused: loading it crashed the process (signal \(signal)\(name.map { ", \($0)" } ?? ""))"
            return report
        }
        if let decoded = try? JSONDecoder().decode(PluginProbeReport.self, from: result.output) {
            return decoded
        }
        report.refusal = "\(library.path): plugin refused: the check exited with status \(result.status) and no report"
        return report
    }
}

/// What a finished child process left: its standard output and how it ended.
struct ChildResult {
    var output: Data
    var status: Int32
    var signal: Int32?
    var timedOut: Bool
}

/// Starting a child process with posix_spawn (product code never uses Foundation's Process).
enum ChildProcess {
    struct SpawnError: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    static func run(executable: String, arguments: [String], environment: [String: String], timeout: Duration) throws -> ChildResult {
        var fds: [Int32] = [0, 0]
        // Close-on-exec from the start (a socketpair made with SOCK_CLOEXEC; Glibc's module has no pipe2): a child
        // spawned at the same moment from another thread must not inherit this channel — it would hold it open, and
        // this child's output would seem not to end until that other child exits.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw SpawnError(call: "socketpair", code: errno)
        }
        defer { close(fds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var environment = environment
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a crashing plugin must not start the interactive backtracer
        let envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(fds[1])
        guard spawned == 0 else { throw SpawnError(call: "posix_spawn", code: spawned) }

        // Read until the child closes its end, with a deadline.
        let deadline = ContinuousClock.now + timeout
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var timedOut = false
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { timedOut = true; break }
            var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            let millis = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, millis)
            if ready < 0 { if errno == EINTR { continue }; break }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; break }
            if count == 0 { break }
            output.append(contentsOf: buffer[0..<count])
            if output.count > 16 << 20 { timedOut = true; break }  // a runaway child
        }
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let termination = status & 0x7f
        if termination != 0 {
            return ChildResult(output: output, status: -1, signal: termination, timedOut: timedOut)
        }
        return ChildResult(output: output, status: (status >> 8) & 0xff, signal: nil, timedOut: timedOut)
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
