import Dispatch
import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import Synchronization

/// `folio sync --watch …` and `folio sync PATH --continuous on|off …`; nil for a plain `folio sync`.
func continuousSyncVariant(_ args: Arguments, _ io: CommandIO) throws -> Int32? {
    if args.flag("--watch") {
        if args.value("--continuous") != nil { throw UsageError("--watch and --continuous do not go together") }
        return try watchCommand(args, io)
    }
    guard let setting = args.value("--continuous") else {
        if args.value("--interval") != nil { throw UsageError("--interval goes with --continuous or --watch") }
        return nil
    }
    guard let on = ["on": true, "off": false][setting] else { throw UsageError("--continuous takes on or off, got '\(setting)'") }
    let document = try documentArgument(args, io)
    let interval = try syncIntervalArgument(args)
    try document.setContinuousSync(on, interval: interval)
    let seconds = try document.effectiveSyncInterval(settings: Settings.load(environment: io.environment))
    if args.flag("--json") {
        struct Continuous: Encodable { let path: String; let continuous: Bool; let interval: Double }
        try io.json(Continuous(path: document.url.path, continuous: on, interval: seconds))
    } else if on {
        io.line("Continuous sync on for \(document.url.path) (every \(intervalText(seconds)) s); 'folio sync --watch' or an open window keeps it in sync")
    } else {
        io.line("Continuous sync off for \(document.url.path)")
    }
    return 0
}

/// `--interval SECONDS` (1 to 86400), nil when not given.
func syncIntervalArgument(_ args: Arguments) throws -> Double? {
    guard let text = args.value("--interval") else { return nil }
    guard let seconds = Double(text), Settings.syncIntervalRange.contains(seconds) else {
        throw UsageError("--interval takes seconds from 1 to 86400, got '\(text)'")
    }
    return seconds
}

private func intervalText(_ seconds: Double) -> String {
    Int(exactly: seconds).map(String.init) ?? String(seconds)
}

/// `folio share PATH NAME URL`: add the remote, push, turn continuous sync on.
let shareCommand = Command("share", usage: "share PATH NAME URL [--timeout SECONDS] [--json]",
                           summary: "Share a document: add a remote, push to it, and turn continuous sync on") { args, io in
    let document = try openDocument(try args.positional(0, "PATH"), io)
    let name = try args.positional(1, "NAME")
    let location = remoteLocation(try args.positional(2, "URL"), io)
    try args.expectAtMost(3)
    let pushed = try document.share(remote: name, url: location, options: transferOptions(io, args, label: "Pushing"))
    if args.flag("--json") {
        struct Shared: Encodable { let path: String; let remote: String; let url: String; let commit: String; let continuous: Bool }
        try io.json(Shared(path: document.url.path, remote: name, url: location, commit: pushed.commit.hex, continuous: true))
    } else {
        io.line("Shared \(document.url.path) as \(name) \(location): pushed \(pushed.commit.short); continuous sync on")
    }
    return 0
}

/// `folio sync --watch [--interval SECONDS] [PATH...]`: a sync loop per document in the foreground, one line per
/// notable event, until SIGINT or SIGTERM (then every loop stops: a running transfer is cancelled, nothing is left
/// half-done) and exit 0. Without paths, the recent documents with continuous sync on, looked for again every minute.
func watchCommand(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let store = try DocumentStore(environment: io.environment)
    let interval = try syncIntervalArgument(args)
    var options = DocumentSyncLoop.Options(transferTimeout: try networkTimeout(args, io), environment: io.environment)
    if let interval {
        options.timings.interval = .milliseconds(Int((interval * 1000).rounded()))
        options.fixedInterval = true
    }
    let watch = SyncWatch(store: store, options: options, io: io)
    let given = args.positionals
    if given.isEmpty {
        watch.addRecentDocuments()
    } else {
        options.followsDocumentSetting = false  // documents named on the command line are synced whatever their setting
        watch.options = options
        for path in given { watch.add(try openDocument(path, io).url) }
    }
    io.line("\(SyncWatch.time(Date())) watching \(watch.count) document\(watch.count == 1 ? "" : "s")"
            + (given.isEmpty ? " with continuous sync on" : ""))
    watch.runUntilSignalled(rescanning: given.isEmpty)
    return 0
}

/// The loops of `folio sync --watch`.
final class SyncWatch: Sendable {
    private let store: DocumentStore
    private let io: CommandIO
    private let state: Mutex<(options: DocumentSyncLoop.Options, loops: [String: DocumentSyncLoop])>

    init(store: DocumentStore, options: DocumentSyncLoop.Options, io: CommandIO) {
        self.store = store
        self.io = io
        state = Mutex((options, [:]))
    }

    var options: DocumentSyncLoop.Options {
        get { state.withLock { $0.options } }
        set { state.withLock { $0.options = newValue } }
    }

    var count: Int { state.withLock { $0.loops.count } }

    /// Starts a loop for the document at `url` (once per document).
    func add(_ url: URL) {
        let io = self.io
        let environment = io.environment
        let loop = state.withLock { state -> DocumentSyncLoop? in
            guard state.loops[url.path] == nil else { return nil }
            let loop = DocumentSyncLoop(document: url, store: store, options: state.options,
                                        semanticMerger: { semanticMerger(environment: environment) }) { event in
                guard event.isNotable else { return }
                io.line("\(SyncWatch.time(event.date)) \(url.path): \(event.line)")
            }
            state.loops[url.path] = loop
            return loop
        }
        loop?.start()
    }

    /// Adds the recent documents that exist and have continuous sync on.
    func addRecentDocuments() {
        let entries = (try? RecentDocuments(environment: io.environment).load()) ?? []
        for entry in entries where RecentDocuments.exists(entry) {
            guard let document = try? store.open(at: URL(fileURLWithPath: entry.path), readOnly: true), document.continuousSync else { continue }
            add(document.url)
        }
    }

    /// Waits for SIGINT or SIGTERM (or the command's cancel), then stops every loop.
    func runUntilSignalled(rescanning: Bool) {
        let signalled = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "folio.sync-watch.signals")
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)  // delivered to the dispatch source instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { signalled.signal() }
            source.resume()
            return source
        }
        var nextScan = Date().addingTimeInterval(60)
        while signalled.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            if io.isCancelled?() == true { break }
            if rescanning, Date() >= nextScan {
                let before = count
                addRecentDocuments()
                if count > before { io.line("\(Self.time(Date())) watching \(count) documents with continuous sync on") }
                nextScan = Date().addingTimeInterval(60)
            }
        }
        let loops = state.withLock { Array($0.loops.values) }
        for loop in loops { loop.cancel() }
        for loop in loops { loop.stop() }
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// `14:03:07`, local time.
    static func time(_ date: Date) -> String {
        Timestamps.localClock(date)
    }
}

/// The editors' semantic merge for a loop's thread.
func semanticMerger(environment: [String: String]) -> (any SemanticMerging)? {
    let associations = (try? Settings.load(environment: environment))?.editorAssociations ?? [:]
    return PluginSemanticMerger(host: EditorRegistry(environment: environment), associations: associations)
}

/// `folio status --json`'s `sharing`: the state and its summary line.
struct SharingReport: Encodable {
    let summary: String
    let state: SharingState
}

/// `folio status`'s sharing line: `sharing: synced 5 s ago (continuous, origin)`, with the last problem when there is one.
func sharingLine(_ state: SharingState) -> String {
    var details: [String] = []
    if state.phase != .notShared { details.append(state.continuous ? "continuous sync on" : "continuous sync off") }
    if let remote = state.remote { details.append(remote.shownAsText) }
    var line = "sharing: \(state.summary())" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    if let problem = state.problem { line += "; \(problem.shownAsText)" }
    return line
}
