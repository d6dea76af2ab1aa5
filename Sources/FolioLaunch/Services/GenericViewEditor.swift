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
        guard let program = arguments.first else { throw ExternalEditorError(command: command, problem: "cannot start it: no program", ran: false) }
        // The terminal's descriptors only: a document's lock, libgit2's files and plugin sockets stay in Folio.
        var child = ChildSpawn(program: program, arguments: Array(arguments.dropFirst()), environment: environment,
                               descriptors: [(0, .inherited), (1, .inherited), (2, .inherited)])
        child.closeOthers = .whenAvailable
        child.searchPath = true
        do { return try child.start() } catch {
            throw ExternalEditorError(command: command, problem: "cannot start it: " + String(cString: strerror(error.code)), ran: false)
        }
    }

    /// Throws unless the wait status is a normal exit with status 0.
    private func check(status: Int32, throughShell: Bool) throws {
        let signal = status & 0x7f
        if signal != 0 { throw ExternalEditorError(command: command, problem: "it was killed by signal \(signal)") }
        let exit = (status >> 8) & 0xff
        if exit == 127, throughShell { throw ExternalEditorError(command: command, problem: "the shell could not run it (status 127)", ran: false) }
        if exit != 0 { throw ExternalEditorError(command: command, problem: "it exited with status \(exit)") }
    }

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
