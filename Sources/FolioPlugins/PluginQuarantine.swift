import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc
import Synchronization

/// One crash or timeout of a plugin host.
public struct PluginStrike: Codable, Sendable, Equatable {
    public var time: Date
    public var editor: String
    public var command: String
    /// "SIGSEGV", "did not answer within 5 s", "protocol violation: …".
    public var cause: String
}

/// A plugin build (the SHA-256 of its library file) with its recent strikes, and whether it is quarantined.
public struct PluginBuildRecord: Codable, Sendable, Equatable {
    public var sha256: String
    public var plugin: String
    public var library: String
    public var strikes: [PluginStrike]
    /// When the build was quarantined; nil while it is not.
    public var quarantined: Date?
    /// Why it is quarantined when not for its own strikes (the quarantine file was damaged); nil otherwise.
    public var reason: String?

    /// One line: why it is quarantined (or its strikes so far).
    public var summary: String {
        if let reason { return reason }
        guard let last = strikes.last else { return "no crashes recorded" }
        let what = quarantined != nil ? "quarantined after \(strikes.count) crashes or timeouts within 10 minutes" : "\(strikes.count) recent crash(es) or timeout(s)"
        return "\(what); last: \(last.cause) in '\(last.command)' (editor '\(last.editor)') at \(Timestamps.iso8601(last.time))"
    }
}

/// The plugin quarantine: a plugin build that crashes or times out three times within ten minutes is not loaded
/// again until the user enables it. Kept in `STATE/plugin-quarantine.json`, written atomically under a `flock`
/// so that concurrent `folio` processes do not lose each other's strikes.
///
/// It fails closed: a file that cannot be read or is not a quarantine (bad JSON, a folder, a FIFO) is renamed to
/// `plugin-quarantine.json.damaged-<time>` (kept for the user) and replaced by a file that remembers the damage. Its
/// records are lost, so from then on every build of every plugin not bundled with Folio counts as quarantined (with
/// a reason naming the damaged file and where it was set aside) until the user enables that plugin.
public struct PluginQuarantine: Sendable {
    /// Strikes within this window count.
    public static let window: TimeInterval = 600
    /// This many strikes within the window quarantine the build.
    public static let strikes = 3

    public let file: URL

    /// The quarantine kept in `folder` (normally `$XDG_STATE_HOME/folio`).
    public init(folder: URL) { file = folder.appendingPathComponent("plugin-quarantine.json") }

    private struct State: Codable {
        var version = 1
        var builds: [PluginBuildRecord] = []
        /// Set once a damaged file was set aside (and kept from then on).
        var damaged: Damage?
    }

    /// A damaged quarantine file that was set aside: when, why, where it went, and the plugins enabled since.
    private struct Damage: Codable {
        var time: Date
        var problem: String
        /// Where the damaged file now is; nil when it could not be moved (the state folder cannot be written).
        var setAside: String?
        /// Plugin ids the user enabled since: no longer quarantined for the damage.
        var enabled: [String] = []

        func record(library: URL, plugin: String) -> PluginBuildRecord {
            let moved = setAside.map { "was set aside as \($0)" } ?? "could not be set aside"
            let reason = "quarantined because the quarantine file was damaged (\(problem)) and \(moved) at "
                + Timestamps.iso8601(time) + "; its records are lost, so every plugin not bundled with Folio stays quarantined until enabled"
            return PluginBuildRecord(sha256: PluginQuarantine.hash(library) ?? "", plugin: plugin, library: library.path, strikes: [],
                                     quarantined: time, reason: reason)
        }
    }

    /// The record of the build at `library` when it has one (the file is hashed only when some record names
    /// this library or plugin, so the common case reads one small file or none). While a damaged quarantine file is
    /// remembered, a plugin that is not `bundled` and was not enabled since has a quarantined record saying so.
    public func record(library: URL, plugin: String, bundled: Bool = false) -> PluginBuildRecord? {
        let state = load()
        if let damage = state.damaged, !bundled, !damage.enabled.contains(plugin) { return damage.record(library: library, plugin: plugin) }
        guard state.builds.contains(where: { $0.plugin == plugin || $0.library == library.path }) else { return nil }
        guard let hash = Self.hash(library) else { return nil }
        return state.builds.first { $0.sha256 == hash }
    }

    /// The quarantine record of the build at `library`, nil when it may be loaded.
    public func quarantined(library: URL, plugin: String, bundled: Bool = false) -> PluginBuildRecord? {
        record(library: library, plugin: plugin, bundled: bundled).flatMap { $0.quarantined != nil ? $0 : nil }
    }

    /// Records a crash or timeout; returns the build's record (quarantined on the third strike within the window).
    @discardableResult
    public func strike(library: URL, plugin: String, _ strike: PluginStrike) -> PluginBuildRecord? {
        guard let hash = Self.hash(library) else { return nil }
        return update { state in
            var record = state.builds.first { $0.sha256 == hash }
                ?? PluginBuildRecord(sha256: hash, plugin: plugin, library: library.path, strikes: [], quarantined: nil)
            record.library = library.path
            record.strikes = record.strikes.filter { strike.time.timeIntervalSince($0.time) < Self.window } + [strike]
            record.strikes = Array(record.strikes.suffix(10))
            if record.quarantined == nil, record.strikes.count >= Self.strikes { record.quarantined = strike.time }
            state.builds.removeAll { $0.sha256 == hash }
            state.builds.append(record)
            return record
        }
    }

    /// Lifts the quarantine and forgets the strikes of every build of `plugin` (and, after a damaged file, its
    /// quarantine for the damage); returns how many quarantines were lifted.
    @discardableResult
    public func enable(plugin: String, bundled: Bool = false) -> Int {
        update { state in
            var count = state.builds.filter { $0.plugin == plugin && $0.quarantined != nil }.count
            state.builds.removeAll { $0.plugin == plugin }
            if !bundled, var damage = state.damaged, !damage.enabled.contains(plugin) {
                damage.enabled.append(plugin)
                damage.enabled.sort()
                state.damaged = damage
                count += 1
            }
            return count
        } ?? 0
    }

    /// Every record (for listings).
    public func records() -> [PluginBuildRecord] { load().builds }

    /// The SHA-256 of the library file, remembered per file identity (device, inode, size, change time) in this process.
    static func hash(_ library: URL) -> String? {
        let path = library.resolvingSymlinksInPath().path
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                    changed: Int64(info.st_ctim.tv_sec), changedNanoseconds: Int64(info.st_ctim.tv_nsec))
        if let known = hashes.withLock({ $0[path] }), known.identity == identity { return known.hash }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let hash = SHA256.hex(data)
        hashes.withLock { $0[path] = (identity, hash) }
        return hash
    }

    private struct FileIdentity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, changed: Int64, changedNanoseconds: Int64
    }
    private static let hashes = Mutex<[String: (identity: FileIdentity, hash: String)]>([:])

    /// The file's state; a damaged file is set aside (under the lock) and the state remembering it returned. When it
    /// cannot be set aside (the folder cannot be written) the damage is still remembered, for this process.
    private func load() -> State {
        let stored = read()
        guard case let .damaged(problem) = stored else { return stored.state }
        return update { $0 } ?? State(damaged: Damage(time: Date(), problem: problem))
    }

    /// What the file holds: nothing, a state, or damage (why it cannot be used).
    private enum Stored {
        case absent, state(State), damaged(String)
        var state: State { if case let .state(state) = self { return state } else { return State() } }
    }

    private func read() -> Stored {
        do {
            guard let data = try ConfigFile.read(file) else { return .absent }
            // strict: duplicate keys, lone surrogates and bad UTF-8 are damage too
            let state = try StrictJSON.decode(State.self, from: data, strictAt: [], dates: .iso8601)
            guard state.version == 1 else { return .damaged("version \(state.version) is not supported") }
            return .state(state)
        } catch let error as FolioError {
            if case let .unreadableFile(_, reason) = error { return .damaged(reason) }
            return .damaged("\(error)")
        } catch {
            return .damaged(JSONKeys.describe(error))
        }
    }

    /// The state for a read-modify-write (the caller holds the lock): a damaged file is renamed aside first, and the
    /// new state remembers it; nil when it cannot be moved (then nothing may be written over it).
    private func loadForUpdate() -> State? {
        let stored = read()
        guard case let .damaged(problem) = stored else { return stored.state }
        guard let aside = try? ConfigFile.setAside(file) else { return nil }
        return State(damaged: Damage(time: Date(), problem: problem, setAside: aside.path))
    }

    /// Read-modify-write under an exclusive `flock` on a lock file beside the state; nil when the folder cannot be written.
    private func update<T>(_ change: (inout State) -> T) -> T? {
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lockFD = open(folder.appendingPathComponent("plugin-quarantine.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else { return nil }
        defer { close(lockFD) }
        while flock(lockFD, LOCK_EX) != 0 && errno == EINTR {}
        guard var state = loadForUpdate() else { return nil }
        let result = change(&state)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(state), (try? AtomicFile.write(data, to: file, sync: false)) != nil else { return nil }
        return result
    }
}

/// A plugin build that may not be loaded: which editor, which plugin, and why.
public struct PluginQuarantinedError: Error, CustomStringConvertible, Sendable {
    public let editor: String
    public let record: PluginBuildRecord

    public var description: String {
        "editor '\(editor)' is quarantined (plugin \(record.plugin) \(record.summary))"
    }
}
