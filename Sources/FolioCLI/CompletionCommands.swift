import FolioGit
import FolioPlugins

let completionCommands: [Command] = [
    Command("completions", usage: "completions bash|zsh|fish",
            summary: "Print the shell completion script (e.g. `source <(folio completions bash)`)", usesGit: false) { args, io in
        let shell = try args.positional(0, "shell (bash, zsh or fish)")
        try args.expectAtMost(1)
        guard let script = CompletionScripts.script(for: shell) else {
            throw UsageError("no completions for shell '\(shell)' (bash, zsh or fish)")
        }
        io.out(script)
        return 0
    },
]

extension FolioCommandLine {
    /// `folio --version`: Folio's version, the plugin ABI it loads, the confinement its plugins run under (as a plugin
    /// host reports it after confining itself) and the libgit2 it runs with.
    static func printVersion(json: Bool, _ io: CommandIO) throws {
        struct Versions: Encodable { let folio: String; let pluginABI: String; let pluginConfinement: String; let libgit2: String }
        let versions = Versions(folio: FolioVersion.current, pluginABI: "\(PluginABI.major).\(PluginABI.minor)",
                                pluginConfinement: pluginConfinement(io), libgit2: GitLibrary.version)
        if json { try io.json(versions); return }
        io.line("folio \(versions.folio)")
        io.line("plugin ABI \(versions.pluginABI)")
        io.line("plugin confinement: \(versions.pluginConfinement)")
        io.line("libgit2 \(versions.libgit2)")
    }

    /// The confinement in force in a plugin host on this machine, or why it is not known.
    static func pluginConfinement(_ io: CommandIO) -> String {
        do { return try PluginIsolation(environment: io.environment).confinementInForce() } catch { return "unknown (\(error))" }
    }

    /// `folio __complete WORDS…`: what the completion scripts offer for the last word. Never fails: a broken
    /// document or source just offers less.
    static func printCompletions(_ words: [String], _ io: CommandIO) {
        let answer = Completer(commands: Commands.all, io: io).complete(words.isEmpty ? [""] : words)
        for line in answer.lines { io.line(line) }
    }
}
