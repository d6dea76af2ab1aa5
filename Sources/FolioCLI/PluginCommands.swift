import FolioCore
import FolioLaunch
import FolioPlugins
import FolioTerminal
import FoundationEssentials
import FolioBasics
import Glibc

/// The plugin host for a command: the standard search path of the command's environment; plugins run isolated
/// with the limits of `settings` (the user's settings when nil).
func pluginHost(_ io: CommandIO, settings: Settings? = nil) -> EditorRegistry {
    EditorRegistry(environment: io.environment, settings: settings)
}

/// The start of a command that will call an editor (`view`, `edit`): the document store (with the settings, read
/// once) and, when it opens, a plugin host started at once (`PluginIsolation.withSpareHost`), so that the host's start
/// overlaps opening the document and scanning the plugins. A broken settings file is thrown by `store()`.
struct EditorCommandStart {
    private let opened: Result<DocumentStore, any Error>
    private let isolation: PluginIsolation?

    init(_ io: CommandIO) {
        opened = Result { try DocumentStore(environment: io.environment) }
        isolation = (try? opened.get()).map { PluginIsolation.standard(environment: io.environment, settings: $0.settings).withSpareHost() }
    }

    /// The store to open the document with; its `settings` are the command's.
    func store() throws -> DocumentStore { try opened.get() }

    /// The plugin registry, whose first editor call takes the host already started.
    func host(_ io: CommandIO, settings: Settings) -> EditorRegistry {
        EditorRegistry(environment: io.environment, settings: settings, isolation: isolation)
    }
}

/// Runs `body`; a quarantined editor's error gets the hint how to enable it again.
func withQuarantineHint<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as PluginQuarantinedError {
        throw QuarantineHint(error: error)
    }
}

/// A quarantined editor's error with the command that enables it again.
struct QuarantineHint: Error, CustomStringConvertible {
    let error: PluginQuarantinedError
    var description: String { "\(error); to try it again: folio plugins enable \(error.record.plugin)" }
}

/// A failure of the command line's own (no library error describes it).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private struct PluginListing: Encodable {
    struct Entry: Encodable {
        let id: String
        let name: String
        let version: String
        let abi: Int
        let library: String
        let manifest: String
        let bundled: Bool
        let editors: [EditorManifest]
        /// Set when the plugin's build is quarantined or has recent crashes.
        let quarantine: PluginBuildRecord?
        /// `enabled`, `disabled`, `quarantined` or `changed` (disabled and changed plugins are not loaded).
        let state: String
        /// Why it is not enabled.
        let stateDetail: String?
    }
    /// An installed copy not loaded because a linked development build of the same plugin is used instead.
    struct Shadowed: Encodable {
        let id: String
        let library: String
        let linkedBuild: String
    }
    let plugins: [Entry]
    let shadowed: [Shadowed]
    let refused: [String]
}

private func listingEntry(_ plugin: DiscoveredPlugin, _ host: EditorRegistry) -> PluginListing.Entry {
    let state = host.state(of: plugin)
    return PluginListing.Entry(id: plugin.manifest.id, name: plugin.manifest.name, version: plugin.manifest.version, abi: plugin.manifest.abi,
                               library: plugin.library.path, manifest: plugin.manifestURL.path, bundled: plugin.bundled, editors: plugin.manifest.editors,
                               quarantine: host.quarantineRecord(plugin), state: state.word, stateDetail: stateLine(plugin, host))
}

/// The line under a plugin saying why it is not enabled and how to enable it, or its recent crashes.
private func stateLine(_ plugin: DiscoveredPlugin, _ host: EditorRegistry) -> String? {
    let id = plugin.manifest.id.shownAsText
    switch host.state(of: plugin) {
    case .enabled: return quarantineLine(host.quarantineRecord(plugin), id)
    case let .changed(recorded, actual):
        return (PluginState.changed(recorded: recorded, actual: actual).explanation ?? "") + " (folio plugins enable \(id) checks it first)"
    case let state: return (state.explanation ?? "") + "; enable with: folio plugins enable \(id)"
    }
}

/// The quarantine line of a plugin, when it has one.
private func quarantineLine(_ record: PluginBuildRecord?, _ id: String) -> String? {
    guard let record else { return nil }
    return record.quarantined != nil ? "QUARANTINED: \(record.summary.shownAsText); enable with: folio plugins enable \(id)" : "warning: \(record.summary.shownAsText)"
}

/// One line per command: usage, shortcut and title, each the plugin's text shown as text (an escape sequence in a
/// title must not reach the terminal, a newline must not start a line of its own).
private func describeCommands(_ commands: [EditorCommand], _ io: CommandIO) {
    let rows = commands.map { (usage: $0.usage.shownAsText, key: ($0.shortcut ?? "").shownAsText, title: $0.title.shownAsText) }
    let usageWidth = rows.map(\.usage.count).max() ?? 0
    let keyWidth = rows.map(\.key.count).max() ?? 0
    for row in rows {
        io.line("  " + row.usage.padded(toLength: usageWidth + 2)
                + row.key.padded(toLength: keyWidth + 2) + row.title)
    }
}

/// Content type identifiers as one comma-separated field.
private func typeList(_ types: [ContentType]) -> String { types.map(\.identifier.shownAsText).joined(separator: ", ") }

/// `folio plugins list`: every plugin found, its state and editors, and the plugins refused.
private func listPlugins(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    try args.expectAtMost(1)
    let host = pluginHost(io)
    if args.flag("--json") {
        let shadowed = host.duplicates.filter(\.linked).map {
            PluginListing.Shadowed(id: $0.refused.manifest.id, library: $0.refused.library.path, linkedBuild: $0.kept.path)
        }
        try io.json(PluginListing(plugins: host.allPlugins.map { listingEntry($0, host) }, shadowed: shadowed, refused: host.refusals.map(\.description)))
        return 0
    }
    if host.allPlugins.isEmpty { io.line("No plugins found.") }
    for plugin in host.allPlugins {
        let state = host.state(of: plugin)
        let m = plugin.manifest
        io.line("\(m.id.shownAsText)  \(m.name.shownAsText) \(m.version.shownAsText)  \(state.word)\(plugin.bundled ? "  (bundled)" : "")  \(plugin.library.path.shownAsText)")
        if let line = stateLine(plugin, host) { io.line("  " + line) }
        for editor in m.editors {
            io.line("  \(editor.id.shownAsText): \(typeList(editor.contentTypes)) (\(editor.priority.rawValue))")
        }
    }
    for duplicate in host.duplicates where duplicate.linked {
        io.line("\(duplicate.refused.library.path.shownAsText): shadowed by the linked build \(duplicate.kept.path.shownAsText) (folio plugins unlink \(duplicate.refused.manifest.id.shownAsText))")
    }
    for refusal in host.refusals { io.error(refusal.description.shownAsText + lockRepairHint(refusal)) }
    io.line("plugin confinement: \(FolioCommandLine.pluginConfinement(io).shownAsText)")
    return 0
}

/// `folio plugins info ID`: one plugin, its package, editors, declared types and commands.
private func describePlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let id = try args.positional(1, "ID")
    try args.expectAtMost(2)
    let host = pluginHost(io)
    guard let plugin = host.anyPlugin(id) else { throw PluginError.unknownPluginOrEditor(id: id) }
    if args.flag("--json") { try io.json(listingEntry(plugin, host)); return 0 }
    let m = plugin.manifest
    io.line("\(m.name.shownAsText) \(m.version.shownAsText) (\(m.id.shownAsText)), plugin ABI \(m.abiVersion), \(host.state(of: plugin).word)")
    if let line = stateLine(plugin, host) { io.line(line) }
    io.line("library:  \(plugin.library.path.shownAsText)")
    io.line("manifest: \(plugin.manifestURL.path.shownAsText)")
    describePackage(plugin, io)
    for editor in m.editors {
        io.line("")
        io.line("editor \(editor.id.shownAsText) \"\(editor.name.shownAsText)\" (\(editor.priority.rawValue)) for \(typeList(editor.contentTypes))")
        for type in editor.declaredTypes {
            io.line("  declares \(type.identifier.identifier.shownAsText) conforming to \(typeList(type.conformsTo))"
                    + (type.extensions.isEmpty ? "" : ", extensions \(type.extensions.map(\.shownAsText).joined(separator: ", "))"))
        }
        if !editor.extensions.isEmpty { io.line("  capabilities: \(editor.extensions.map(\.shownAsText).joined(separator: ", "))") }
        io.line("  commands:")
        describeCommands(editor.commands, io)
    }
    return 0
}

/// `folio plugins check FILE.so`: whether a library loads as a plugin, checked in a plugin host process (`--check`).
private func checkPlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let file = try args.positional(1, "FILE.so")
    try args.expectAtMost(2)
    let report = EditorRegistry.check(library: io.url(file), isolation: .standard(environment: io.environment))
    if args.flag("--json") {
        try io.json(report)
    } else if report.ok {
        let name = (report.name ?? "?").shownAsText, version = (report.version ?? "?").shownAsText, id = (report.id ?? "?").shownAsText
        io.line("ok: \(report.library.shownAsText): \(name) \(version) (\(id)), plugin ABI \((report.abi ?? "?").shownAsText)\(report.swift.map { ", Swift \($0)" } ?? "")")
        for editor in report.editors {
            io.line("  editor \(editor.id.shownAsText) for \(typeList(editor.contentTypes)) (\(editor.priority.rawValue)): "
                    + editor.commands.map(\.id.shownAsText).joined(separator: ", "))
        }
        if let printed = PluginProbeOutput(report).summary { io.error("folio plugins: warning: \(report.library.shownAsText): \(printed) (Folio discards it)") }
    } else {
        io.error((report.refusal ?? "\(report.library): plugin refused").shownAsText)
    }
    return report.ok ? 0 : FolioCommandLine.failure
}

/// `folio plugins manifest FILE.so`: the manifest generated from the library's own descriptor.
private func printGeneratedManifest(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    // In a plugin host process (for install scripts).
    let file = try args.positional(1, "FILE.so")
    try args.expectAtMost(2)
    let manifest = try PluginManifest.generate(forLibrary: io.url(file), isolation: .standard(environment: io.environment))
    io.out(CommandIO.escapingControls(json: String(decoding: try manifest.encodedForFile(), as: UTF8.self)))
    return 0
}

let pluginCommands: [Command] = [
    Command("plugins", summary: "List, describe, check, describe the manifest of, install, pack, link, unlink, remove, disable, enable, repair, validate or test editor plugins",
            usesGit: false, verbs: [
        Verb("plugins list [--json]", listPlugins), Verb("plugins info ID [--json]", describePlugin),
        Verb("plugins check FILE.so [--json]", checkPlugin), Verb("plugins manifest FILE.so", printGeneratedManifest),
        Verb("plugins install PACKAGE|PATH.so|DIR [--grant] [--json]", installPlugin), Verb("plugins pack DIR [-o FILE]", packPlugin),
        Verb("plugins link DIR [--grant]", linkPlugin), Verb("plugins unlink ID", unlinkPlugin), Verb("plugins remove ID", removePlugin),
        Verb("plugins disable ID", disablePlugin), Verb("plugins enable ID", enablePlugin), Verb("plugins repair", repairPlugins),
        Verb("plugins validate FILE.so|DIR [--json] [--document FILE]... [--timeout SECONDS] [--call-deadline MS] [--render-deadline MS] [--seed N] [--calls N] [--only TEST]",
             validatePlugin),
        Verb("plugins validate FILE.so|DIR --list [--document FILE]...", listValidationTests),
        Verb("plugins log ID", printPluginLog),
        Verb("plugins test DIR [NAME]... [--update]", testPluginProject),
    ]),
    Command("types", summary: "List content types, including those plugins declare", verbs: [Verb("types list [--json]") { args, io in
        try args.expectAtMost(1)
        let registry = pluginHost(io).contentTypes
        if args.flag("--json") { try io.json(registry.all); return 0 }
        let width = registry.all.map(\.identifier.identifier.shownAsText.count).max() ?? 0
        for type in registry.all {
            var line = type.identifier.identifier.shownAsText.padded(toLength: width + 2)
            line += type.conformsTo.isEmpty ? "(root)" : "→ " + typeList(type.conformsTo)
            if !type.extensions.isEmpty { line += "  ." + type.extensions.map(\.shownAsText).joined(separator: " .") }
            line += "  [\(type.declaredBy.shownAsText)]"
            io.line(line)
        }
        return 0
    }]),
    Command("edit", usage: "edit PATH COMMAND [ARGS...] [--selection N|A-B] [--editor ID] [--json]",
            summary: "Apply one editor command to a document as one change") { args, io in
        let path = try args.positional(0, "PATH")
        let command = try args.positional(1, "COMMAND")
        let selection = try args.value("--selection").map(ViewSelection.parse(option:)) ?? ViewSelection()
        let start = EditorCommandStart(io)
        let store = try start.store()
        let document = try openDocument(path, io, store: store)
        let settings = store.settings
        let host = start.host(io, settings: settings)
        reportUsageNotices(host, type: document.metadata.contentType, settings: settings, editor: args.value("--editor"), command: "edit", io)
        let outcome = try withQuarantineHint {
            try host.edit(document, command: command, arguments: Array(args.positionals.dropFirst(2)),
                                                        selection: selection, associations: settings.editorAssociations, editor: args.value("--editor"))
        }
        RecentDocuments(environment: io.environment).record(document)
        warnIfWorkTreeBehind(document, io)
        if args.flag("--json") {
            struct Edited: Encodable { let path: String; let editor: String; let description: String; let changed: Bool; let commit: String? }
            try io.json(Edited(path: document.url.path, editor: outcome.editor, description: outcome.description,
                               changed: outcome.commit != nil, commit: outcome.commit))
        } else if let commit = outcome.commit {
            io.line("[\(commit.prefix(7))] \(outcome.description.shownAsText)")
        } else {
            io.line("No change: \(outcome.description.shownAsText)")
        }
        return 0
    },
    Command("commands", usage: "commands PATH [--editor ID] [--json]", summary: "List the commands of a document's editor") { args, io in
        let document = try documentArgument(args, io)
        let settings = try Settings.load(environment: io.environment)
        let editor = try pluginHost(io).chooseEditor(for: document, associations: settings.editorAssociations, override: args.value("--editor"))
        if args.flag("--json") { try io.json(editor); return 0 }
        io.line("\(editor.name.shownAsText) (\(editor.id.shownAsText)) for \(document.metadata.contentType.identifier.shownAsText):")
        describeCommands(editor.commands, io)
        return 0
    },
    Command("view", usage: "view PATH [--at REV] [--width W] [--height H] [--cursor N] [--editor ID] [--json]",
            summary: "Print a version (default: the newest) as its editor shows it") { args, io in
        try ViewCommand.run(args, io)
    },
]

/// Timings of the plugin paths, for `folio-bench`.
public struct PluginBenchmarkTimings: Sendable {
    /// Scanning the search path and reading manifests (no plugin code runs).
    public var discovery: Duration = .zero
    /// The edit's parts: starting the plugin's host process and loading the plugin there, checked against its manifest
    /// (`load`); inside the plugin, reading the document, applying the command and writing the bytes (`open`, `apply`,
    /// `serialize`); writing the commit through the document store (`commit`).
    public var edit = EditTimings()
    /// Everything, from opening the document to the commit.
    public var total: Duration = .zero
}

/// Hooks that time plugin discovery, first load and one headless edit.
public enum PluginBenchmarks {
    /// Times discovery on the standard search path and the first load of the editor for `contentType` (its plugin host
    /// started and the plugin loaded there).
    public static func discoverAndLoad(contentType: String, environment: [String: String]) throws -> PluginBenchmarkTimings {
        let clock = ContinuousClock()
        var timings = PluginBenchmarkTimings()
        let start = clock.now
        let host = EditorRegistry(searchPath: .standard(environment: environment))
        timings.discovery = clock.now - start
        let editor = try host.chooseEditor(for: ContentType(contentType)).editor
        let loadStart = clock.now
        try host.warmUp(editor.id)
        timings.edit.load = clock.now - loadStart
        timings.total = clock.now - start
        return timings
    }

    /// The plugin registry of the benchmarks, its plugins run in their host processes as in the product.
    static func host(_ environment: [String: String], quarantine: Bool = true, standby: Bool = false, confined: Bool = true) -> EditorRegistry {
        var isolation = PluginIsolation.standard(environment: environment)
        isolation.standby = standby
        isolation.confined = confined
        if !quarantine { isolation.stateFolder = nil }
        return EditorRegistry(searchPath: .standard(environment: environment), isolation: isolation)
    }

    /// Times `folio edit PATH COMMAND ARGS…` (without printing), split into the plugin's part and the commit; with a new
    /// plugin registry, so it includes starting the host process.
    public static func edit(document path: URL, command: String, arguments: [String], environment: [String: String]) throws -> PluginBenchmarkTimings {
        let clock = ContinuousClock()
        let start = clock.now
        let document = try DocumentStore(environment: environment).open(at: path)
        let host = host(environment)
        let outcome = try host.edit(document, command: command, arguments: arguments)
        var timings = PluginBenchmarkTimings()
        timings.edit = outcome.timings
        timings.total = clock.now - start
        return timings
    }

    /// `count` edits (toggles) on one open document through one plugin host that is already running: an editor
    /// command in the editor host. Each duration is open + apply + serialize + commit.
    public static func warmEdits(document path: URL, count: Int, environment: [String: String]) throws -> [Duration] {
        let document = try DocumentStore(environment: environment).open(at: path)
        let host = host(environment)
        _ = try host.edit(document, command: "toggle", arguments: ["1"])
        let clock = ContinuousClock()
        return try (0..<count).map { i in
            let start = clock.now
            _ = try host.edit(document, command: "toggle", arguments: ["\(2 + i)"])
            return clock.now - start
        }
    }

    /// Each editor frame (the plugin's view of the visible part, the host frame, the changed bytes) with the cursor
    /// moving down a line per frame, after one warm-up frame.
    public static func frames(document path: URL, count: Int, width: Int = 100, height: Int = 30, environment: [String: String]) throws -> [Duration] {
        let document = try DocumentStore(environment: environment).open(at: path)
        let session = DocumentSessionAdapter(document: document, host: host(environment), associations: [:])
        return LaunchBenchmarks.editorFrames(session, count: count, width: width, height: height)
    }

    /// A fresh plugin host ready: spawned, handshaken, the plugin of `editor` loaded and checked against its manifest.
    public static func hostReady(editor: String, count: Int, environment: [String: String]) throws -> [Duration] {
        let clock = ContinuousClock()
        return try (0..<count).map { _ in
            let host = host(environment)
            let start = clock.now
            try host.warmUp(editor)
            return clock.now - start
        }
    }

    /// What confinement costs: `count` rounds, each a fresh host ready (spawned, checklist plugin loaded and checked,
    /// and confined or not), one toggle on `path` committed (sync as the settings say) and one view of 100×30 rendered;
    /// the confined and the unconfined host take turns, so that both see the same machine.
    public static func confinementCost(document path: URL, count: Int, environment: [String: String]) throws -> (confined: [Duration], unconfined: [Duration]) {
        let document = try DocumentStore(environment: environment).open(at: path)
        let clock = ContinuousClock()
        var confined: [Duration] = [], unconfined: [Duration] = []
        for round in 0..<(2 * count) {
            let confine = round % 2 == 0
            let host = host(environment, confined: confine)
            let start = clock.now
            try host.warmUp("checklist")
            _ = try host.edit(document, command: "toggle", arguments: ["\(round % 100 + 1)"])
            let view = DocumentSessionAdapter(document: document, host: host, associations: [:])
                .render(RenderRequest(width: 100, height: 30, selection: .items(cursor: 1)))
            let elapsed = clock.now - start
            guard view.failure == nil, !view.shown.isEmpty else { throw CommandFailure("no view: \(view.shown.first ?? "")") }
            if confine { confined.append(elapsed) } else { unconfined.append(elapsed) }
        }
        return (confined, unconfined)
    }

    /// Recovery after a crash in the editor: the host dies (SIGSEGV), the next frame reports it in one line, the one
    /// after starts a fresh host, reopens the document and renders. Each duration runs from the signal to that frame.
    /// With `standby`, a loaded standby host is kept (as in a long editor session) and the timing starts once it is up.
    public static func recovery(document path: URL, count: Int, environment: [String: String], standby: Bool = false) throws -> [Duration] {
        let document = try DocumentStore(environment: environment).open(at: path)
        let host = host(environment, standby: standby)
        let session = DocumentSessionAdapter(document: document, host: host, associations: [:])
        _ = session.render(RenderRequest(width: 100, height: 30, selection: .items(cursor: 0)))
        let clock = ContinuousClock()
        var durations: [Duration] = []
        for i in 0..<count {
            guard let pid = host.hostProcessIDs.first else { throw CommandFailure("no plugin host is running") }
            usleep(300_000)  // not timed: the user works a while before the crash (a standby host is loaded by then)
            let start = clock.now
            kill(pid, SIGSEGV)
            let request = RenderRequest(width: 100, height: 30, selection: .items(cursor: i + 1))
            let report = session.render(request)
            guard report.failure?.contains("crashed (SIGSEGV)") == true else { throw CommandFailure("no crash report: \(report.shown.first ?? "")") }
            let back = session.render(request)
            durations.append(clock.now - start)
            guard back.failure == nil, !back.shown.isEmpty else { throw CommandFailure("not recovered: \(back.shown.first ?? "")") }
            // Not timed: forget the strike so that the repetitions do not quarantine the checklist.
            if let plugin = host.plugins.first(where: { $0.manifest.editors.contains { $0.id == "checklist" } }) {
                host.isolation.quarantine?.enable(plugin: plugin.manifest.id)
            }
        }
        return durations
    }
}
