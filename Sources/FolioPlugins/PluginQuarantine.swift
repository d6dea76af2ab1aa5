import FolioCore
import Foundation
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

    /// One line: why it is quarantined (or its strikes so far).
    public var summary: String {
        guard let last = strikes.last else { return "no crashes recorded" }
        let what = quarantined != nil ? "quarantined after \(strikes.count) crashes or timeouts within 10 minutes" : "\(strikes.count) recent crash(es) or timeout(s)"
        return "\(what); last: \(last.cause) in '\(last.command)' (editor '\(last.editor)') at \(ISO8601DateFormatter().string(from: last.time))"
    }
}

/// The plugin quarantine: a plugin build that crashes or times out three times within ten minutes is not loaded
/// again until the user enables it. Kept in `STATE/plugin-quarantine.json`, written atomically under a `flock`
/// so that concurrent `folio` processes do not lose each other's strikes.
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
    }

    /// The record of the build at `library` when it has one (the file is hashed only when some record names
    /// this library or plugin, so the common case reads one small file or none).
    public func record(library: URL, plugin: String) -> PluginBuildRecord? {
        let state = load()
        guard state.builds.contains(where: { $0.plugin == plugin || $0.library == library.path }) else { return nil }
        guard let hash = Self.hash(library) else { return nil }
        return state.builds.first { $0.sha256 == hash }
    }

    /// The quarantine record of the build at `library`, nil when it may be loaded.
    public func quarantined(library: URL, plugin: String) -> PluginBuildRecord? {
        record(library: library, plugin: plugin).flatMap { $0.quarantined != nil ? $0 : nil }
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

    /// Lifts the quarantine and forgets the strikes of every build of `plugin`; returns how many builds were enabled.
    @discardableResult
    public func enable(plugin: String) -> Int {
        update { state in
            let count = state.builds.filter { $0.plugin == plugin && $0.quarantined != nil }.count
            state.builds.removeAll { $0.plugin == plugin }
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

    private func load() -> State {
        guard let data = FileManager.default.contents(atPath: file.path) else { return State() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode(State.self, from: data)) ?? State()
    }

    /// Read-modify-write under an exclusive `flock` on a lock file beside the state; nil when the folder cannot be written.
    private func update<T>(_ change: (inout State) -> T) -> T? {
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lockFD = open(folder.appendingPathComponent("plugin-quarantine.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else { return nil }
        defer { close(lockFD) }
        while flock(lockFD, LOCK_EX) != 0 && errno == EINTR {}
        var state = load()
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
