import FolioCore
import Foundation

/// Collects figures and prints them as `FIGURE: folio V UNIT, PEER V UNIT, ratio R` lines (or JSON).
final class Bench {
    struct Figure: Encodable {
        let figure: String
        let folio: Double
        let peerName: String
        let peer: Double
        let unit: String
        let ratio: Double
        let note: String
    }

    let json: Bool
    let arguments: [String]
    private(set) var figures: [Figure] = []
    private var reproduce: [String] = []
    let work: URL

    init(json: Bool, arguments: [String]) {
        self.json = json
        self.arguments = arguments
        work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("folio-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// Removes the scratch folder (globals are not deinitialized at exit, so this is called explicitly).
    func cleanUp() { try? FileManager.default.removeItem(at: work) }

    /// An integer option such as `--n 1000`.
    func option(_ name: String, default value: Int) -> Int {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let n = Int(arguments[index + 1]) else { return value }
        return n
    }

    /// An environment isolated from the user's git config, with a fixed identity.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        let home = work.appendingPathComponent("home").path
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/.config"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_AUTHOR_NAME"] = "Bench"
        env["GIT_AUTHOR_EMAIL"] = "bench@example.com"
        env["GIT_COMMITTER_NAME"] = "Bench"
        env["GIT_COMMITTER_EMAIL"] = "bench@example.com"
        return env
    }

    /// Records one figure. `higherIsBetter` decides which way the ratio goes: ratio > 1 means Folio is better.
    func record(_ figure: String, folio: Double, peer peerName: String, _ peer: Double, unit: String, higherIsBetter: Bool, note: String = "") {
        let ratio = higherIsBetter ? folio / max(peer, 1e-12) : peer / max(folio, 1e-12)
        figures.append(Figure(figure: figure, folio: folio, peerName: peerName, peer: peer, unit: unit, ratio: ratio, note: note))
        if !json {
            let ratioText = ratio > 1e6 ? "∞" : String(format: "%.2f", ratio)
            let line = "\(figure): folio \(format(folio)) \(unit), \(peerName) \(format(peer)) \(unit), ratio \(ratioText)" + (note.isEmpty ? "" : "  (\(note))")
            print(line)
        }
    }

    /// Notes the shell command that reproduces the peer's side.
    func reproduceWith(_ command: String) {
        reproduce.append(command)
        if !json { print("  reproduce: \(command)") }
    }

    func finish() {
        if json {
            struct Report: Encodable { let figures: [Figure]; let reproduce: [String] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            if let data = try? encoder.encode(Report(figures: figures, reproduce: reproduce)) { print(String(decoding: data, as: UTF8.self)) }
        }
    }

    private func format(_ value: Double) -> String {
        if value == 0 { return "0" }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.4f", value)
    }
}

/// Seconds taken by `body`.
func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The middle value (the mean of the two middle ones for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The best of `runs` timings (seconds).
func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var result = Double.infinity
    for _ in 0..<runs { result = min(result, try time(body)) }
    return result
}

/// Runs a program (benchmarks only) with `posix_spawnp`, returning its exit status and standard output.
/// Not Foundation's `Process`: on Linux it closes every possible descriptor before `exec`, which with a high
/// descriptor limit costs tens of milliseconds a run and would make every peer command look slower than it is.
@discardableResult
func run(_ program: String, _ args: [String], cwd: URL? = nil, env: [String: String]) throws -> (Int32, Data) {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw POSIXFailure(operation: "pipe", path: program) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipe[0])
    posix_spawn_file_actions_addclose(&actions, pipe[1])
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    // Glibc's posix_spawn_file_actions_addchdir_np is not visible to Swift here: git takes -C, others go through sh.
    var words = [program] + args
    if let cwd {
        words = program == "git" ? ["git", "-C", cwd.path] + args : ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", cwd.path, program] + args
    }
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, words[0], &actions, nil, argv, envp)
    close(pipe[1])
    guard status == 0 else { close(pipe[0]); throw POSIXFailure(operation: "spawn", path: program, code: status) }
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(pipe[0], &buffer, buffer.count)
        if n > 0 { output.append(contentsOf: buffer[0..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
    }
    close(pipe[0])
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
    let code = (exitStatus & 0x7f) == 0 ? (exitStatus >> 8) & 0xff : 128 + (exitStatus & 0x7f)
    return (code, output)
}

/// Disk used by a folder, in bytes (allocated blocks, like `du`).
func diskUsage(_ url: URL) -> Int {
    var total = 0
    guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return 0 }
    for case let file as URL in enumerator {
        var info = stat()
        if lstat(file.path, &info) == 0 { total += Int(info.st_blocks) * 512 }
    }
    return total
}

/// The path of the `folio` executable built next to this benchmark.
var folioExecutablePath: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("folio").path
}
