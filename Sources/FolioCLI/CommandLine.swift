import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit
import FolioPlugins
import FolioTerminal
import Synchronization

/// Where a command's output goes: the real standard streams, or buffers in tests.
public final class CommandIO: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    private let readIn: () throws -> Data
    /// Whether standard input and output are a terminal (prompts and progress bars only then).
    public let isInteractive: Bool
    /// The environment the command runs in.
    public var environment: [String: String] { place.withLock { $0.environment } }
    /// The folder relative paths are resolved against.
    public var currentDirectory: URL { place.withLock { $0.currentDirectory } }
    /// The environment and the current folder, read from the process when first asked (`standard()`): `--help` and
    /// commands that need neither do not pay for building the environment dictionary at every start.
    private let place: Mutex<ProcessPlace>
    /// For a command the launcher runs in the background (`backgrounded`): polled by its network transfers (Esc in
    /// the launcher cancels them), and told their progress as one line. Set once, before the value is shared.
    public private(set) var isCancelled: (@Sendable () -> Bool)?
    public private(set) var reportProgress: (@Sendable (String) -> Void)?

    /// Creates an I/O set from closures.
    public convenience init(environment: [String: String], currentDirectory: URL, isInteractive: Bool,
                out: @escaping (String) -> Void, err: @escaping (String) -> Void, stdin: @escaping () throws -> Data) {
        self.init(place: ProcessPlace(environment: environment, currentDirectory: currentDirectory), isInteractive: isInteractive,
                  out: out, err: err, stdin: stdin)
    }

    private init(place: ProcessPlace, isInteractive: Bool,
                 out: @escaping (String) -> Void, err: @escaping (String) -> Void, stdin: @escaping () throws -> Data) {
        self.place = Mutex(place)
        self.isInteractive = isInteractive
        self.writeOut = out
        self.writeErr = err
        self.readIn = stdin
    }

    /// The process's own standard streams and environment.
    public static func standard() -> CommandIO {
        CommandIO(
            place: ProcessPlace(),
            isInteractive: isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1,
            out: { writeAll(STDOUT_FILENO, $0) },
            err: { writeAll(STDERR_FILENO, $0) },
            stdin: { try StandardStreams.readStandardInput() })
    }

    /// The first error writing standard output other than a closed reader (errno; 0 while none): a full disk or an
    /// I/O error loses output, so `main` says so and fails instead of exiting 0 with a truncated result.
    static let outputError = Atomic<Int32>(0)

    /// Writes all of `text` to `fd`; a closed reader ends it quietly, any other error on standard output is noted.
    private static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        let written = text.withUTF8 { AtomicFile.writeAll(fd, UnsafeRawBufferPointer($0)) }
        if !written, fd == STDOUT_FILENO, errno != EPIPE {
            _ = outputError.compareExchange(expected: 0, desired: errno, ordering: .relaxed)
        }
    }

    /// Writes text to standard output exactly as is: a document's content, JSON, help, scripts, a rendered frame.
    public func out(_ text: String) { writeOut(text) }
    /// Writes human-readable text to standard output, every control character but newline and tab shown as a visible
    /// escape (`TerminalText.visible`): whatever it quotes from outside cannot drive the terminal.
    public func text(_ text: String) { writeOut(TerminalText.visible(text, keepingLines: true)) }
    /// Writes a human-readable line to standard output, as `text(_:)` does. A field from outside that must stay on
    /// one line (a name, a summary) is passed through `shownAsText` first, so its newlines and tabs show too.
    public func line(_ text: String = "") { writeOut(TerminalText.visible(text, keepingLines: true) + "\n") }
    /// Writes a line to standard error, its control characters shown as visible escapes (`\e`, `\x07`, `\u{9B}`;
    /// newline and tab kept): errors quote paths and values from outside, which must not drive the terminal.
    public func error(_ text: String) { writeErr(TerminalText.visible(text, keepingLines: true) + "\n") }
    /// Writes text to standard error as is (a progress bar's own cursor movements).
    func rawError(_ text: String) { writeErr(text) }

    /// Reads all of standard input; a directory, a descriptor not open for reading or one that was closed is an error.
    public func readStandardInput() throws -> Data { try readIn() }

    /// This I/O set for a command run in the background: its transfers poll `isCancelled` and report to `progress`.
    public func backgrounded(isCancelled: @escaping @Sendable () -> Bool, progress: @escaping @Sendable (String) -> Void) -> CommandIO {
        let io = CommandIO(environment: environment, currentDirectory: currentDirectory, isInteractive: isInteractive,
                           out: writeOut, err: writeErr, stdin: readIn)
        io.isCancelled = isCancelled
        io.reportProgress = progress
        return io
    }

    /// Resolves a path given on the command line against the current folder.
    public func url(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        if path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] {
            return URL(fileURLWithPath: home + path.dropFirst()).standardizedFileURL
        }
        return currentDirectory.appendingPathComponent(path).standardizedFileURL
    }

    /// Prints a value as stable, pretty, key-sorted JSON.
    public func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        out(Self.escapingControls(json: String(decoding: try encoder.encode(value), as: UTF8.self)) + "\n")
    }

    /// JSON text with DEL, C1 and bidi controls written as `\uXXXX` (the encoder escapes only C0): the same text to
    /// any JSON reader, and nothing that drives a terminal the JSON is printed on. Only strings can hold them.
    static func escapingControls(json: String) -> String {
        // C0 (the layout's own newlines among them) is left alone: inside strings the encoder has escaped it already.
        let raw = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && TerminalText.isEscaped(scalar) }
        guard json.unicodeScalars.contains(where: raw) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard raw(scalar) else { escaped.append(scalar); continue }
            let hex = String(scalar.value, radix: 16)
            escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
        }
        return String(escaped)
    }
}

/// A command's environment and current folder, given, or read from the process the first time each is asked.
private struct ProcessPlace: Sendable {
    private var knownEnvironment: [String: String]?
    private var knownDirectory: URL?

    /// Given values (tests, the launcher's captured commands).
    init(environment: [String: String], currentDirectory: URL) {
        knownEnvironment = environment
        knownDirectory = currentDirectory
    }

    /// The process's own, read when first asked.
    init() {}

    var environment: [String: String] {
        mutating get {
            if let knownEnvironment { return knownEnvironment }
            let read = ProcessInfo.processInfo.environment
            knownEnvironment = read
            return read
        }
    }

    var currentDirectory: URL {
        mutating get {
            if let knownDirectory { return knownDirectory }
            let read = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            knownDirectory = read
            return read
        }
    }
}

/// A command-line usage mistake: an unknown option, a missing argument.
public struct UsageError: Error, CustomStringConvertible {
    public let message: String
    /// The option not known, when that is the mistake (for a did-you-mean).
    public let unknownOption: String?
    public init(_ message: String, unknownOption: String? = nil) { self.message = message; self.unknownOption = unknownOption }
    public var description: String { message }
}

/// "; did you mean 'new'?" for a word close to one of `candidates` (edit distance at most 2, or a third of its length),
/// empty when none is.
enum Suggestions {
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= max(2, word.count / 3) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return "" }
        let ties = scored.filter { $0.1 == best.1 }.map(\.0).sorted().prefix(3)
        return "; did you mean " + ties.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// Levenshtein distance over characters, with an adjacent transposition counted as one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[x.count][y.count]
    }
}

/// The parsed words of one command: positionals, options with values, and flags.
public struct Arguments {
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The options and flags given, in order (each once).
    public private(set) var names: [String] = []

    /// Parses `words` given which options take a value and which are flags; anything else is a usage error.
    public init(_ words: [String], options: Set<String>, flags knownFlags: Set<String>) throws {
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" || (word.count > 1 && word.dropFirst().allSatisfy(\.isNumber)) {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = word
            var inline: String?
            if let eq = word.firstIndex(of: "="), word.hasPrefix("--") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            if knownFlags.contains(name) {
                if inline != nil { throw UsageError("option \(name) takes no value") }
                flags.insert(name)
                if !names.contains(name) { names.append(name) }
            } else if options.contains(name) {
                if !names.contains(name) { names.append(name) }
                if let inline {
                    values[name, default: []].append(inline)
                } else if index < words.count {
                    values[name, default: []].append(words[index])
                    index += 1
                } else {
                    throw UsageError("option \(name) needs a value")
                }
            } else {
                throw UsageError("unknown option \(name)", unknownOption: name)
            }
        }
    }

    /// Whether a flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The last value of an option.
    public func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable option, in order.
    public func values(_ name: String) -> [String] { values[name] ?? [] }
    /// An integer option, or a usage error naming it.
    public func int(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= 0 else { throw UsageError("option \(name) needs a whole number, got '\(text)'") }
        return number
    }
    /// The positional at `index`, or a usage error naming what is missing.
    public func positional(_ index: Int, _ what: String) throws -> String {
        guard index < positionals.count else { throw UsageError("missing \(what)") }
        guard !positionals[index].isEmpty else { throw UsageError("\(what) must not be empty") }
        return positionals[index]
    }
    /// The positional at `index`, nil when it was not given.
    public func optionalPositional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }
    /// Fails when more than `count` positionals were given.
    public func expectAtMost(_ count: Int) throws {
        if positionals.count > count { throw UsageError("unexpected argument '\(positionals[count])'") }
    }
}

/// One `folio` subcommand: its name, its forms (each verb or variant declared once by its synopsis, see
/// `CommandForm`), its summary and what it does.
public struct Command: Sendable {
    public let name: String
    public let summary: String
    /// The usage line: every form's synopsis, ` | ` between them, as declared.
    public let usage: String
    /// The ways to call it, in the usage's order, read from `usage` when asked: a run needs only its own command's
    /// (and `--help` none), and reading all of them cost about 0.7 ms of every start (Benchmarks/README.md).
    var forms: [CommandForm] { CommandForm.forms(command: name, usage: usage) }
    /// Whether the command reads or writes git repositories: libgit2 is then started on a thread of its own as the
    /// command begins, overlapping its own set-up.
    public let usesGit: Bool
    public let run: @Sendable (Arguments, CommandIO) throws -> Int32

    /// `usage` declares the forms: ` | ` between them, each a synopsis whose options and flags are all it takes.
    public init(_ name: String, usage: String, summary: String, usesGit: Bool = true,
                run: @escaping @Sendable (Arguments, CommandIO) throws -> Int32) {
        self.name = name
        self.usesGit = usesGit
        self.summary = summary
        self.usage = usage
        self.run = run
    }

    /// A command of verbs (`plugins list`, `plugins pack DIR`, `conflicts PATH show REF`): each verb's synopsis declares
    /// it and its handler runs it; the form the words fit chooses the verb (`VerbTable`), and a missing or unknown verb
    /// is a usage error listing the verbs. `hidden` verbs (an old alias) run but are in no usage, completion or man page.
    init(_ name: String, summary: String, usesGit: Bool = true, verbs: [Verb], hidden: [String: Verb.Run] = [:]) {
        // The verbs' forms are read from their synopses when the command runs, not at every start.
        // The synopses joined by a loop: the generic `joined(separator:)` looked up its witnesses at every start.
        var usage = ""
        for (index, verb) in verbs.enumerated() { usage += index == 0 ? verb.synopsis : " | " + verb.synopsis }
        self.init(name, usage: usage, summary: summary, usesGit: usesGit) { args, io in
            let table = VerbTable(command: name, forms: verbs.map { CommandForm(command: name, synopsis: $0.synopsis) },
                                  runs: verbs.map(\.run), hidden: hidden)
            return try table.verb(for: args)(args, io)
        }
    }

    /// Every option that takes a value in some form.
    var options: Set<String> { forms.reduce(into: []) { $0.formUnion($1.valueOptions) } }
    /// Every flag of some form, with the flags every command takes.
    var flags: Set<String> { forms.reduce(into: CommandForm.universalFlags) { $0.formUnion($1.flags) } }
}

/// One verb of a command: its synopsis (`plugins pack DIR [-o FILE]`, the declaration of its words and options) and
/// what it does.
struct Verb: Sendable {
    typealias Run = @Sendable (Arguments, CommandIO) throws -> Int32
    let synopsis: String
    let run: Run
    init(_ synopsis: String, _ run: @escaping Run) {
        self.synopsis = synopsis
        self.run = run
    }
}

/// The `folio` command line: finds the subcommand, runs it, and maps errors to one line and an exit code.
public enum FolioCommandLine {
    /// Exit codes: 0 success, 1 failure, 2 usage.
    public static let failure: Int32 = 1
    public static let usageFailure: Int32 = 2

    /// Runs `folio` with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        let commands = Commands.all
        guard let name = arguments.first else {
            GitLibrary.initializeInBackground()
            return Commands.runDefault(io: io)
        }
        if name == "--help" || name == "help" || name == "-h" {
            // `folio help CMD [VERB…]` is `folio CMD [VERB…] --help`.
            if name == "help", arguments.count > 1 {
                guard commands.contains(where: { $0.name == arguments[1] }) else {
                    io.error("folio help: no command '\(arguments[1].shownAsText)'\(Suggestions.didYouMean(arguments[1], among: commands.map(\.name))) (see folio --help)")
                    return usageFailure
                }
                return run(Array(arguments.dropFirst()) + ["--help"], io: io)
            }
            io.out(helpText(commands))
            return 0
        }
        if name == "--version" || name == "version" {
            do { try printVersion(json: arguments.dropFirst().contains("--json"), io) } catch {
                io.error("folio --version: \(oneLine(error))")
                return failure
            }
            return 0
        }
        if name == "__complete" {
            printCompletions(Array(arguments.dropFirst()), io)
            return 0
        }
        if name == "__manpage" {
            io.out(ManPage.render(commands))
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            if name.hasPrefix("-") {
                let options = ["--help", "--version"]
                io.error("folio: unknown option '\(name.shownAsText)'\(Suggestions.didYouMean(name, among: options + ["--json"]).replacing("'--json'", with: "'--version --json'")) (see folio --help)")
            } else {
                io.error("folio: unknown command '\(name.shownAsText)'\(Suggestions.didYouMean(name, among: commands.map(\.name))) (see folio --help)")
            }
            return usageFailure
        }
        let json = arguments.contains("--json")
        do {
            let parsed = try Arguments(Array(arguments.dropFirst()), options: command.options, flags: command.flags)
            if parsed.flag("--help") {
                io.text(command.helpText(command.helpForms(parsed)))
                return 0
            }
            if let refusal = command.refusal(parsed) {
                io.error("folio \(name): \(refusal.shownAsText)")
                return usageFailure
            }
            if command.usesGit { GitLibrary.initializeInBackground() }
            return try command.run(parsed, io)
        } catch let error as UsageError {
            var message = error.description
            if let unknown = error.unknownOption { message += Suggestions.didYouMean(unknown, among: command.options.union(command.flags).sorted()) }
            if json { return jsonError("folio \(name): \(message)", code: usageFailure, io) }
            io.error("folio \(name): \(message.shownAsText)")
            io.error("usage: folio \(command.usage)")
            return usageFailure
        } catch {
            // One line, whatever the error quotes (a remote's name, a file name): its hint is shown as text too.
            let line = "folio \(name): \(oneLine(error))\(CommandHints.hint(for: error)?.shownAsText ?? "")"
            if json { return jsonError(line, code: failure, io) }
            io.error(line)
            return failure
        }
    }

    /// Under `--json`, a failure is `{"error": LINE, "exitCode": N}` on standard output, so that a script reading the
    /// JSON gets it there; the line goes to standard error too, for the person watching.
    static func jsonError(_ line: String, code: Int32, _ io: CommandIO) -> Int32 {
        struct Failure: Encodable { let error: String; let exitCode: Int32 }
        try? io.json(Failure(error: line, exitCode: code))
        io.error(line.shownAsText)
        return code
    }

    /// Runs with the process's arguments and streams, then exits.
    public static func main() -> Never {
        PhaseTrace.mark("start")
        StandardStreams.ensureOpen()  // before anything opens a file
        signal(SIGPIPE, SIG_IGN)
        FatalSignals.install()  // a crash restores the terminal and leaves a report, never the runtime's prompt
        let arguments: [String]
        do { arguments = try StandardStreams.arguments() } catch {
            CommandIO.standard().error("folio: \(oneLine(error))")
            exit(usageFailure)  // nothing has started libgit2 yet
        }
        let io = CommandIO.standard()
        var code = run(arguments, io: io)
        // exit() runs the libraries' exit handlers (OpenSSL's among them), which must not race libgit2 starting.
        GitLibrary.waitForBackgroundInitialization()
        // Background packing started by a change finishes before the process ends.
        DocumentMaintenance.waitForAll()
        let lost = CommandIO.outputError.load(ordering: .relaxed)
        if lost != 0 {
            io.error("folio: cannot write standard output (\(String(cString: strerror(lost)))); the output is incomplete")
            if code == 0 { code = failure }
        }
        exit(code)
    }

    /// An error as the one line `folio` prints: its lines joined, and every control character left in it (a tab, an
    /// escape sequence in a quoted name) shown as a visible escape (`shownAsText`).
    static func oneLine(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ").shownAsText
    }

    static func helpText(_ commands: [Command]) -> String {
        var text = "usage: folio [COMMAND] [ARGS...]\n\nWith no command on a terminal, folio opens the launch screen.\n\ncommands:\n"
        let width = commands.map(\.name.count).max() ?? 0
        for command in commands {
            text += "  " + command.name.padded(toLength: width + 2) + command.summary + "\n"
        }
        return text
    }
}
