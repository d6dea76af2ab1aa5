import FoundationEssentials
import FolioBasics
#if canImport(Glibc)
import Glibc
#endif

/// The user's editor, chosen and started as git does: `$VISUAL` (unless `TERM=dumb`), `$EDITOR`, else `vi`; a
/// command with arguments or shell syntax ("code -w") runs through `sh -c 'COMMAND "$@"'`, a plain one directly.
struct ExternalEditor: Sendable {
    /// The command as configured.
    let command: String
    let environment: [String: String]

    init(environment: [String: String]) {
        let visual = environment["TERM"] == "dumb" ? nil : environment["VISUAL"]
        let chosen = [visual, environment["EDITOR"]].compactMap { $0?.trimming(.whitespaces) }.first { !$0.isEmpty }
        command = chosen ?? "vi"
        self.environment = environment
    }

    /// The characters that make git hand the command to the shell.
    static let shellCharacters = Set("|&;<>()$`\\\"' \t\n*?[#~=%")

    /// The program's arguments for editing `file`.
    func arguments(file: String) -> [String] {
        if command.contains(where: Self.shellCharacters.contains) { return ["/bin/sh", "-c", command + " \"$@\"", command, file] }
        return [command, file]
    }

    /// Runs the editor on `file` in the foreground and waits for it. While it runs, ^C and ^\ reach the editor, not
    /// Folio (ignored here as git ignores them); the editor starts with default signal actions and no descriptor of
    /// Folio's beyond the terminal's three. Throws when it cannot start or does not exit with status 0.
    func run(file: String) throws {
        var ignore = sigaction(), oldInterrupt = sigaction(), oldQuit = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        sigaction(SIGINT, &ignore, &oldInterrupt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInterrupt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }
        let pid = try spawn(arguments(file: file))
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw ExternalEditorError(command: command, problem: "cannot wait for it: " + String(cString: strerror(errno))) }
        }
        try check(status: status, throughShell: arguments(file: file).first == "/bin/sh")
    }

    /// Starts `arguments` (looked up on PATH) with the terminal's descriptors only and default signal actions.
    private func spawn(_ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A document's lock, libgit2's files and plugin sockets stay in Folio.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), mask = sigset_t()
        sigemptyset(&mask)
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        guard let program = argv[0] else { throw ExternalEditorError(command: command, problem: "cannot start it: out of memory", ran: false) }
        let spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw ExternalEditorError(command: command, problem: "cannot start it: " + String(cString: strerror(spawned)), ran: false) }
        return pid
    }

    /// Throws unless the wait status is a normal exit with status 0.
    private func check(status: Int32, throughShell: Bool) throws {
        let signal = status & 0x7f
        if signal != 0 { throw ExternalEditorError(command: command, problem: "it was killed by signal \(signal)") }
        let exit = (status >> 8) & 0xff
        if exit == 127, throughShell { throw ExternalEditorError(command: command, problem: "the shell could not run it (status 127)", ran: false) }
        if exit != 0 { throw ExternalEditorError(command: command, problem: "it exited with status \(exit)") }
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time as the plugin host does.
    private static let addCloseFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }
}

/// The user's editor could not run or failed; nothing was recorded.
struct ExternalEditorError: Error, CustomStringConvertible {
    let command: String
    let problem: String
    /// Whether the editor ran (then the file keeps whatever it saved, unrecorded).
    var ran = true
    var description: String {
        "editor '\(command)': \(problem); nothing was recorded" + (ran ? " (the file keeps what the editor saved)" : "")
    }
}
