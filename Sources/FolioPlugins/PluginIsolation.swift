import FolioCore
import FoundationEssentials
import Glibc
import Synchronization

/// How a `EditorRegistry` runs plugin code: always in a plugin host process per plugin, with these limits and settings.
public struct PluginIsolation: Sendable {
    public var limits: PluginLimits
    /// The `folio` executable whose plugin host to start (or `folio-plugin-host` itself); nil: the running program's.
    public var executable: URL?
    /// Where the quarantine and the hosts' stderr log live (`$XDG_STATE_HOME/folio`); nil keeps neither.
    public var stateFolder: URL?
    /// The environment the hosts start with.
    public var environment: [String: String]
    /// Keep a standby host per plugin in use: spawned (and its plugin loaded) in the background once a host is up,
    /// so that after a crash, timeout or cancel the next call finds a loaded host at once. For long-lived sessions
    /// (the editor host); one-shot commands leave it off (they still start a fresh host right after a failure).
    public var standby: Bool = false
    /// A host started before Folio knows which plugin it will load (`withSpareHost()`); the first plugin to start a
    /// host takes it. Nil when none was asked for or its start failed (the plugin then starts its own, which reports why).
    var spare: SpareHost?
    /// Whether hosts confine themselves once their plugin is loaded (always, but for folio-bench's comparison).
    public var confined = true
    /// Whether crashes and timeouts count towards quarantining the build (not while its author tests it).
    public var quarantines = true

    /// Creates an isolation setting.
    public init(limits: PluginLimits = PluginLimits(), executable: URL? = nil, stateFolder: URL? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.limits = limits
        self.executable = executable
        self.stateFolder = stateFolder
        self.environment = environment
    }

    /// Isolated, with the limits of the user's settings and the state folder of `environment`.
    public static func standard(environment: [String: String], settings: Settings? = nil) -> PluginIsolation {
        let settings = settings ?? (try? Settings.load(environment: environment)) ?? Settings()
        return PluginIsolation(limits: PluginLimits(settings: settings.pluginLimits),
                               stateFolder: FolioPaths(environment: environment).stateHome, environment: environment)
    }

    /// This isolation with a plugin host started now, before any plugin is chosen, so that the host's start (about
    /// 4 ms) overlaps Folio's reading of the document and of the plugins; the first plugin to start a host takes it.
    /// For a one-shot command that will call an editor: a host nobody takes exits when Folio does (its end of the
    /// socket closes), and one that cannot start is left to the plugin's own start to report.
    public func withSpareHost() -> PluginIsolation {
        var isolation = self
        isolation.spare = SpareHost(isolation: self)
        return isolation
    }

    /// The quarantine, when there is a state folder.
    public var quarantine: PluginQuarantine? { quarantines ? stateFolder.map(PluginQuarantine.init(folder:)) : nil }

    /// The name of the plugin host executable.
    public static let hostName = "folio-plugin-host"

    /// The plugin host executable: `folio-plugin-host` beside `folio` (the running program, or `executable`), or in
    /// `../libexec/folio/` from there (an installed layout).
    package func hostExecutable() throws -> URL {
        var folders: [URL] = []
        if let executable {
            if executable.lastPathComponent == Self.hostName { return executable }
            folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        } else {
            folders.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
            if let folder = PluginSearchPath.executableFolder, !folders.contains(folder) { folders.append(folder) }
        }
        for folder in folders {
            for candidate in [folder.appendingPathComponent(Self.hostName),
                              folder.deletingLastPathComponent().appendingPathComponent("libexec/folio/\(Self.hostName)")] {
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.standardizedFileURL }
            }
        }
        throw PluginError.hostExecutableMissing(name: Self.hostName, looked: folders.map(\.path))
    }
}

/// One plugin's host process as a restartable service: started on first use, replaced after a crash, a timeout or a
/// cancel, and refused while the plugin's build is quarantined. Calls are serialized; `cancel()` is not.
final class IsolatedPlugin: Sendable {
    let plugin: DiscoveredPlugin
    let isolation: PluginIsolation

    private struct State: ~Copyable {
        var connection: PluginHostConnection?
        /// The host's `ready` and the load reply have not been read yet (they are read by the first call, so that
        /// Folio reads the document while the host starts).
        var loadSequence: UInt32?
        /// Bumped each time a host is replaced: documents of older generations are gone.
        var generation = 0
        var pendingReleases: [Int64] = []
        /// A refusal from loading, kept so that every call reports it without restarting the host.
        var refusal: PluginRefusal?
        /// A host already started (its ready and load replies unread) that the next start takes over.
        var standby: (connection: PluginHostConnection, loadSequence: UInt32)?
    }
    private let state = Mutex(State())
    /// The connection a call is running on, for `cancel()` (separate from `state`, which the call holds).
    private let running = Mutex<PluginHostConnection?>(nil)
    private let nextDocument = Atomic<Int64>(1)

    init(plugin: DiscoveredPlugin, isolation: PluginIsolation) {
        self.plugin = plugin
        self.isolation = isolation
    }

    /// Kills the host if a call is running (from any thread); that call throws `PluginHostFailure` (.cancelled).
    func cancel() {
        running.withLock { $0?.cancel() }
    }

    /// The running host's process id, nil when none runs (for tests; blocks while a call runs).
    var hostPID: pid_t? { state.withLock { $0.connection?.pid } }

    /// The standby host's process id, nil when none waits (for tests).
    var standbyPID: pid_t? { state.withLock { $0.standby?.connection.pid } }

    /// The current host generation.
    var generation: Int { state.withLock { $0.generation } }

    func newDocumentID() -> Int64 { nextDocument.add(1, ordering: .relaxed).oldValue }

    /// Forgets a document in the host (sent before the next call; nothing to do when that host is gone).
    func release(_ id: Int64, generation: Int) {
        state.withLock { state in
            if state.generation == generation, state.connection != nil { state.pendingReleases.append(id) }
        }
    }

    /// Starts the host now (without waiting for it) so that it loads while the caller reads the document.
    func prepare(editor: String) throws {
        try state.withLock { state in try start(&state, editor: editor, command: "load") }
    }

    /// Runs one call: starts a host when there is none, waits for its load, sends the request and returns the reply.
    /// A crash, timeout or cancel kills and reaps the host, records a strike, and throws one `PluginHostFailure`.
    func call(_ kind: PluginWire.Kind, editor: String, command: String, fields: [Data], limit: Duration,
              generation expected: Int? = nil) throws -> (PluginWire.Message, generation: Int) {
        let (reply, generation) = try exchange(kind, editor: editor, command: command, fields: fields, limit: limit, generation: expected)
        guard let reply else { throw PluginWire.WireError.violation("no reply") }
        return (reply, generation)
    }

    /// Starts the host if needed and waits until the plugin is loaded (or throws why it is not).
    func ready(editor: String) throws {
        _ = try exchange(nil, editor: editor, command: "load", fields: [], limit: isolation.limits.call, generation: nil)
    }

    /// `call`, or with no `kind` only the start and load.
    private func exchange(_ kind: PluginWire.Kind?, editor: String, command: String, fields: [Data], limit: Duration,
                          generation expected: Int?) throws -> (PluginWire.Message?, generation: Int) {
        if let largest = fields.map(\.count).max(), largest > isolation.limits.buffer {
            // Refused before the host sees it: a large document is not the plugin's fault and costs no strike.
            throw EditorOperationError(editor: editor, operation: command, kind: .invalidDocument,
                                       message: "the input is \(largest) bytes, over the plugin buffer limit of \(isolation.limits.buffer) bytes (pluginLimits.bufferMiB)")
        }
        return try state.withLock { state -> (PluginWire.Message?, generation: Int) in
            if let expected, expected != state.generation { throw StaleDocument() }
            try start(&state, editor: editor, command: command)
            guard let connection = state.connection else { throw StaleDocument() }
            running.withLock { $0 = connection }
            defer { running.withLock { $0 = nil } }
            do {
                let early = try sendBehindLoad(kind, editor: editor, fields: fields, state: state, connection: connection)
                if let loadSequence = state.loadSequence {
                    let deadline = ContinuousClock.now + isolation.limits.call
                    let ready = try connection.reply(to: 0, deadline: deadline)
                    guard ready.kind == .ready, try ready.integer(0) == Int64(PluginWire.version) else {
                        throw PluginWire.WireError.violation("the host did not start with a ready message")
                    }
                    let loaded = try connection.reply(to: loadSequence, deadline: deadline)
                    state.loadSequence = nil
                    if isolation.standby, state.standby == nil, loaded.kind != .failure {
                        state.standby = try? spawnLoading(editor: editor, command: command)
                    }
                    if loaded.kind == .failure {
                        let refusal = PluginRefusal(file: (try? loaded.string(2)) ?? plugin.library.path, reason: PluginText.description(try loaded.field(1)))
                        state.refusal = refusal
                        throw refusal
                    }
                    if let refusal = checkDescription(loaded) {
                        state.refusal = refusal
                        throw refusal
                    }
                    guard try loaded.string(0).split(separator: "\n").contains(where: { $0 == editor }) else {
                        let refusal = PluginRefusal(file: plugin.library.path, reason: "the library does not provide editor '\(editor)'")
                        state.refusal = refusal
                        throw refusal
                    }
                }
                if let expected, expected != state.generation { throw StaleDocument() }
                guard let kind else { return (nil, state.generation) }
                let deadline = ContinuousClock.now + limit
                let sequence: UInt32
                if let early { sequence = early } else {
                    for id in state.pendingReleases {
                        try connection.post(.release, [Data(editor.utf8), PluginWire.integerField(id)], deadline: limit)
                    }
                    state.pendingReleases = []
                    sequence = try connection.send(kind, [Data(editor.utf8)] + fields, deadline: deadline)
                }
                var reply = try connection.reply(to: sequence, deadline: deadline)
                let refused = connection.takeRefusals()
                if reply.kind == .failure { reply.refused = refused }
                return (reply, state.generation)
            } catch let refusal as PluginRefusal {
                replace(&state)
                state.standby = nil
                state.refusal = refusal
                throw refusal
            } catch let stale as StaleDocument {
                throw stale
            } catch {
                let cause = connection.terminate(after: error, limit: state.loadSequence != nil ? isolation.limits.call : limit)
                var failure = PluginHostFailure(editor: editor, command: state.loadSequence != nil ? "load" : command, cause: cause,
                                                refused: connection.takeRefusals())
                if failure.isStrike, let log = isolation.pluginLog(plugin.manifest.id) { failure.stderr = PluginHostLog.lastLines(of: connection.pid, in: log) }
                replace(&state)
                if failure.isStrike, let quarantine = isolation.quarantine {
                    quarantine.strike(library: plugin.library, plugin: plugin.manifest.id,
                                      PluginStrike(time: Date(), editor: editor, command: failure.command, cause: failure.strikeCause))
                }
                // A fresh host starts now, so that the next call (the user's next key) does not wait for a whole start.
                if state.standby == nil, isolation.quarantine?.quarantined(library: plugin.library, plugin: plugin.manifest.id, bundled: plugin.bundled) == nil {
                    state.standby = try? spawnLoading(editor: editor, command: command)
                }
                throw failure
            }
        }
    }

    /// The largest request sent behind a load: it fits the socket's buffer, so sending it never waits for the host.
    static let behindLoadBytes = 64 * 1024

    /// On a host whose load is not answered yet, sends the call's request at once, behind the load request (the host
    /// answers in order), so that the host runs it as soon as the plugin is loaded instead of a round trip later; its
    /// reply is read after the load's, which is checked first as before (a refused load discards the host unread).
    /// Nil (nothing sent) for no call, a host already loaded, releases waiting, or a request over `behindLoadBytes`.
    private func sendBehindLoad(_ kind: PluginWire.Kind?, editor: String, fields: [Data], state: borrowing State,
                                connection: PluginHostConnection) throws -> UInt32? {
        guard let kind, state.loadSequence != nil, state.pendingReleases.isEmpty,
              fields.reduce(0, { $0 + $1.count }) <= Self.behindLoadBytes else { return nil }
        return try connection.send(kind, [Data(editor.utf8)] + fields, deadline: ContinuousClock.now + isolation.limits.call)
    }

    /// The refusal when the library the host loaded is not what its manifest says (id, ABI, version, editors).
    private func checkDescription(_ loaded: PluginWire.Message) -> PluginRefusal? {
        do {
            let described = try PluginDescription(loaded)
            try PluginManifestCheck.check(library: plugin.library, id: described.id, abiMajor: described.abiMajor,
                                          version: described.version, editors: described.editors, against: plugin.manifest, manifestURL: plugin.manifestURL)
            return nil
        } catch let refusal as PluginRefusal {
            return refusal
        } catch {
            return PluginRefusal(file: plugin.library.path, reason: "the plugin host described the library badly: \(error)")
        }
    }

    /// Drops the host: the next call starts a fresh one.
    private func replace(_ state: inout State) {
        state.connection = nil
        state.loadSequence = nil
        state.generation += 1
        state.pendingReleases = []
    }

    /// Makes a host current unless one is: the standby if there is one, else a new one; refuses quarantined builds.
    private func start(_ state: inout State, editor: String, command: String) throws {
        if let refusal = state.refusal { throw refusal }
        guard state.connection == nil else { return }
        if let record = isolation.quarantine?.quarantined(library: plugin.library, plugin: plugin.manifest.id, bundled: plugin.bundled) {
            state.standby = nil
            throw PluginQuarantinedError(editor: editor, record: record)
        }
        if let standby = state.standby {
            state.standby = nil
            state.connection = standby.connection
            state.loadSequence = standby.loadSequence
            return
        }
        let (connection, loadSequence) = try spawnLoading(editor: editor, command: command)
        state.connection = connection
        state.loadSequence = loadSequence
    }

    /// Spawns a host (or takes the spare one) and sends it the load request without waiting for the reply.
    private func spawnLoading(editor: String, command: String) throws -> (PluginHostConnection, UInt32) {
        let connection: PluginHostConnection
        do {
            connection = try isolation.spare?.take() ?? PluginHostConnection.spawn(executable: try isolation.hostExecutable(), limits: isolation.limits,
                                                                                    log: isolation.hostLog, environment: isolation.environment,
                                                                                    confined: isolation.confined)
        } catch {
            throw PluginHostFailure(editor: editor, command: command, cause: .spawnFailed("\(error)"))
        }
        do {
            let grant = plugin.granted.grant(home: isolation.environment["HOME"])
            return (connection, try connection.send(.load, [Data(plugin.library.path.utf8), Data(grant.encoded)], deadline: .now + isolation.limits.call))
        } catch {
            let cause = connection.terminate(after: error, limit: isolation.limits.call)
            throw PluginHostFailure(editor: editor, command: "load", cause: cause)
        }
    }
}

/// A plugin host started ahead of its plugin: spawned at once, its `ready` left unread, handed to the first taker.
final class SpareHost: Sendable {
    private let connection: Mutex<PluginHostConnection?>

    init(isolation: PluginIsolation) {
        connection = Mutex(try? PluginHostConnection.spawn(executable: try isolation.hostExecutable(), limits: isolation.limits,
                                                           log: isolation.hostLog, environment: isolation.environment, confined: isolation.confined))
    }

    /// The waiting host's process id, nil once taken or when it did not start (for tests).
    var pid: pid_t? { connection.withLock { $0?.pid } }

    /// The host, once: later calls get nil.
    func take() -> PluginHostConnection? {
        connection.withLock { connection in
            defer { connection = nil }
            return connection
        }
    }
}

/// A document opened in a host that has since been replaced.
struct StaleDocument: Error, CustomStringConvertible {
    var description: String { "the editor was restarted; open the document again" }
}
