import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

/// What an installed plugin's folder holds: what `plugins info` shows and `plugins remove` removes with it.
public struct PluginPackageContents: Sendable, Equatable {
    /// One template the package brought.
    public struct Template: Sendable, Equatable {
        /// Its id from its `template.json` (nil when that cannot be read; the template listing reports why).
        public var id: String?
        /// Its folder.
        public var folder: URL
    }

    /// The plugin's folder.
    public var folder: URL
    /// The package manifest, nil for a plugin installed as a bare library (or a manifest that no longer reads).
    public var package: PluginPackage?
    public var libraries: [URL] = []
    public var templates: [Template] = []
    public var samples: [URL] = []
    public var readme: URL?
    public var licence: URL?

    /// The template folder of a plugin folder (a template source `plugin:<id>` when it exists).
    public static func templatesFolder(of folder: URL) -> URL { folder.appendingPathComponent("templates") }
    /// The samples folder of a plugin folder.
    public static func samplesFolder(of folder: URL) -> URL { folder.appendingPathComponent("samples") }

    /// Reads the contents of the plugin folder `folder` (an installed `<plugins>/<id>/`, a package folder, or any
    /// folder holding a plugin library).
    public static func read(_ folder: URL) -> PluginPackageContents {
        let fm = FileManager.default
        var contents = PluginPackageContents(folder: folder)
        contents.package = fm.contents(atPath: folder.appendingPathComponent(PluginPackage.manifestName).path).flatMap { try? PluginPackage.parse($0) }
        let names = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        contents.libraries = names.filter { $0.hasSuffix(".so") }.map { folder.appendingPathComponent($0) }
        contents.readme = (contents.package?.readme ?? names.first(where: PluginPackageRules.isReadme)).map { folder.appendingPathComponent($0) }
        contents.licence = (contents.package?.licence ?? names.first(where: PluginPackageRules.isLicence)).map { folder.appendingPathComponent($0) }
        contents.samples = sampleFiles(in: samplesFolder(of: folder))
        let templates = templatesFolder(of: folder)
        contents.templates = files(under: templates).filter { $0.lastPathComponent == "template.json" }.map { manifest in
            let id = fm.contents(atPath: manifest.path).flatMap { try? JSONNode.parse($0) }?["id"]?.value.stringValue
            return Template(id: id, folder: manifest.deletingLastPathComponent())
        }
        // A template.json inside another template's files belongs to that template.
        contents.templates = contents.templates.filter { template in
            !contents.templates.contains { $0.folder != template.folder && template.folder.path.hasPrefix($0.folder.path + "/") }
        }
        return contents
    }

    /// The regular files directly in `folder`, by name (sample documents are single files).
    public static func sampleFiles(in folder: URL) -> [URL] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        return names.filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }.filter { url in
            var info = stat()
            return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Every regular file under `folder` (not following links), sorted by path.
    static func files(under folder: URL) -> [URL] {
        var found: [URL] = []
        func walk(_ folder: URL) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                let url = folder.appendingPathComponent(name)
                var info = stat()
                guard lstat(url.path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFREG: found.append(url)
                case S_IFDIR: walk(url)
                default: continue
                }
            }
        }
        walk(folder)
        return found.sorted { $0.path < $1.path }
    }
}

extension PluginPackageContents {
    /// The sample documents that came with the plugin whose library is `library`: the `samples/` folder beside it
    /// (an installed package), else the samples of the project it is linked from (`plugins link`).
    public static func samples(forLibrary library: URL, installedFolder: URL) -> [URL] {
        let beside = sampleFiles(in: samplesFolder(of: library.deletingLastPathComponent()))
        if !beside.isEmpty { return beside }
        let path = library.standardizedFileURL.path
        guard let link = (try? PluginLinks.load(in: installedFolder))?.links.first(where: { $0.library == path }), let samples = link.samples else { return [] }
        return sampleFiles(in: URL(fileURLWithPath: samples))
    }
}
