import FolioCore
import FolioPluginABI
import FoundationEssentials
import FolioBasics
import Dispatch
import Glibc
import Synchronization

/// A plugin found on the search path: its manifest and files. Listing needs nothing more; code loads on first use.
public struct DiscoveredPlugin: Sendable, Equatable {
    public let manifest: PluginManifest
    /// The shared object.
    public let library: URL
    /// The manifest file it was described by.
    public let manifestURL: URL
    /// Whether it is one of Folio's own bundled plugins.
    public let bundled: Bool
    /// What its host grants it beyond nothing: what the user granted at install (or link) that its manifest still
    /// declares; nothing for a plugin Folio did not install (bundled, or on `FOLIO_PLUGIN_PATH`).
    public internal(set) var granted: PluginPermissions = .none
}

/// The registry of editor plugins inside Folio (not the host process): discovers plugins on the search path, chooses
/// editors for documents, and runs their calls in each plugin's `folio-plugin-host` process.
public final class EditorRegistry: Sendable {
    /// The plugins that passed discovery, in search-path order.
    public let plugins: [DiscoveredPlugin]
    /// Files refused during discovery, with the reason.
    public let refusals: [PluginRefusal]
    /// Plugins found but not loaded: disabled by the user, or installed files that changed (`PluginState`).
    public let inactive: [InactivePlugin]
    /// Plugins not loaded because another on the search path has the same plugin or editor id (a linked build's
    /// shadowed copies among them); reported where the plugin is used (`usageNotices`).
    public let duplicates: [PluginDuplicate]
    /// The content-type graph: Folio's built-in types plus what plugins declare.
    public let contentTypes: ContentTypeRegistry

    /// How the plugin host processes run: their limits, executable, state folder and environment.
    public let isolation: PluginIsolation

    /// The host-process services, by plugin id (each made once).
    private let isolated = Mutex<[String: IsolatedPlugin]>([:])

    /// Scans the search path: file checks and manifests; a library without a manifest beside it is described by its
    /// own descriptor in a plugin host process, once per build of it (`PluginManifestCache`). No plugin code runs here.
    public init(searchPath: PluginSearchPath, isolation: PluginIsolation = PluginIsolation()) {
        self.isolation = isolation
        var plugins: [DiscoveredPlugin] = []
        var refusals: [PluginRefusal] = []
        var duplicates: [PluginDuplicate] = []
        var linkedLibraries: Set<String> = []
        var byID: [String: URL] = [:]
        var byEditor: [String: URL] = [:]
        var seenLibraries: Set<String> = []
        let manifests = PluginManifestCache(isolation: isolation)
        let states = PluginStates(searchPath: searchPath)
        refusals += states.refusals
        for folder in states.expanded(searchPath) {
            for candidate in Self.scan(folder, manifests: manifests, refusals: &refusals) {
                let realPath = candidate.library.resolvingSymlinksInPath().path
                guard seenLibraries.insert(realPath).inserted else { continue }
                let clash: (what: String, first: URL)?
                if let first = byID[candidate.manifest.id] {
                    clash = ("plugin id '\(candidate.manifest.id)'", first)
                } else if let editor = candidate.manifest.editors.first(where: { byEditor[$0.id] != nil }), let first = byEditor[editor.id] {
                    clash = ("editor id '\(editor.id)'", first)
                } else {
                    clash = nil
                }
                if let clash {
                    let duplicate = PluginDuplicate(refused: candidate, clash: clash.what, kept: clash.first, linked: linkedLibraries.contains(clash.first.path))
                    duplicates.append(duplicate)
                    if !duplicate.linked { refusals.append(PluginRefusal(file: candidate.library.path, reason: "duplicate \(clash.what), already provided by \(clash.first.path)")) }
                    continue
                }
                if folder.linked { linkedLibraries.insert(candidate.library.path) }
                byID[candidate.manifest.id] = candidate.library
                for editor in candidate.manifest.editors { byEditor[editor.id] = candidate.library }
                plugins.append(candidate)
            }
        }
        let inactive = plugins.compactMap { plugin -> InactivePlugin? in
            let state = states.state(of: plugin)
            return state.isLoadable ? nil : InactivePlugin(plugin: plugin, state: state)
        }
        plugins.removeAll { plugin in inactive.contains { $0.plugin == plugin } }
        for index in plugins.indices { plugins[index].granted = states.granted(to: plugins[index]) }
        var registry = ContentTypeRegistry()
        for plugin in plugins {
            for editor in plugin.manifest.editors {
                for type in editor.declaredTypes {
                    registry.declare(type.declaration(by: plugin.manifest.id))
                }
            }
        }
        self.inactive = inactive
        self.duplicates = duplicates
        self.plugins = plugins
        self.refusals = refusals
        self.contentTypes = registry
    }

    /// Scans the standard search path for `environment`; plugins run isolated with the limits of its settings, or as
    /// `isolation` says.
    public convenience init(environment: [String: String], settings: Settings? = nil, isolation: PluginIsolation? = nil) {
        self.init(searchPath: .standard(environment: environment), isolation: isolation ?? .standard(environment: environment, settings: settings))
    }

    /// The plugins of one folder that pass the file checks and have a readable, matching manifest: the manifest beside
    /// the library (written by `plugins install`), else the one generated from the library itself (`manifests`).
    static func scan(_ folder: PluginSearchPath.Folder, manifests: PluginManifestCache, refusals: inout [PluginRefusal]) -> [DiscoveredPlugin] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder.url.path) else { return [] }
        let libraries = names.sorted().filter { $0.hasSuffix(".so") && (!folder.bundled || $0.hasPrefix("libFolio")) }
        // Libraries without a manifest beside them: what the cache knows is read here, in turn; the others are
        // described in plugin host processes, at the same time (threads would cost more than reading the cache).
        let generated = libraries.filter { !fm.fileExists(atPath: ManifestLocator.besideManifest(for: folder.url.appendingPathComponent($0)).path) }
        var found: [String: Result<(PluginManifest, URL), any Error>] = [:]
        for name in generated { found[name] = manifests.cachedManifest(for: folder.url.appendingPathComponent(name)) }
        let probed = generated.filter { found[$0] == nil }
        let described = parallelMap(probed.count) { index in
            Result { try manifests.manifest(for: folder.url.appendingPathComponent(probed[index])) }
        }
        for (name, result) in zip(probed, described) { found[name] = result }
        var result: [DiscoveredPlugin] = []
        var claimedManifests: Set<String> = []
        for name in libraries {
            let library = folder.url.appendingPathComponent(name)
            let generated = found[name]
            if generated == nil { claimedManifests.insert(ManifestLocator.besideManifest(for: library).lastPathComponent) }
            do {
                try PluginFileChecks.checkPermissions(library)
                try PluginFileChecks.checkSharedObject(library)
                let manifest: PluginManifest, manifestURL: URL
                if let generated {
                    (manifest, manifestURL) = try generated.get()
                } else {
                    manifestURL = ManifestLocator.besideManifest(for: library)
                    do {
                        manifest = try PluginManifest.load(from: manifestURL)
                    } catch {
                        throw PluginRefusal(file: library.path, reason: "bad manifest: \(error)")
                    }
                }
                if manifest.library != name {
                    throw PluginRefusal(file: library.path, reason: "its manifest \(manifestURL.path) names library '\(manifest.library)'")
                }
                if manifest.abi != PluginABI.major {
                    throw PluginRefusal(file: library.path, reason: "built for plugin ABI \(manifest.abiVersion), this Folio supports plugin ABI \(PluginABI.major).\(PluginABI.minor)")
                }
                result.append(DiscoveredPlugin(manifest: manifest, library: library, manifestURL: manifestURL, bundled: folder.bundled))
            } catch let refusal as PluginRefusal {
                refusals.append(refusal)
            } catch {
                refusals.append(PluginRefusal(file: library.path, reason: "\(error)"))
            }
        }
        for name in names.sorted() where name.hasSuffix(ManifestLocator.suffix) && !claimedManifests.contains(name) {
            let library = String(name.dropLast(ManifestLocator.suffix.count)) + ".so"
            refusals.append(PluginRefusal(file: folder.url.appendingPathComponent(name).path, reason: "its library \(library) is missing"))
        }
        return result
    }

    /// The discovered plugin with `id`.
    public func plugin(_ id: String) -> DiscoveredPlugin? { plugins.first { $0.manifest.id == id } }

    /// Every editor on offer with the plugin providing it.
    public var editors: [(editor: EditorManifest, plugin: DiscoveredPlugin)] {
        plugins.flatMap { plugin in plugin.manifest.editors.map { (editor: $0, plugin: plugin) } }
    }

    /// The editor with `id`, run in its plugin's host process: this starts the host when it is not running (without
    /// waiting for it to load) and refuses a quarantined build.
    public func backend(_ id: String) throws -> any EditorBackend {
        guard let entry = editors.first(where: { $0.editor.id == id }) else {
            throw PluginError.unknownEditor(id: id, known: editors.map(\.editor.id))
        }
        let plugin = isolatedPlugin(entry.plugin)
        try plugin.prepare(editor: id)
        return IsolatedEditor(plugin: plugin, editorID: id)
    }

    /// Starts the host process of editor `id` if it is not running and waits until its plugin is loaded: opening a
    /// document in the editor host can call this first so that the first frame does not wait for the load.
    public func warmUp(_ id: String) throws {
        guard let entry = editors.first(where: { $0.editor.id == id }) else {
            throw PluginError.unknownEditor(id: id, known: editors.map(\.editor.id))
        }
        try isolatedPlugin(entry.plugin).ready(editor: id)
    }

    /// The process ids of the running plugin hosts (diagnostics and benchmarks).
    public var hostProcessIDs: [pid_t] {
        isolated.withLock { Array($0.values) }.compactMap(\.hostPID)
    }

    /// The host-process service of `plugin`, created once per `EditorRegistry`.
    func isolatedPlugin(_ plugin: DiscoveredPlugin) -> IsolatedPlugin {
        isolated.withLock { isolated in
            if let existing = isolated[plugin.manifest.id] { return existing }
            let created = IsolatedPlugin(plugin: plugin, isolation: isolation)
            isolated[plugin.manifest.id] = created
            return created
        }
    }

    /// Stops every plugin call running through this host (kills their host processes); callable from any thread.
    public func cancelCalls() {
        for plugin in isolated.withLock({ Array($0.values) }) { plugin.cancel() }
    }

    /// The quarantine record of `plugin`'s build, when it has crashes or timeouts recorded.
    public func quarantineRecord(_ plugin: DiscoveredPlugin) -> PluginBuildRecord? {
        isolation.quarantine?.record(library: plugin.library, plugin: plugin.manifest.id, bundled: plugin.bundled)
    }
}

/// The plugin ABI version this Folio speaks.
public enum PluginABI {
    /// Plugins must be built for this major version.
    public static let major = Int(FOLIO_PLUGIN_ABI_MAJOR)
    /// The minor version; plugins built for a newer minor still load.
    public static let minor = Int(FOLIO_PLUGIN_ABI_MINOR)
}
