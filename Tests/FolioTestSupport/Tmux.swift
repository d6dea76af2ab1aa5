import Foundation

/// What one tmux command printed, and how it exited.
public struct TmuxResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs `tmux -L socket -f /dev/null ARGUMENTS` with posix_spawn, its output in files under `scratch`.
/// Not `Foundation.Process`: the tmux server the first command starts would inherit the descriptor `Process` watches
/// for the child's exit, and the wait would never end.
public func runTmux(_ tmuxPath: String, socket: String, environment: [String: String], scratch: URL,
                    _ arguments: [String]) throws -> TmuxResult {
    let outPath = scratch.appendingPathComponent("tmux-\(UUID().uuidString).out").path
    let errPath = scratch.appendingPathComponent("tmux-\(UUID().uuidString).err").path
    defer { try? FileManager.default.removeItem(atPath: outPath); try? FileManager.default.removeItem(atPath: errPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv: [UnsafeMutablePointer<CChar>?] = ([tmuxPath, "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, tmuxPath, &actions, nil, argv, envp)
    guard spawned == 0 else { throw NSError(domain: "tmux", code: Int(spawned)) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    return TmuxResult(status: (status >> 8) & 0xFF, stdout: stdout, stderr: stderr)
}
