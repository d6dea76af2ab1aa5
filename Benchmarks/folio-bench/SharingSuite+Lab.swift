import FolioCore
import Foundation
import Synchronization

/// The scratch world of the `sharing` suite: a `git daemon` on loopback (pushes on) serving `remotes/`, documents
/// under `docs/`, process logs under `logs/`, a private tmux server, and every background process it started —
/// `shutDown()` ends them all (the suite calls it in a `defer`, so a failure leaves nothing running).
final class SharingLab: Sendable {
    let env: [String: String]
    let work: URL
    let docs: URL
    let remotes: URL
    let logs: URL
    let port: UInt16
    /// tmux, when installed (the latency and idle figures need it).
    let tmuxPath: String?
    let socket: String
    private let daemon: pid_t
    private let background = Mutex<Set<pid_t>>([])
    /// The `folio sync --watch` process left running for each clone (by path) once the writers are done.
    let watching = Mutex<[String: pid_t]>([:])

    init(_ bench: Bench) throws {
        var env = bench.environment
        let home = bench.work.appendingPathComponent("home").path
        env["XDG_CACHE_HOME"] = home + "/.cache"
        env["XDG_DATA_HOME"] = home + "/.local/share"
        env["XDG_STATE_HOME"] = home + "/.local/state"
        env["TERM"] = "xterm-256color"
        env["LANG"] = "C.UTF-8"
        env["TMUX"] = nil
        env["TMUX_PANE"] = nil
        self.env = env
        work = bench.work
        docs = work.appendingPathComponent("docs")
        remotes = work.appendingPathComponent("remotes")
        logs = work.appendingPathComponent("logs")
        for folder in [docs, remotes, logs] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile)
        socket = "folio-bench-\(getpid())"
        port = try freeLoopbackPort()
        daemon = try startDaemon(base: remotes, port: port, env: env, pushes: true, log: logs.appendingPathComponent("git-daemon.log").path)
    }

    /// Kills every background process still running, the tmux server and the daemon.
    func shutDown() {
        for pid in background.withLock({ Array($0) }) { stop(pid, signal: SIGKILL) }
        if tmuxPath != nil { _ = tmux(["kill-server"]) }
        kill(daemon, SIGTERM)
        var status: Int32 = 0
        while waitpid(daemon, &status, 0) < 0 && errno == EINTR {}
    }

    /// `git://127.0.0.1:PORT/NAME.git`.
    func url(_ name: String) -> String { "git://127.0.0.1:\(port)/\(name).git" }

    func bare(_ name: String) -> URL { remotes.appendingPathComponent("\(name).git") }

    func doc(_ name: String) -> URL { docs.appendingPathComponent(name) }

    // MARK: Processes

    /// Runs `program` to its end; its exit status and what it printed (stdout and stderr together). One still running
    /// after `timeout` seconds is SIGKILLed and reported as a hang.
    @discardableResult
    func run(_ program: String, _ args: [String], timeout: Double = 120) -> (status: Int32, output: String) {
        let log = logs.appendingPathComponent("run-\(UUID().uuidString).log").path
        defer { unlink(log) }
        guard let pid = try? spawnLogged(program, args, env: env, log: log) else { return (127, "cannot start \(program)") }
        var status: Int32 = 0
        let start = Date(), deadline = start.addingTimeInterval(timeout)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return (137, "HANG: \(program) \(args.joined(separator: " ")) still running after \(Int(timeout)) s, killed")
            }
            usleep(Date().timeIntervalSince(start) < 0.5 ? 200 : 5_000)  // fine-grained for the timed short commands
        }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self))
    }

    /// Runs `folio ARGS`; throws with its output when it fails.
    @discardableResult
    func folio(_ args: [String]) throws -> String {
        let (status, output) = run(folioExecutablePath, args)
        guard status == 0 else { throw BenchFailure("folio \(args.joined(separator: " ")): exit \(status): \(output.prefix(500))") }
        return output
    }

    /// Runs `git ARGS`; throws with its output when it fails.
    @discardableResult
    func git(_ args: [String]) throws -> String {
        let (status, output) = run("git", args)
        guard status == 0 else { throw BenchFailure("git \(args.joined(separator: " ")): exit \(status): \(output.prefix(500))") }
        return output
    }

    /// Starts `program` in the background, its output appended to `logs/LOG`; `shutDown()` ends it if `stop` did not.
    func startBackground(_ program: String, _ args: [String], log: String) throws -> pid_t {
        let pid = try spawnLogged(program, args, env: env, log: logs.appendingPathComponent(log).path)
        background.withLock { _ = $0.insert(pid) }
        return pid
    }

    /// Sends `signal` to a background process and waits for it (at most 10 s, then SIGKILL).
    func stop(_ pid: pid_t, signal: Int32 = SIGTERM) {
        kill(pid, signal)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline { kill(pid, SIGKILL); while waitpid(pid, &status, 0) < 0 && errno == EINTR {}; break }
            usleep(10_000)
        }
        background.withLock { _ = $0.remove(pid) }
    }

    // MARK: Tmux

    /// `tmux -L SOCKET -f /dev/null ARGS` (output through a file: the server the first command starts keeps a pipe open).
    @discardableResult
    func tmux(_ args: [String]) -> (status: Int32, output: String) {
        guard let tmuxPath else { return (127, "tmux is not installed") }
        return run(tmuxPath, ["-L", socket, "-f", "/dev/null"] + args)
    }

    /// The shell command of a pane: folio, then its exit status (the pane stays while the suite looks).
    func paneCommand(_ folioArgs: [String]) -> String {
        let quoted = ([folioExecutablePath] + folioArgs).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return quoted.joined(separator: " ") + "; echo FOLIO-EXIT=$?; sleep 600"
    }

    /// Opens `document` in a new tmux session `name`, `rows` high.
    func openWindow(_ name: String, document: URL, rows: Int) throws {
        let flags = env.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        let result = tmux(["new-session", "-d", "-s", name, "-x", "100", "-y", "\(rows)", "-c", docs.path] + flags
                          + [paneCommand(["open", document.path])])
        guard result.status == 0 else { throw BenchFailure("tmux new-session: \(result.output)") }
    }

    func capture(_ target: String) -> String { tmux(["capture-pane", "-p", "-t", target]).output }

    /// Polls the pane every 20 ms until `predicate` holds; throws with the screen after `timeout` seconds.
    @discardableResult
    func waitForScreen(_ what: String, _ target: String, timeout: Double, _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        repeat {
            screen = capture(target)
            if predicate(screen) { return screen }
            usleep(20_000)
        } while Date() < deadline
        throw BenchFailure("timed out after \(timeout) s waiting for \(what); the pane shows:\n\(screen)")
    }

    /// The `folio` process running in the pane (a child of the pane's shell).
    func folioProcess(_ target: String) throws -> pid_t {
        let panePID = tmux(["display-message", "-p", "-t", target, "#{pane_pid}"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = run("pgrep", ["-P", panePID, "-x", "folio"]).output.split(separator: "\n")
        guard let pid = children.first.flatMap({ pid_t($0) }) else { throw BenchFailure("no folio process under pane \(panePID)") }
        return pid
    }

    // MARK: Documents

    /// A groceries checklist shared through `NAME.git` on the daemon (`folio share`).
    func makeSharedChecklist(_ name: String) throws {
        try git(["init", "-q", "--bare", "-b", "main", bare(name).path])
        try folio(["new", doc("origin-\(name)").path, "--template", "checklist/groceries", "--defaults"])
        try folio(["share", doc("origin-\(name)").path, "origin", url(name)])
    }

    /// `folio clone` of `NAME.git` as `clone`, continuous sync on every `interval` seconds.
    func clone(_ name: String, as clone: String, interval: Int) throws -> URL {
        try folio(["clone", url(name), doc(clone).path])
        try folio(["sync", doc(clone).path, "--continuous", "on", "--interval", "\(interval)"])
        return doc(clone)
    }

    /// The branch tip of a clone (`HEAD`) or of a bare repository (`main`).
    func head(_ repository: URL) -> String {
        let bare = repository.pathExtension == "git"
        return run("git", ["--git-dir", bare ? repository.path : repository.appendingPathComponent(".git").path, "rev-parse", "-q", "--verify",
                           bare ? "refs/heads/main" : "HEAD"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The item titles of the checklist at the tip of a bare repository's `main`.
    func checklistTitles(_ repository: URL) throws -> [String] {
        let text = try git(["--git-dir", repository.path, "show", "refs/heads/main:checklist.json"])
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let items = object["items"] as? [[String: Any]] else { throw BenchFailure("\(repository.path): checklist.json has no items") }
        return items.compactMap { $0["title"] as? String }
    }
}

/// Starts `program` with stdin from /dev/null and stdout + stderr appended to `log`.
func spawnLogged(_ program: String, _ args: [String], env: [String: String], log: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + args).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, program, &actions, nil, argv, envp)
    guard status == 0 else { throw POSIXFailure(operation: "spawn", path: program, code: status) }
    return pid
}

/// A TCP port on 127.0.0.1 nobody listens on right now (bound to port 0, then released).
func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw POSIXFailure(operation: "bind", path: "127.0.0.1:0") }
    return UInt16(bigEndian: address.sin_port)
}

/// SplitMix64: the suite's random waits and kills repeat for one `--seed`.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// CPU seconds (user + system) a process has used so far, from `/proc/PID/stat`; nil once it is gone.
func cpuSeconds(_ pid: pid_t) -> Double? { cpuSeconds(path: "/proc/\(pid)/stat") }

/// CPU seconds (user + system) from a `stat` file of `/proc` (a process's or a thread's).
func cpuSeconds(path: String) -> Double? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the command's ")": state is field 3, utime field 14, stime field 15.
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// CPU seconds used so far by each thread of a process, by thread id, with the thread's name (`/proc/PID/task`).
func threadCPUSeconds(_ pid: pid_t) -> [pid_t: (name: String, seconds: Double)] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var result: [pid_t: (name: String, seconds: Double)] = [:]
    for task in tasks {
        guard let tid = pid_t(task), let seconds = cpuSeconds(path: "/proc/\(pid)/task/\(task)/stat") else { continue }
        let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        result[tid] = (name ?? "?", seconds)
    }
    return result
}
