import FolioGit
import FoundationEssentials
import Glibc

/// How hard a change is pushed to disk before it is acknowledged.
public enum SyncMode: String, Codable, Sendable {
    /// fsync objects, refs and the work-tree file before acknowledging a change.
    case full
    /// No fsync: still consistent after a process crash, not after a power loss.
    case none
}

/// A template source saved in the settings.
public struct TemplateSourceSetting: Codable, Sendable, Equatable {
    public var name: String
    public var url: String
    public var ref: String?
    public init(name: String, url: String, ref: String? = nil) { self.name = name; self.url = url; self.ref = ref }
}

/// Limits on rendering a Mustache template, from `"mustache": {"maxOutputBytes": …, "maxDepth": …, "maxSteps": …}`;
/// a key left out keeps Folio's default (64 MiB of output, 100 levels, 20 million steps).
public struct MustacheLimitSettings: Codable, Sendable, Equatable {
    /// The most bytes one rendered file may have.
    public var maxOutputBytes: Int?
    /// The deepest nesting of sections, partials, parents and blocks (at most 1,000).
    public var maxDepth: Int?
    /// The most tags and section repetitions one render may go through.
    public var maxSteps: Int?

    enum CodingKeys: String, CodingKey, CaseIterable { case maxOutputBytes, maxDepth, maxSteps }
}

extension MustacheLimitSettings {
    // In an extension, so that the memberwise initializer stays (nil keeps the default).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(maxOutputBytes: try positive(container, .maxOutputBytes), maxDepth: try positive(container, .maxDepth, atMost: 1_000),
                  maxSteps: try positive(container, .maxSteps))
    }
}

/// Limits on snapshotting a plain template folder into the cache, from `"templateFolders": {"maxFiles": …,
/// "maxBytes": …}`; a key left out keeps Folio's default (10,000 files, 256 MiB).
public struct TemplateFolderLimitSettings: Codable, Sendable, Equatable {
    /// The most files a template folder may hold.
    public var maxFiles: Int?
    /// The most bytes (all files together) a template folder may hold.
    public var maxBytes: Int?

    enum CodingKeys: String, CodingKey, CaseIterable { case maxFiles, maxBytes }
}

extension TemplateFolderLimitSettings {
    // In an extension, so that the memberwise initializer stays (nil keeps the default).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(maxFiles: try positive(container, .maxFiles), maxBytes: try positive(container, .maxBytes))
    }
}

/// A limit from the settings: absent, or a whole number from 1 to `atMost`.
private func positive<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key, atMost maximum: Int = Int.max) throws -> Int? {
    guard let value = try container.decodeIfPresent(Int.self, forKey: key) else { return nil }
    guard value >= 1 && value <= maximum else {
        let range = maximum == Int.max ? "a whole number of at least 1" : "a whole number from 1 to \(maximum)"
        throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected \(range), got \(value)")
    }
    return value
}

/// The user's Folio settings, kept in `$XDG_CONFIG_HOME/folio/settings.json`.
public struct Settings: Codable, Sendable, Equatable {
    public struct Author: Codable, Sendable, Equatable {
        public var name: String
        public var email: String
        public init(name: String, email: String) { self.name = name; self.email = email }
    }
    /// The commit author; nil means git config, then the login name and host.
    public var author: Author?
    public var sync: SyncMode
    /// Named colors for the terminal UI (`accent`, `title`, …) as `#rrggbb` or color names.
    public var colors: [String: String]
    public var templateSources: [TemplateSourceSetting]
    /// Content type identifier → editor id chosen by the user.
    public var editorAssociations: [String: String]
    /// Limits on rendering templates; nil keeps the defaults.
    public var mustache: MustacheLimitSettings?
    /// Limits on snapshotting plain template folders; nil keeps the defaults.
    public var templateFolders: TemplateFolderLimitSettings?
    /// Limits of the plugin host processes (`pluginLimits`); absent fields take the defaults.
    public var pluginLimits = PluginLimitSettings()
    /// Seconds a fetch, push or clone may go without progress before it gives up (`networkTimeout`, 0.1 to 3600);
    /// nil keeps the default (30).
    public var networkTimeout: Double?
    /// Seconds between two looks at a shared document's remote under continuous sync (`syncInterval`, 1 to 86400);
    /// nil keeps the default (30). A document's own `folio.syncInterval` wins.
    public var syncInterval: Double?
    /// Seconds one of a trusted template's hooks or tasks may run before it is stopped (`templateProgramSeconds`, 1
    /// to 3600); nil keeps the default (120).
    public var templateProgramSeconds: Double?
    /// The most MiB one file arriving from a remote may have (`maxIncomingFileMiB`, 1 to 4,194,304); a fetch
    /// bringing a larger one is refused, naming it. nil keeps the default (1024: 1 GiB).
    public var maxIncomingFileMiB: Int?

    public init(author: Author? = nil, sync: SyncMode = .full, colors: [String: String] = [:],
                templateSources: [TemplateSourceSetting] = [], editorAssociations: [String: String] = [:],
                mustache: MustacheLimitSettings? = nil, templateFolders: TemplateFolderLimitSettings? = nil) {
        self.author = author
        self.sync = sync
        self.colors = colors
        self.templateSources = templateSources
        self.editorAssociations = editorAssociations
        self.mustache = mustache
        self.templateFolders = templateFolders
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case author, sync, colors, templateSources, editorAssociations, mustache, templateFolders, pluginLimits, networkTimeout, syncInterval,
             maxIncomingFileMiB, templateProgramSeconds
    }

    /// The keys allowed in each object of the settings file (nil: any key, as in `colors`).
    /// The objects whose keys are checked (each type's `CodingKeys` are its keys).
    static let strictPaths: Set<[String]> = [[], ["mustache"], ["templateFolders"], ["pluginLimits"]]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        author = try container.decodeIfPresent(Author.self, forKey: .author)
        sync = try container.decodeIfPresent(SyncMode.self, forKey: .sync) ?? .full
        colors = try container.decodeIfPresent([String: String].self, forKey: .colors) ?? [:]
        templateSources = try container.decodeIfPresent([TemplateSourceSetting].self, forKey: .templateSources) ?? []
        editorAssociations = try container.decodeIfPresent([String: String].self, forKey: .editorAssociations) ?? [:]
        mustache = try container.decodeIfPresent(MustacheLimitSettings.self, forKey: .mustache)
        templateFolders = try container.decodeIfPresent(TemplateFolderLimitSettings.self, forKey: .templateFolders)
        pluginLimits = try container.decodeIfPresent(PluginLimitSettings.self, forKey: .pluginLimits) ?? PluginLimitSettings()
        networkTimeout = try container.decodeIfPresent(Double.self, forKey: .networkTimeout)
        if let networkTimeout, !Self.networkTimeoutRange.contains(networkTimeout) {
            throw DecodingError.dataCorruptedError(forKey: .networkTimeout, in: container, debugDescription: "must be between 0.1 and 3600 seconds")
        }
        syncInterval = try container.decodeIfPresent(Double.self, forKey: .syncInterval)
        if let syncInterval, !Self.syncIntervalRange.contains(syncInterval) {
            throw DecodingError.dataCorruptedError(forKey: .syncInterval, in: container, debugDescription: "must be between 1 and 86400 seconds")
        }
        maxIncomingFileMiB = try positive(container, .maxIncomingFileMiB, atMost: Self.maxIncomingFileMiBLimit)
        templateProgramSeconds = try container.decodeIfPresent(Double.self, forKey: .templateProgramSeconds)
        if let templateProgramSeconds, !(1...3600).contains(templateProgramSeconds) {
            throw DecodingError.dataCorruptedError(forKey: .templateProgramSeconds, in: container, debugDescription: "must be between 1 and 3600 seconds")
        }
    }

    /// How long one of a trusted template's hooks or tasks may run (`templateProgramSeconds`, else 120 s).
    public var templateProgramTimeout: Duration { .milliseconds(Int((templateProgramSeconds ?? 120) * 1000)) }

    /// The most `maxIncomingFileMiB` may be (4 TiB).
    public static let maxIncomingFileMiBLimit = 1 << 22

    /// The most bytes one incoming file may have: `maxIncomingFileMiB`, else Folio's default (1 GiB).
    public var largestIncomingFile: Int {
        maxIncomingFileMiB.map { $0 << 20 } ?? IncomingRules.defaultLargestBlob
    }

    /// The seconds `syncInterval` may be.
    public static let syncIntervalRange: ClosedRange<Double> = 1...86_400

    /// Folio's default interval between two looks at a shared document's remote.
    public static let defaultSyncInterval: Double = 30

    /// The seconds `networkTimeout` may be.
    public static let networkTimeoutRange: ClosedRange<Double> = 0.1...3600

    /// How long a network transfer may go without progress: `networkTimeout`, else Folio's default (30 s).
    public var networkTimeoutDuration: Duration {
        networkTimeout.map { .milliseconds(Int(($0 * 1000).rounded())) } ?? TransferOptions.defaultTimeout
    }

    /// The settings file for an environment: `$XDG_CONFIG_HOME/folio/settings.json`, else `~/.config/folio/settings.json`.
    public static func fileURL(environment: [String: String]) -> URL {
        FolioPaths(environment: environment).configHome.appendingPathComponent("settings.json")
    }

    /// Loads the settings (defaults when there is no file); a malformed file, or anything but a regular file in its
    /// place, is an error naming it.
    public static func load(environment: [String: String]) throws -> Settings {
        try StrictJSON.load(Settings.self, from: fileURL(environment: environment), strictAt: strictPaths) ?? Settings()
    }

    /// Saves the settings atomically.
    public func save(environment: [String: String]) throws {
        let url = Self.fileURL(environment: environment)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: url, sync: false)
    }
}

extension Settings {
    /// `pluginLimits` in settings.json: deadlines in seconds, sizes in MiB; nil takes the default.
    public struct PluginLimitSettings: Codable, Sendable, Equatable {
        /// open, apply, serialize, semantic diff and merge (default 5).
        public var callSeconds: Double?
        /// one render (default 1).
        public var renderSeconds: Double?
        /// the host's address space (default 2048).
        public var memoryMiB: Int?
        /// the largest buffer a plugin may return (default 64).
        public var bufferMiB: Int?

        enum CodingKeys: String, CodingKey, CaseIterable { case callSeconds, renderSeconds, memoryMiB, bufferMiB }
    }
}

extension Settings.PluginLimitSettings {
    // In an extension, so that the memberwise initializer stays (nil keeps the default).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func seconds(_ key: CodingKeys) throws -> Double? {
            guard let value = try c.decodeIfPresent(Double.self, forKey: key) else { return nil }
            guard value.isFinite, value >= 0.01, value <= 3600 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "must be between 0.01 and 3600 seconds")
            }
            return value
        }
        func mebibytes(_ key: CodingKeys, _ range: ClosedRange<Int>) throws -> Int? {
            // Read as a number first: Foundation calls a number that does not fit an Int "not valid JSON".
            guard let number = try c.decodeIfPresent(Double.self, forKey: key) else { return nil }
            guard let value = Int(exactly: number), range.contains(value) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "must be between \(range.lowerBound) and \(range.upperBound) MiB")
            }
            return value
        }
        callSeconds = try seconds(.callSeconds)
        renderSeconds = try seconds(.renderSeconds)
        memoryMiB = try mebibytes(.memoryMiB, 64...(1 << 20))
        bufferMiB = try mebibytes(.bufferMiB, 1...1024)
    }
}

/// Folio's folders, from the XDG variables with the usual fallbacks. Each is worked out when asked (a file URL
/// looks at the file system to tell a folder): a command reading its settings needs only `configHome`.
public struct FolioPaths: Sendable {
    private let environment: [String: String]

    public init(environment: [String: String]) { self.environment = environment }

    /// `$XDG_CONFIG_HOME/folio`, else `~/.config/folio`.
    public var configHome: URL { folder("XDG_CONFIG_HOME", ".config") }
    /// `$XDG_CACHE_HOME/folio`, else `~/.cache/folio`.
    public var cacheHome: URL { folder("XDG_CACHE_HOME", ".cache") }
    /// `$XDG_DATA_HOME/folio`, else `~/.local/share/folio`.
    public var dataHome: URL { folder("XDG_DATA_HOME", ".local/share") }
    /// `$XDG_STATE_HOME/folio`, else `~/.local/state/folio`.
    public var stateHome: URL { folder("XDG_STATE_HOME", ".local/state") }

    /// The XDG variable when it is an absolute path, else `fallback` in the home folder; `folio` in it.
    private func folder(_ variable: String, _ fallback: String) -> URL {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value).appendingPathComponent("folio")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(fallback).appendingPathComponent("folio")
    }
}
