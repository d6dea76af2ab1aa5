import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

/// Where plugins are looked for, in order: bundled folders, `$XDG_DATA_HOME/folio/plugins`, `FOLIO_PLUGIN_PATH`.
public struct PluginSearchPath: Sendable, Equatable {
    /// One folder to scan.
    public struct Folder: Sendable, Equatable {
        public var url: URL
        /// Bundled folders hold Folio's own build products: only `libFolio*.so` there are plugins.
        public var bundled: Bool
        /// A folder linked with `folio plugins link`: its plugins come first, and an installed or bundled copy of
        /// the same id is shadowed (not loaded, reported as such) until `folio plugins unlink`.
        public var linked: Bool

        /// Creates a search folder.
        public init(_ url: URL, bundled: Bool, linked: Bool = false) {
            self.url = url
            self.bundled = bundled
            self.linked = linked
        }
    }

    public var folders: [Folder]

    /// A search path of explicit folders.
    public init(folders: [Folder]) { self.folders = folders }

    /// The standard search path: the folders of linked plugin builds (`PluginLinks`, so a build under development
    /// replaces the installed copy of its id), the bundled plugins (see `bundledFolder(beside:)`), then the user's
    /// and the environment's folders. `FOLIO_PLUGIN_PATH` keeps its place after the installed folder: a duplicate id
    /// there is refused and reported where the plugin is used (`EditorRegistry.usageNotices`).
    public static func standard(environment: [String: String], executableFolder: URL? = PluginSearchPath.executableFolder) -> PluginSearchPath {
        let installed = FolioPaths(environment: environment).dataHome.appendingPathComponent("plugins")
        var folders: [Folder] = ((try? PluginLinks.load(in: installed)) ?? PluginLinks()).folders.map { Folder($0, bundled: false, linked: true) }
        if let executableFolder { folders.append(Folder(bundledFolder(beside: executableFolder), bundled: true)) }
        folders.append(Folder(installed, bundled: false))
        for entry in (environment["FOLIO_PLUGIN_PATH"] ?? "").split(separator: ":") where !entry.isEmpty {
            folders.append(Folder(URL(fileURLWithPath: String(entry)), bundled: false))
        }
        return PluginSearchPath(folders: folders)
    }

    /// Where the bundled plugins of a `folio` in `executableFolder` are: `../lib/folio/plugins` when Folio is installed
    /// (`PREFIX/bin/folio`), else the executable's own folder (the build tree, where SwiftPM puts `libFolio*.so`).
    public static func bundledFolder(beside executableFolder: URL) -> URL {
        let installed = executableFolder.deletingLastPathComponent().appendingPathComponent("lib/folio/plugins")
        var isDirectory: Bool = false
        if FileManager.default.fileExists(atPath: installed.path, isDirectory: &isDirectory), isDirectory { return installed }
        return executableFolder
    }

    /// The folder of the running executable (for `folio`, where the bundled `libFolio*.so` are built or installed).
    public static var executableFolder: URL? {
        Executable.url?.resolvingSymlinksInPath().deletingLastPathComponent()
    }
}

/// Finds the manifest written beside a library: `libX.folio-plugin.json` (a library without one has its manifest
/// generated from its descriptor: `PluginManifestCache`).
enum ManifestLocator {
    static let suffix = ".folio-plugin.json"

    /// The manifest file beside `library`.
    static func besideManifest(for library: URL) -> URL {
        let base = library.deletingPathExtension().lastPathComponent
        return library.deletingLastPathComponent().appendingPathComponent(base + suffix)
    }
}
