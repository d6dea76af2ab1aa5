import FoundationEssentials
import Dispatch
import FolioBasics
import Glibc
import FolioCore
import FolioGit
import FolioMustache
import FolioPlugins
import FolioSync
import FolioTemplates
import FolioTerminal
import Synchronization

/// The options of every `templates` verb that reads sources: which one (`--ref` with `--source` only), offline or not,
/// and how long a fetch may stall.
private let sourceOptions = "[--source S [--ref R]] [--offline] [--timeout SECONDS]"

/// `folio templates …` and `folio render`.
let templateCommands: [Command] = [
    Command("templates", summary: "List, search, inspect, refresh, configure, lint and test templates", verbs: [
        Verb("templates list \(sourceOptions) [--json]") { args, io in try args.expectAtMost(1); return try listTemplates(args, io) },
        Verb("templates search WORDS... \(sourceOptions) [--json]") { args, io in try searchTemplates(Array(args.positionals.dropFirst()), args, io) },
        Verb("templates show ID \(sourceOptions) [--json]") { args, io in
            try args.expectAtMost(2)
            return try showTemplate(try args.positional(1, "template ID"), args, io)
        },
        Verb("templates update [--source S [--ref R]] [--timeout SECONDS] [--json]") { args, io in try args.expectAtMost(1); return try updateSources(args, io) },
        Verb("templates add NAME URL [--ref R] [--json]") { args, io in
            try args.expectAtMost(3)
            return try addSource(try args.positional(1, "NAME"), try args.positional(2, "URL"), args, io)
        },
        Verb("templates remove NAME") { args, io in try args.expectAtMost(2); return try removeSource(try args.positional(1, "NAME"), io) },
        Verb("templates lint [DIR|ID] \(sourceOptions) [--json]") { args, io in try args.expectAtMost(2); return try lintTemplates(args, io) },
        Verb("templates test [DIR|ID] \(sourceOptions) [--update-golden] [--json]") { args, io in try args.expectAtMost(2); return try testTemplates(args, io) },
    ]),
    Command("render", usage: "render TEMPLATE_FILE --data DATA.json [--partials DIR] [--strict] [--language LANGUAGE] [--options OPTIONS.json] [--json]",
            summary: "Render one Mustache or Jinja file with JSON data and print the result") { args, io in
        try renderCommand(args, io)
    },
]

/// `folio render`: one file, within the Mustache limits of the settings.
func renderCommand(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let file = try args.positional(0, "TEMPLATE_FILE")
    try args.expectAtMost(1)
    guard let data = args.value("--data") else { throw UsageError("missing --data DATA.json") }
    try InputFiles.checkJSON(io.url(data))
    let limits = TemplateLimits(settings: try Settings.load(environment: io.environment)).render
    let output: String
    let language = try renderLanguage(file, args)
    if language == "jinja" {
        if let options = args.value("--options") { try InputFiles.checkJSON(io.url(options)) }
        output = try JinjaFile.render(at: io.url(file), dataJSON: io.url(data), partialsDirectory: args.value("--partials").map(io.url),
                                      optionsJSON: args.value("--options").map(io.url), strict: args.flag("--strict"))
    } else if args.value("--options") != nil {
        throw UsageError("--options takes Jinja's options: give --language jinja (or a .jinja or .j2 file)")
    } else {
        do {
            output = try renderFile(at: io.url(file), dataJSON: io.url(data), partialsDirectory: args.value("--partials").map(io.url),
                                    strict: args.flag("--strict"), limits: limits)
        } catch let error as MustacheError where error.limit != nil {
            throw MustacheLimitHint(error: error)
        }
    }
    if args.flag("--json") {
        struct Rendered: Encodable { let output: String }
        try io.json(Rendered(output: output))
    } else {
        io.out(output)
    }
    return 0
}

/// The language of `folio render`'s file: `--language jinja|mustache`, else `.jinja` and `.j2` files are Jinja.
func renderLanguage(_ file: String, _ args: Arguments) throws -> String {
    if let language = args.value("--language") {
        guard language == "jinja" || language == "mustache" else { throw UsageError("--language takes jinja or mustache, got '\(language)'") }
        return language
    }
    return file.hasSuffix(".jinja") || file.hasSuffix(".j2") ? "jinja" : "mustache"
}

/// A render stopped by a limit, with where to raise it.
struct MustacheLimitHint: Error, CustomStringConvertible {
    let error: MustacheError
    var description: String {
        "\(error.description); raise \"mustache\": {\"\(error.limit?.rawValue ?? "")\": …} in settings.json if the template really needs more"
    }
}

// MARK: Sources

/// The sources a command works on: `--source S` (a configured name, `bundled`, or a path/URL), else all configured.
func chosenSources(_ args: Arguments, _ io: CommandIO) throws -> [TemplateSource] {
    let configured = try TemplateSource.configured(environment: io.environment)
    guard let wanted = args.value("--source") else {
        if args.value("--ref") != nil { throw UsageError("--ref needs --source") }
        return configured
    }
    var source: TemplateSource
    if let named = configured.first(where: { $0.name == wanted }) {
        source = named
    } else {
        let looksLikeURL = wanted.contains("://") || wanted.contains("@")
        guard looksLikeURL || wanted.contains("/") || wanted.hasPrefix(".") else {
            throw FolioError.unknownTemplateSource(wanted)
        }
        let location = looksLikeURL ? wanted : io.url(wanted).path
        source = TemplateSource(name: wanted, location: location)
    }
    if let ref = args.value("--ref") { source.ref = ref }
    return [source]
}

/// Where `--template VALUE` points when it is a location rather than an id: a short form (`gh:owner/repo`), a
/// URL, or an existing folder (`./x`, `../x`, `/x`, `~/x`); nil for a template id such as `checklist/groceries`.
func templateLocation(_ value: String, _ io: CommandIO) -> String? {
    if let url = TemplateSource.expandingShortForm(value) { return url }
    if value.contains("://") || (value.contains("@") && value.contains(":")) { return value }
    guard value.hasPrefix("/") || value.hasPrefix("./") || value.hasPrefix("../") || value.hasPrefix("~/") || value == "." else { return nil }
    return io.url(value).path
}

/// A resolver with the limits of the settings (a malformed settings file is reported here), the command's
/// `--timeout` when `args` are given, and the launcher's cancel when it runs the command.
func templateResolver(_ io: CommandIO, offline: Bool, _ args: Arguments? = nil) throws -> TemplateResolver {
    var limits = TemplateLimits(settings: try Settings.load(environment: io.environment))
    if let args { limits.networkTimeout = try networkTimeout(args, io) }
    var resolver = TemplateResolver(environment: io.environment, offline: offline, limits: limits)
    resolver.isCancelled = io.isCancelled
    return resolver
}

/// A one-line progress bar on standard error, only when it is a terminal.
final class FetchProgressBar: Sendable {
    private struct State {
        var lastDraw = Date.distantPast
        var drawn = false
    }
    private let state = Mutex(State())
    private let enabled: Bool
    /// The launcher's progress line, when it runs the command (nothing is drawn then).
    private let report: (@Sendable (String) -> Void)?

    init(io: CommandIO) {
        report = io.reportProgress
        enabled = report == nil && io.isInteractive && isatty(STDERR_FILENO) == 1
    }

    /// Tells the launcher which remote sources are being fetched, before any object arrives.
    func starting(_ sources: [TemplateSource]) {
        let remote = sources.filter(\.isRemote)
        guard let report, !remote.isEmpty else { return }
        report("fetching " + remote.map { "\($0.name) (\($0.location))" }.joined(separator: ", "))
    }

    func update(_ source: TemplateSource, _ progress: TransferProgress) {
        if let report {
            report("\(source.name): \(progress.receivedObjects)/\(progress.totalObjects) objects, \(progress.receivedBytes / 1024) KiB")
        }
        guard enabled else { return }
        state.withLock { state in
            let now = Date()
            guard now.timeIntervalSince(state.lastDraw) > 0.08 || progress.receivedObjects == progress.totalObjects else { return }
            state.lastDraw = now
            StandardStreams.writeError(Self.line(source, progress))
            state.drawn = true
        }
    }

    private static func line(_ source: TemplateSource, _ progress: TransferProgress) -> String {
        let total = max(progress.totalObjects, 1)
        let fraction = min(1, Double(progress.receivedObjects) / Double(total))
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let megabytes = NumberText.fixed(Double(progress.receivedBytes) / 1_048_576, digits: 1) + " MiB"
        return "\r\u{1B}[K\(source.name.shownAsText) [\(bar)] \(Int(fraction * 100))% \(progress.receivedObjects)/\(progress.totalObjects) objects, \(megabytes)"
    }

    func finish() {
        guard enabled else { return }
        state.withLock { state in
            if state.drawn { StandardStreams.writeError("\r\u{1B}[K") }
            state.drawn = false
        }
    }
}

// MARK: list / show / update / add / remove

func listTemplates(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let sources = try chosenSources(args, io)
    let resolver = try templateResolver(io, offline: args.flag("--offline"), args)
    let events = try resolveWithProgress(resolver, sources, io)
    // Report in the order the sources were given, whatever order they resolved in.
    var resolved: [String: ResolvedSource] = [:]
    var failures: [String: String] = [:]
    for event in events {
        switch event {
        case let .resolved(source): resolved[source.source.name] = source
        case let .failed(source, message): failures[source.name] = message
        case .progress: break
        }
    }
    if args.flag("--json") {
        struct SourceReport: Encodable {
            let name: String; let location: String; let commit: String?; let ref: String?; let fetchedAt: Date?
            let warnings: [String]; let error: String?
        }
        struct Listing: Encodable { let sources: [SourceReport]; let templates: [TemplateSummary] }
        let reports = sources.map { source in
            let r = resolved[source.name]
            return SourceReport(name: source.name, location: source.location, commit: r?.commit, ref: r?.ref, fetchedAt: r?.fetchedAt,
                                warnings: r?.warnings ?? [], error: failures[source.name])
        }
        try io.json(Listing(sources: reports, templates: sources.flatMap { resolved[$0.name]?.templates ?? [] }))
    } else {
        var text = ""
        for source in sources {
            guard let r = resolved[source.name] else { continue }
            let templates = r.templates
            let width = templates.map(\.id.shownAsText.count).max() ?? 0
            text += "\(source.name.shownAsText) (\(r.ref.map { "\($0.shownAsText) " } ?? "")\(r.commit.prefix(7)))\n"
            for t in templates {
                let version = t.version.map { " \($0.shownAsText)" } ?? ""
                let star = t.featured ? " *" : ""
                text += "  " + t.id.shownAsText.padded(toLength: width + 2) + t.name.shownAsText + version + star
                    + (t.summary.map { " — \($0.shownAsText)" } ?? "") + "\n"
            }
        }
        io.text(text)
    }
    for source in sources {
        for warning in resolved[source.name]?.warnings ?? [] { io.error("folio templates: warning: \(warning.shownAsText)") }
        if let failure = failures[source.name] { io.error("folio templates: \(failure.shownAsText)") }
    }
    return failures.isEmpty ? 0 : FolioCommandLine.failure
}

func showTemplate(_ id: String, _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let sources = try chosenSources(args, io)
    let resolver = try templateResolver(io, offline: args.flag("--offline"), args)
    let bar = FetchProgressBar(io: io)
    let template = try waitFor { try await resolver.findTemplate(id, in: sources) { bar.update($0, $1) } }
    bar.finish()
    let m = template.manifest
    let files = template.files.map(\.path)
    let versions = try waitFor { try await resolver.versions(of: template) }
    if args.flag("--json") {
        struct Shown: Encodable {
            let id: String; let name: String; let summary: String?; let version: String?; let minFolioVersion: String?
            let contentType: String?; let primaryFile: String?; let source: String; let location: String; let ref: String?
            let commit: String; let path: String; let variables: [TemplateVariable]; let files: [String]
            let exclude: [String]; let copyOnly: [String]; let versions: [TemplateVersion]
        }
        try io.json(Shown(id: m.id, name: m.name, summary: m.summary, version: m.version, minFolioVersion: m.minFolioVersion,
                          contentType: m.contentType, primaryFile: m.primaryFile, source: template.source.name, location: template.source.location,
                          ref: template.ref, commit: template.commit, path: template.path, variables: m.variables, files: files,
                          exclude: m.exclude, copyOnly: m.copyOnly, versions: versions))
        return 0
    }
    // Every field is the template author's text, shown as text (one line each).
    var text = "\(m.name.shownAsText) (\(m.id.shownAsText)\(m.version.map { " \($0.shownAsText)" } ?? ""))\n"
    if let summary = m.summary { text += "  \(summary.shownAsText)\n" }
    text += "  source: \(template.source.name.shownAsText) \(template.ref.map { "\($0.shownAsText) " } ?? "")\(template.commit.prefix(7))\n"
    if let type = m.contentType { text += "  content type: \(type.shownAsText)\n" }
    if let primary = m.primaryFile { text += "  primary file: \(primary.shownAsText)\n" }
    if let minimum = m.minFolioVersion { text += "  needs Folio \(minimum.shownAsText) or newer\n" }
    text += "variables:\n"
    if m.variables.isEmpty { text += "  (none)\n" }
    for v in m.variables {
        var line = "  \(v.name.shownAsText) (\(v.type.rawValue))"
        if let d = v.default { line += " default: \(describeDefault(d).shownAsText)" }
        if let choices = v.choices { line += " choices: \(choices.map(\.shownAsText).joined(separator: ", "))" }
        if let pattern = v.pattern { line += " pattern: \(pattern.shownAsText)" }
        if let when = v.when { line += " when: \(when.shownAsText)" }
        if v.secret == true { line += " secret" }
        line += " — \(v.question.shownAsText)"
        text += line + "\n"
    }
    text += versionLines(versions)
    text += "files:\n"
    for file in files { text += "  \(file.shownAsText)\n" }
    io.text(text)
    return 0
}

private func describeDefault(_ value: JSONValue) -> String {
    if case let .string(s) = value { return "\"\(s)\"" }
    let data = (try? JSONEncoder().encode(value)) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

func updateSources(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let sources = try chosenSources(args, io)
    let resolver = try templateResolver(io, offline: false, args)
    let events = try resolveWithProgress(resolver, sources, io)
    var failed = false
    struct Updated: Encodable { let name: String; let commit: String?; let ref: String?; let templates: Int; let error: String? }
    var reports: [Updated] = []
    for event in events {
        switch event {
        case let .resolved(r):
            reports.append(Updated(name: r.source.name, commit: r.commit, ref: r.ref, templates: r.templates.count, error: nil))
            for warning in r.warnings { io.error("folio templates: warning: \(warning.shownAsText)") ; failed = failed || warning.contains("failed") }
        case let .failed(source, message):
            failed = true
            reports.append(Updated(name: source.name, commit: nil, ref: nil, templates: 0, error: message))
        case .progress: break
        }
    }
    reports.sort { a, b in (sources.firstIndex { $0.name == a.name } ?? 0) < (sources.firstIndex { $0.name == b.name } ?? 0) }
    if args.flag("--json") {
        try io.json(reports)
    } else {
        for r in reports {
            if let error = r.error { io.error("folio templates: \(error.shownAsText)") } else {
                io.line("\(r.name.shownAsText): \(r.ref.map { "\($0.shownAsText) " } ?? "")\(r.commit?.prefix(7) ?? "") (\(r.templates) template\(r.templates == 1 ? "" : "s"))")
            }
        }
    }
    return failed ? FolioCommandLine.failure : 0
}

func addSource(_ name: String, _ url: String, _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    guard !name.isEmpty, name != TemplateSource.bundled.name, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
        throw UsageError("a source name is letters, digits, '-', '_' or '.', and not 'bundled'")
    }
    var settings = try Settings.load(environment: io.environment)
    if settings.templateSources.contains(where: { $0.name == name }) {
        throw FolioError.templateSourceExists(name)
    }
    if RemoteURL.holdsPassword(url) {
        throw TemplateError(RemoteURL.redacted(url), "the URL holds a password (user:password@), which Folio never stores or shows: "
                            + "give the secret through FOLIO_GIT_TOKEN or .netrc instead", kind: .sourceUnavailable)
    }
    let probe = TemplateSource(name: name, location: url)
    let location = probe.isRemote ? url : io.url(url).path
    settings.templateSources.append(TemplateSourceSetting(name: name, url: location, ref: args.value("--ref")))
    try settings.save(environment: io.environment)
    if args.flag("--json") {
        try io.json(TemplateSourceSetting(name: name, url: location, ref: args.value("--ref")))
    } else {
        io.line("Added template source \(name): \(location.shownAsText)\(args.value("--ref").map { " at \($0.shownAsText)" } ?? "")")
    }
    return 0
}

func removeSource(_ name: String, _ io: CommandIO) throws -> Int32 {
    var settings = try Settings.load(environment: io.environment)
    guard settings.templateSources.contains(where: { $0.name == name }) else {
        throw FolioError.unknownTemplateSource(name)
    }
    settings.templateSources.removeAll { $0.name == name }
    try settings.save(environment: io.environment)
    io.line("Removed template source \(name)")
    return 0
}

// MARK: new

/// Reads prompt answers: line by line from the terminal, or from the captured standard input in tests.
final class PromptReader: Sendable {
    private let io: CommandIO
    /// The captured standard input's lines not read yet (nil until the first read).
    private let buffered = Mutex<[String]?>(nil)
    init(io: CommandIO) { self.io = io }

    func readLine() throws -> String? {
        if isatty(STDIN_FILENO) == 1 { return Swift.readLine(strippingNewline: true) }
        return try buffered.withLock { buffered in
            if buffered == nil {
                buffered = String(decoding: try io.readStandardInput(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
            guard var lines = buffered, !lines.isEmpty else { return nil }
            let line = lines.removeFirst()
            buffered = lines
            return line
        }
    }
}

/// Parses `--data FILE.json` and `--set NAME=VALUE` into given answers (`--set` wins).
func givenAnswers(_ args: Arguments, _ io: CommandIO) throws -> [String: JSONValue] {
    var given: [String: JSONValue] = [:]
    if let file = args.value("--data") {
        let url = io.url(file)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw FolioError.unreadable(url.path) }
        let node: JSONNode
        do { node = try JSONNode.parse(data) } catch { throw FolioError.invalidFile(path: url.path, problem: JSONKeys.describe(error)) }
        guard case let .object(members) = node.value else { throw FolioError.invalidFile(path: url.path, problem: "expected a JSON object of answers") }
        given = members
    }
    for assignment in args.values("--set") {
        guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
            throw UsageError("--set needs NAME=VALUE, got '\(assignment)'")
        }
        given[String(assignment[..<eq])] = .string(String(assignment[assignment.index(after: eq)...]))
    }
    return given
}

/// `folio new PATH --template ID …` and `folio new PATH --replay DOC`.
func instantiateTemplate(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let destination = io.url(try args.positional(0, "PATH"))
    if FileManager.default.fileExists(atPath: destination.path) { throw FolioError.alreadyExists(destination.path) }
    let store = try DocumentStore(environment: io.environment)
    let resolver = try templateResolver(io, offline: args.flag("--offline"), args)
    let bar = FetchProgressBar(io: io)
    var given = try givenAnswers(args, io)
    let asks = !args.flag("--defaults") && io.isInteractive
    // With nothing to ask, the document's repository is begun now and made while the template is found and read; a
    // staging folder that goes unused (the template is missing, an answer is refused) is removed when dropped. Not
    // while questions are asked (a hidden folder would sit beside the destination for as long as the user thinks),
    // nor for a plan, which writes nothing.
    let staging = asks || args.flag("--dry-run") ? nil : try store.beginCreate(at: destination)
    PhaseTrace.mark("settings and sources read")
    var template: Template
    if let replay = args.value("--replay") {
        if args.value("--template") != nil { throw UsageError("give either --template or --replay, not both") }
        let other = try store.open(at: io.url(replay))
        guard other.metadata.origin.kind == "template", let origin = other.metadata.origin.template else {
            throw FolioError.notFromTemplate(document: other.url.path)
        }
        let trusted = try trustedTemplateSource(for: other, origin: origin, args, io)
        template = try waitFor { try await resolver.recordedTemplate(origin, trusted: trusted) }
        given = origin.answers.merging(given) { _, new in new }
    } else {
        guard let id = args.value("--template") else { throw UsageError("missing --template ID") }
        if args.value("--source") == nil, let location = templateLocation(id, io) {
            // `--template LOCATION`: the template found there, as `cookiecutter LOCATION` takes it.
            var source = TemplateSource(name: id, location: location)
            source.ref = args.value("--ref")
            template = try resolver.templateAtNow(source, directory: args.value("--directory")) { bar.update($0, $1) }
        } else {
            if args.value("--directory") != nil { throw UsageError("--directory names a folder inside the template LOCATION given as --template") }
            let sources = try chosenSources(args, io)
            template = try resolver.findTemplateNow(id, in: sources) { bar.update($0, $1) }
        }
    }
    bar.finish()
    PhaseTrace.mark("template loaded")
    try template.checkCompatible()
    let mode: AnswerMode
    // One reader for every question of this command: it may read ahead of the line it returns.
    let reader = PromptReader(io: io)
    if !args.flag("--dry-run") { template = try runPrePrompt(template, reader: reader, args, io) }
    if asks {
        mode = .ask { variable, defaultText, problem in
            // The template's question, help, choices and default are its author's text: shown as text.
            if let problem { io.line("  \(problem.shownAsText)") }
            if let help = variable.help, problem == nil { io.line("  \(help.shownAsText)") }
            var prompt = variable.question.shownAsText
            if let choices = variable.choices { prompt += " (\(choices.map(\.shownAsText).joined(separator: variable.type == .multichoice ? ", " : " / ")))" }
            if variable.type == .bool { prompt += " (yes/no)" }
            if let defaultText, !variable.isSecretForPrompt { prompt += " [\(defaultText.shownAsText)]" }
            io.text(prompt + ": ")
            guard let answer = try reader.readLine() else {
                throw FolioError.inputEnded(question: variable.name)
            }
            return answer.trimming(.whitespaces)
        }
    } else {
        mode = .defaults
    }
    let context = Template.defaultsContext(for: destination)
    let answers = try template.answers(given: given, mode: mode, context: context)
    PhaseTrace.mark("answers")
    if args.flag("--dry-run") { return try printInstantiationPlan(template, at: destination, answers: answers, store: store, args, io) }
    if let message = try template.copierMessage("message_before_copy", answers: answers) { printMessage(message, io) }
    let programChanges = try runTemplatePrograms(template, answers: answers, destination: destination, reader: reader, args, io)
    let document = try programChanges.map { try template.instantiate(at: destination, answers: answers, store: store, rendered: $0.files, staging: staging) }
        ?? template.instantiate(at: destination, answers: answers, store: store, staging: staging)
    PhaseTrace.mark("document opened")
    if let (changes, names, _) = programChanges, !changes.isEmpty {
        try document.apply(changes, message: "Run the template's \(template.copier != nil ? "tasks" : "hooks"): \(names)")
    }
    if programChanges == nil, let hooks = template.cookiecutter?.hooks, !hooks.isEmpty {
        // Hooks are programs from outside: none runs unless trusted, and the user is told what the result lacks.
        io.error("note: the template's hooks were not run (\(hooks.map(\.shownAsText).joined(separator: ", "))): the document lacks what they would have done; --trust runs them confined")
    }
    if programChanges == nil, let tasks = template.copier?.tasks, !tasks.isEmpty {
        io.error("note: the template's tasks were not run (\(tasks.map(\.shownAsText).joined(separator: "; "))): the document lacks what they would have done; --trust runs them confined")
    }
    if let message = try template.copierMessage("message_after_copy", answers: answers) { printMessage(message, io) }
    // Made here from a source the user chose: later updates may read that source without asking.
    try? document.recordTrustedTemplateSource(template.source.location)  // without it, the next update asks once
    PhaseTrace.mark("template source trusted")
    RecentDocuments(environment: io.environment).record(document)
    PhaseTrace.mark("recorded in recent documents")
    let head = try document.head()
    if args.flag("--json") {
        struct Created: Encodable {
            let path: String; let template: String; let version: String?; let source: String; let ref: String?; let templateCommit: String
            let contentType: String; let title: String; let primaryFile: String; let commit: String
        }
        try io.json(Created(path: document.url.path, template: template.manifest.id, version: template.manifest.version, source: template.source.location,
                            ref: template.ref, templateCommit: template.commit, contentType: document.metadata.contentType.identifier,
                            title: document.metadata.title, primaryFile: document.metadata.primaryFile, commit: head.id.hex))
    } else {
        io.line("Created \(document.url.path.shownAsText) [\(head.id.short)] \(head.summary.shownAsText)")
    }
    return 0
}

extension TemplateVariable {
    var isSecretForPrompt: Bool { secret ?? false }
}

/// Resolves `sources` concurrently, drawing a progress bar on a terminal; returns the non-progress events.
func resolveWithProgress(_ resolver: TemplateResolver, _ sources: [TemplateSource], _ io: CommandIO) throws -> [SourceEvent] {
    let bar = FetchProgressBar(io: io)
    defer { bar.finish() }
    bar.starting(sources)
    return try waitFor { () async -> [SourceEvent] in
        var collected: [SourceEvent] = []
        for await event in resolver.resolveAll(sources) {
            if case let .progress(source, progress) = event { bar.update(source, progress) } else { collected.append(event) }
        }
        return collected
    }
}

/// With `--trust`: the template's hooks or tasks run confined around its files (`TemplateProgramRun`), before anything
/// is written; returns the changes they made (recorded as a commit after the template's) and their names, nil when
/// not trusted or there are none. A program that fails throws, so no document is made.
private func runTemplatePrograms(_ template: Template, answers: [String: JSONValue], destination: URL, reader: PromptReader,
                                 _ args: Arguments, _ io: CommandIO) throws -> (changes: [DocumentChange], names: String, files: [DocumentFile])? {
    let hasPrograms = !(template.cookiecutter?.hooks.isEmpty ?? true) || !(template.copier?.tasks.isEmpty ?? true)
    guard try templateProgramsTrusted(hasPrograms ? { try template.programs(answers: answers) } : nil, location: template.source.location,
                                      reader: reader, args, io) else { return nil }
    let programs = try template.programs(answers: answers)
    guard !programs.isEmpty else { return nil }
    let files = try template.render(answers: answers)
    let run = try templateProgramRun(args, io)
    let result = try run.run(programs, files: files, projectName: destination.lastPathComponent)
    for line in result.printed { io.error(line) }
    let changes = try TemplateProgramRun.changes(from: files, to: result.files)
    for change in changes {
        if case let .write(path, _, _) = change { try DocumentPath.validate(path, allowFolioFolder: false) }
    }
    return (changes, programs.map(\.name).joined(separator: ", "), files)
}

/// cookiecutter's `pre_prompt` hook, when the template has one and it is trusted: run confined in a copy of the
/// template's folder before any question; the template is then what it left there. Untrusted, it does not run, as
/// cookiecutter skips it when hooks are not accepted, and a note says so.
private func runPrePrompt(_ template: Template, reader: PromptReader, _ args: Arguments, _ io: CommandIO) throws -> Template {
    guard let hook = try template.prePromptHook() else { return template }
    let listed = [hook] + ((try? template.programs(answers: [:])) ?? [])
    guard try templateProgramsTrusted({ listed }, location: template.source.location, reader: reader, args, io) else {
        io.error("note: the template's pre_prompt hook was not run (\(hook.name.shownAsText)): its questions are as the template wrote them; --trust runs it confined")
        return template
    }
    let result = try templateProgramRun(args, io).run([hook], files: template.folderFiles(), projectName: "template")
    for line in result.printed { io.error(line) }
    return try template.afterPrePrompt(result.files)
}

/// Whether a template's programs (`programs`, listed when the user is asked; nil: it has none) may run: `--trust`, a
/// source the user said yes to before, or a yes now on a terminal (remembered for the source); never with
/// `--defaults` alone. `--allow-network` without trust is refused.
func templateProgramsTrusted(_ programs: (() throws -> [TemplateProgram])?, location: String, reader: PromptReader,
                             _ args: Arguments, _ io: CommandIO) throws -> Bool {
    let remembered = TrustedProgramSources(environment: io.environment)
    var trusted = args.flag("--trust")
    if !trusted, programs != nil, try remembered.contains(location) { trusted = true }
    if !trusted, let programs, io.isInteractive, !args.flag("--defaults") {
        trusted = try askToRun(try programs(), from: location, reader: reader, io)
        if trusted { try remembered.record(location) }
    }
    if !trusted, args.flag("--allow-network") { throw UsageError("--allow-network lets trusted hooks and tasks reach the network: give --trust too") }
    return trusted && programs != nil
}

/// How trusted template programs run: confined, with the network only when `--allow-network`, for the settings' time.
func templateProgramRun(_ args: Arguments, _ io: CommandIO) throws -> TemplateProgramRun {
    let settings = try DocumentStore(environment: io.environment).settings
    return TemplateProgramRun(isolation: PluginIsolation(environment: io.environment), environment: io.environment,
                              network: args.flag("--allow-network"), timeout: settings.templateProgramTimeout)
}

/// A template's message (its author's text), line by line, shown as text.
private func printMessage(_ message: String, _ io: CommandIO) {
    for line in message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).reversed().drop(while: \.isEmpty).reversed() {
        io.error(line.shownAsText)
    }
}

/// Asks on the terminal whether to run a template's programs (named, as text), confined; a yes is remembered for the
/// source.
private func askToRun(_ programs: [TemplateProgram], from location: String, reader: PromptReader, _ io: CommandIO) throws -> Bool {
    guard !programs.isEmpty else { return false }
    io.line("The template from '\(location.shownAsText)' runs programs when a project is made:")
    for program in programs { io.line("  \(program.shown.shownAsText)") }
    io.out("Run them confined (they may change only the new project, with no network and none of your keys or tokens)? [y/N]: ")
    guard let answer = try reader.readLine() else { return false }
    return ["y", "yes"].contains(answer.trimming(.whitespaces).lowercased())
}
