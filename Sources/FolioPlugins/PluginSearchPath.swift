import FolioCore
import Foundation

/// Where plugins are looked for, in order: bundled folders, `$XDG_DATA_HOME/folio/plugins`, `FOLIO_PLUGIN_PATH`.
public struct PluginSearchPath: Sendable, Equatable {
    /// One folder to scan.
    public struct Folder: Sendable, Equatable {
        public var url: URL
        /// Bundled folders hold Folio's own build products: only `libFolio*.so` there, and their manifests may
        /// come from the source tree's `Plugins/*/plugin.json`.
        public var bundled: Bool

        /// Creates a search folder.
        public init(_ url: URL, bundled: Bool) {
            self.url = url
            self.bundled = bundled
        }
    }

    public var folders: [Folder]

    /// A search path of explicit folders.
    public init(folders: [Folder]) { self.folders = folders }

    /// The standard search path: the bundled plugins (see `bundledFolder(beside:)`), then the user's and the
    /// environment's folders.
    public static func standard(environment: [String: String], executableFolder: URL? = PluginSearchPath.executableFolder) -> PluginSearchPath {
        var folders: [Folder] = []
        if let executableFolder { folders.append(Folder(bundledFolder(beside: executableFolder), bundled: true)) }
        folders.append(Folder(FolioPaths(environment: environment).dataHome.appendingPathComponent("plugins"), bundled: false))
        for entry in (environment["FOLIO_PLUGIN_PATH"] ?? "").split(separator: ":") where !entry.isEmpty {
            folders.append(Folder(URL(fileURLWithPath: String(entry)), bundled: false))
        }
        return PluginSearchPath(folders: folders)
    }

    /// Where the bundled plugins of a `folio` in `executableFolder` are: `../lib/folio/plugins` when Folio is installed
    /// (`PREFIX/bin/folio`), else the executable's own folder (the build tree, where SwiftPM puts `libFolio*.so`).
    public static func bundledFolder(beside executableFolder: URL) -> URL {
        let installed = executableFolder.deletingLastPathComponent().appendingPathComponent("lib/folio/plugins")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: installed.path, isDirectory: &isDirectory), isDirectory.boolValue { return installed }
        return executableFolder
    }

    /// The folder of the running executable (for `folio`, where the bundled `libFolio*.so` are built or installed).
    public static var executableFolder: URL? {
        Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
    }
}

/// Finds the manifest of a library: `libX.folio-plugin.json` beside it (how plugins are installed), or for bundled
/// libraries in a SwiftPM build folder the source tree's `Plugins/*/plugin.json` naming it.
enum ManifestLocator {
    static let suffix = ".folio-plugin.json"

    /// The manifest file beside `library`.
    static func besideManifest(for library: URL) -> URL {
        let base = library.deletingPathExtension().lastPathComponent
        return library.deletingLastPathComponent().appendingPathComponent(base + suffix)
    }

    /// The source tree whose build folder holds `folder` (`<root>/.build/<triple>/debug` → `<root>`); nil anywhere
    /// else, so an installed or copied Folio never looks into a source tree.
    static func sourceRoot(near folder: URL) -> URL? {
        var candidate = folder.resolvingSymlinksInPath()
        while candidate.path != "/" && !candidate.path.isEmpty {
            if candidate.lastPathComponent.hasPrefix(".build") {
                let root = candidate.deletingLastPathComponent()
                return isSourceRoot(root) ? root : nil
            }
            candidate = candidate.deletingLastPathComponent()
        }
        return nil
    }

    private static func isSourceRoot(_ url: URL) -> Bool {
        let fm = FileManager.default
        return fm.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
            && fm.fileExists(atPath: url.appendingPathComponent("Plugins").path)
    }

    /// Library file name → source manifest URL, from `<root>/Plugins/*/plugin.json`.
    static func sourceManifests(near folder: URL) -> [String: URL] {
        guard let root = sourceRoot(near: folder) else { return [:] }
        let plugins = root.appendingPathComponent("Plugins")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: plugins.path)) ?? []
        var result: [String: URL] = [:]
        for name in names.sorted() {
            let url = plugins.appendingPathComponent(name).appendingPathComponent("plugin.json")
            guard let manifest = try? PluginManifest.load(from: url) else { continue }
            result[manifest.library] = url
        }
        return result
    }
}
