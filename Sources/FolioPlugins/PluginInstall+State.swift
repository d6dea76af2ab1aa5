import FolioCore
import FoundationEssentials
import Glibc

/// One state per plugin, shown by `folio plugins list`: enabled, disabled by the user, quarantined after crashes,
/// or changed behind Folio's back. Disabled and changed plugins are listed but never loaded; a quarantined build is
/// listed and refused when used (its documents show as text). `folio plugins enable ID` returns any of them to enabled
/// (a changed file only after it passes `folio plugins check`, and its new hash is recorded).
public enum PluginState: Sendable, Equatable {
    case enabled
    case disabled
    case quarantined(PluginBuildRecord)
    /// The installed library's SHA-256 is not the one recorded at install (`actual` nil: the file cannot be read),
    /// or the plugin sits in the installed folder without an entry in the lock file (`recorded` nil).
    case changed(recorded: String?, actual: String?)

    /// One word: `enabled`, `disabled`, `quarantined`, `changed`.
    public var word: String {
        switch self {
        case .enabled: return "enabled"
        case .disabled: return "disabled"
        case .quarantined: return "quarantined"
        case .changed: return "changed"
        }
    }

    /// Whether Folio loads the plugin (a quarantined build is loaded only after `enable`).
    public var isLoadable: Bool { self == .enabled }

    /// One line saying why the plugin is not enabled, nil when it is (facts only: the command line adds how to enable it).
    public var explanation: String? {
        switch self {
        case .enabled: return nil
        case .disabled: return "disabled; not loaded"
        case let .quarantined(record): return "QUARANTINED: \(record.summary)"
        case let .changed(recorded, actual):
            let what: String
            switch (recorded, actual) {
            case (nil, _): what = "not recorded in \(PluginLock.fileName) (not put there by the installer)"
            case (_, nil): what = "its library cannot be read"
            case let (recorded?, actual?): what = "its library changed since it was installed (SHA-256 \(actual.prefix(12))…, recorded \(recorded.prefix(12))…)"
            }
            return "CHANGED: \(what); not loaded until reinstalled or enabled"
        }
    }
}

/// A discovered plugin that is not loaded, and why.
public struct InactivePlugin: Sendable, Equatable {
    public let plugin: DiscoveredPlugin
    public let state: PluginState
}

/// The lock files of a search path and the states they give the plugins found on it.
struct PluginStates {
    /// Installed folders (holding a lock file or the installer's lock) → their lock, or the error reading it.
    private(set) var locks: [(folder: URL, lock: Result<PluginLock, Error>)] = []
    /// The same folders' links files (`PluginLinks`), read once with their locks.
    private var links: [(folder: URL, links: Result<PluginLinks, Error>)] = []

    /// Reads the lock and the links file of every non-bundled folder that has one.
    init(searchPath: PluginSearchPath) {
        for folder in searchPath.folders where !folder.bundled && PluginInstaller.isInstalledFolder(folder.url) {
            locks.append((folder.url, Result { try PluginLock.load(in: folder.url) }))
            links.append((folder.url, Result { try PluginLinks.load(in: folder.url) }))
        }
    }

    /// Every folder to scan: each search folder, and after an installed folder its plugin folders (`<folder>/<id>/`).
    func expanded(_ searchPath: PluginSearchPath) -> [PluginSearchPath.Folder] {
        searchPath.folders.flatMap { folder -> [PluginSearchPath.Folder] in
            guard locks.contains(where: { $0.folder == folder.url }) else { return [folder] }
            return [folder] + PluginInstaller.pluginFolders(in: folder.url).map { .init($0, bundled: false) }
        }
    }

    /// Refusals for lock files that cannot be read, and for links files (`PluginLinks`) that cannot be read (their
    /// links are then not followed).
    var refusals: [PluginRefusal] {
        locks.compactMap { entry in
            guard case let .failure(error) = entry.lock else { return nil }
            return PluginRefusal(file: entry.folder.appendingPathComponent(PluginLock.fileName).path,
                                 reason: "\(error); the plugins installed beside it are not loaded")
        } + links.compactMap { entry in
            guard case let .failure(error) = entry.links else { return nil }
            return PluginRefusal(file: entry.folder.appendingPathComponent(PluginLinks.fileName).path, reason: "\(error); no linked build is used")
        }
    }

    /// What `plugin` is granted: for a plugin installed in one of the folders, what its lock entry records that its
    /// manifest still declares; for a linked build, what its link records; otherwise nothing.
    func granted(to plugin: DiscoveredPlugin) -> PluginPermissions {
        let pluginFolder = plugin.library.deletingLastPathComponent().standardizedFileURL
        for (folder, lock) in locks {
            if pluginFolder.deletingLastPathComponent().path == folder.standardizedFileURL.path {
                guard case let .success(lock) = lock, let entry = lock.entry(plugin.manifest.id), let granted = entry.granted else { return .none }
                return plugin.manifest.declaredPermissions.intersection(granted)
            }
            if case let .success(links)? = links.first(where: { $0.folder == folder })?.links,
               let link = links.links.first(where: { URL(fileURLWithPath: $0.library).standardizedFileURL.path == plugin.library.standardizedFileURL.path }),
               link.id == plugin.manifest.id {
                return link.granted ?? .none
            }
        }
        return .none
    }

    /// The state of `plugin` (quarantine is not looked at here: it is per build and checked when used).
    func state(of plugin: DiscoveredPlugin) -> PluginState {
        for (folder, lock) in locks {
            if case let .success(lock) = lock, lock.disabled.contains(plugin.manifest.id) { return .disabled }
            // A plugin installed in `<folder>/<id>/`: its file must be the one recorded.
            let pluginFolder = plugin.library.deletingLastPathComponent().standardizedFileURL
            guard pluginFolder.deletingLastPathComponent().path == folder.standardizedFileURL.path else { continue }
            guard case let .success(lock) = lock else { return .changed(recorded: nil, actual: nil) }
            guard let entry = lock.entry(pluginFolder.lastPathComponent), entry.id == plugin.manifest.id,
                  entry.library == plugin.library.lastPathComponent else {
                return .changed(recorded: nil, actual: PluginQuarantine.hash(plugin.library))
            }
            if let stamp = FileStamp.of(plugin.library), stamp == entry.stamp { return .enabled }
            let actual = PluginQuarantine.hash(plugin.library)
            return actual == entry.sha256 ? .enabled : .changed(recorded: entry.sha256, actual: actual)
        }
        return .enabled
    }
}
