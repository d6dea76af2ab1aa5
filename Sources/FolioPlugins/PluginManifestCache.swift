import FolioCore
import FoundationEssentials
import Glibc
import Synchronization

/// Generated manifests of libraries found without one beside them (the bundled plugins, a `.so` dropped into a plugin
/// folder), so that discovery probes a library once per build of it, not once per run. Kept in memory for the process
/// and on disk in `$XDG_CACHE_HOME/folio/plugin-manifests/`, one file per library path, holding the library's file
/// identity (device, inode, size, modification and change times to the nanosecond) and what probing it gave: the
/// manifest, or the refusal when it would refuse again (a refusal that may not repeat, such as a load that passed its
/// deadline on a busy machine, is kept for `retryDelay` only, so that a hanging library does not cost every run its
/// deadline). A library whose identity changed (rebuilt, replaced, touched) is probed again. A cache file that cannot
/// be read is ignored and rewritten.
struct PluginManifestCache: Sendable {
    /// The cache folder; nil keeps generated manifests in memory only.
    let folder: URL?
    let isolation: PluginIsolation

    /// The identity of a library file: what changes whenever its content can have changed.
    struct FileKey: Codable, Hashable, Sendable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: [Int64]
        var changed: [Int64]

        /// The key of the file at `url` (its real path), nil when it cannot be inspected.
        init?(_ url: URL) {
            let real = url.resolvingSymlinksInPath().path
            var info = stat()
            guard stat(real, &info) == 0 else { return nil }
            guard info.st_mode & S_IFMT == S_IFREG else { errno = EINVAL; return nil }  // a FIFO or device is never probed
            path = real
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = [Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
            changed = [Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)]
        }
    }

    /// One cache file: the key and the manifest or the refusal, which is kept until `expires` (seconds since 1970)
    /// when it may not repeat.
    struct Entry: Codable, Sendable {
        var key: FileKey
        var manifest: PluginManifest?
        var refusal: String?
        var expires: Double?

        /// Whether the entry still stands at `now`.
        func isCurrent(for key: FileKey, now: Date) -> Bool {
            self.key == key && (manifest != nil || refusal != nil) && (expires.map { now.timeIntervalSince1970 < $0 } ?? true)
        }
    }

    /// How long a refusal that may not repeat (a timeout) is kept.
    static let retryDelay: TimeInterval = 300

    /// Entries found or made in this process, by real path (a test process discovers the same bundled plugins often).
    private static let memory = Mutex<[String: Entry]>([:])

    /// The cache of `isolation`'s environment; in memory only when the isolation keeps no state (it was not made
    /// for an environment, as in tests and benchmarks).
    init(isolation: PluginIsolation) {
        folder = isolation.stateFolder == nil ? nil
            : FolioPaths(environment: isolation.environment).cacheHome.appendingPathComponent("plugin-manifests")
        self.isolation = isolation
    }

    /// The cache file of the library at real path `path`.
    func fileURL(forLibraryAt path: String) -> URL? {
        folder?.appendingPathComponent(String(SHA256.hex(Data(path.utf8)).prefix(32)) + ".json")
    }

    /// The manifest of `library` and the file it is cached in, from the cache or generated now.
    func manifest(for library: URL) throws -> (PluginManifest, URL) {
        let (key, url) = try identity(of: library)
        return try outcome(of: try cached(key) ?? generate(library, key: key, to: url), library: library, url: url)
    }

    /// What the cache already says of `library` without probing it: its manifest or refusal, or the refusal when the
    /// file cannot be inspected; nil when it must be probed (`manifest(for:)`). Cheap: discovery reads these in turn
    /// and probes only the rest at the same time.
    func cachedManifest(for library: URL) -> Result<(PluginManifest, URL), any Error>? {
        let identity: (key: FileKey, url: URL)
        do { identity = try self.identity(of: library) } catch { return .failure(error) }
        guard let entry = try? cached(identity.key) else { return nil }
        return Result { try outcome(of: entry, library: library, url: identity.url) }
    }

    /// The file key of `library` and its cache file.
    private func identity(of library: URL) throws -> (FileKey, URL) {
        guard let key = FileKey(library) else {
            throw PluginRefusal(file: library.path, reason: "cannot inspect it: \(String(cString: strerror(errno)))")
        }
        return (key, fileURL(forLibraryAt: key.path) ?? library)
    }

    /// The manifest an entry holds (named for the library as found), or its refusal.
    private func outcome(of entry: Entry, library: URL, url: URL) throws -> (PluginManifest, URL) {
        if let manifest = entry.manifest {
            guard manifest.library == library.lastPathComponent else {
                // The same file reached under another name (a link): the manifest names the library as found.
                var renamed = manifest
                renamed.library = library.lastPathComponent
                return (renamed, url)
            }
            return (manifest, url)
        }
        throw PluginRefusal(file: library.path, reason: entry.refusal ?? "it could not be described")
    }

    /// The entry for `key` if one is cached for exactly this file. A cache file that cannot be read (anything but a
    /// regular file in its place, never waited on) is a miss, as a damaged one is: a cache is never worth an error.
    private func cached(_ key: FileKey) throws -> Entry? {
        let now = Date()
        if let entry = Self.memory.withLock({ $0[key.path] }), entry.isCurrent(for: key, now: now) { return entry }
        guard let url = fileURL(forLibraryAt: key.path), let data = try? ConfigFile.read(url),
              // JSONDecoder, not StrictJSON: the file key's inode and device are UInt64, exact beyond 2^53.
              (try? JSONNode.parse(data)) != nil,
              let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.isCurrent(for: key, now: now) else { return nil }
        if let manifest = entry.manifest, (try? manifest.validate()) == nil { return nil }
        Self.memory.withLock { $0[key.path] = entry }
        return entry
    }

    /// Probes the library and keeps the manifest or the refusal (one that may not repeat for `retryDelay`).
    private func generate(_ library: URL, key: FileKey, to url: URL) throws -> Entry {
        switch PluginManifest.describe(library: library, isolation: isolation) {
        case let .success(manifest):
            return store(Entry(key: key, manifest: manifest), to: url)
        case let .failure(failure) where failure.lasting:
            return store(Entry(key: key, refusal: failure.refusal.reason), to: url)
        case let .failure(failure):
            let minutes = Int(Self.retryDelay / 60)
            return store(Entry(key: key, refusal: failure.refusal.reason + " (tried again in \(minutes) minutes or when the file changes)",
                               expires: Date().timeIntervalSince1970 + Self.retryDelay), to: url)
        }
    }

    /// Keeps `entry` in memory and, best effort, on disk (a cache that cannot be written costs a probe next run).
    private func store(_ entry: Entry, to url: URL) -> Entry {
        Self.memory.withLock { $0[entry.key.path] = entry }
        guard let folder else { return entry }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(entry) {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try? AtomicFile.write(data, to: url, sync: false, mode: 0o600)
        }
        return entry
    }
}
