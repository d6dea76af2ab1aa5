import FolioCore
import FolioDisplayWidth
import FoundationEssentials
import FolioBasics
import Glibc

/// Why `plugins pack` could not make a package: the project (or file) and the problem.
public struct PluginPackError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let problem: String
    public var description: String { "\(file.shownAsText): cannot pack: \(problem)" }
}

/// A plugin project's package description, `folio-pack.json` (every key optional; paths relative to the project):
///
///     {"library": "build/libNotes.so", "templates": "templates", "samples": "samples",
///      "readme": "README.md", "licence": "LICENSE"}
///
/// Without it (or a key), the library is the only `.so` in `build/` (the plugin/c Makefile's output), else in
/// `.build/release/`, else in `.build/debug/` (SwiftPM's); templates and samples are the folders of those names;
/// the README and licence the first `README*` and `LICENSE*`/`LICENCE*`/`COPYING*` at the project's top.
public struct PluginProjectDescription: Sendable, Equatable {
    public static let fileName = "folio-pack.json"
    public var library: String?
    public var templates: String?
    public var samples: String?
    public var readme: String?
    public var licence: String?
    /// What the plugin asks for (`PluginPermissions`), copied into the packed manifest; granted when linked.
    public var permissions: PluginPermissions?

    static let keys: Set<String> = ["library", "templates", "samples", "readme", "licence", "permissions"]

    /// Reads `folio-pack.json` in `project` strictly (unknown keys and non-string values refused); absent is empty.
    static func load(_ project: URL) throws -> PluginProjectDescription {
        let url = project.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return PluginProjectDescription() }
        do {
            let node = try JSONNode.parse(data)
            try node.rejectUnknownKeys { $0.isEmpty ? keys : $0 == ["permissions"] ? Set(PluginPermissions.CodingKeys.allCases.map(\.rawValue)) : nil }
            guard node.value.objectValue != nil else { throw PluginPackError(file: url.path, problem: "not a JSON object") }
            func text(_ key: String) throws -> String? {
                guard let value = node[key] else { return nil }
                guard let string = value.value.stringValue, !string.isEmpty else { throw PluginPackError(file: url.path, problem: "'\(key)' must be a path") }
                return string
            }
            var permissions: PluginPermissions?
            if let declared = node["permissions"] {
                do {
                    permissions = try StrictJSON.decode(PluginPermissions.self, from: try JSONEncoder().encode(declared.value), strictAt: [[]])
                } catch { throw PluginPackError(file: url.path, problem: "'permissions' is not {\"network\": [ports], \"read\": [paths]}") }
                if let problem = permissions?.problem { throw PluginPackError(file: url.path, problem: problem) }
            }
            return PluginProjectDescription(library: try text("library"), templates: try text("templates"), samples: try text("samples"),
                                            readme: try text("readme"), licence: try text("licence"), permissions: permissions)
        } catch let error as PluginPackError { throw error } catch {
            throw PluginPackError(file: url.path, problem: JSONKeys.describe(error))
        }
    }

    /// The built library of `project`, inside it (`inside`).
    func libraryURL(in project: URL) throws -> URL {
        if let library { return try Self.inside(project, library, key: "library") }
        for folder in ["build", ".build/release", ".build/debug"] {
            let url = try Self.inside(project, folder, key: "library")
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0.hasSuffix(".so") }.sorted()
            if names.count == 1 { return try Self.inside(project, folder + "/" + names[0], key: "library") }
            if names.count > 1 {
                throw PluginPackError(file: project.path, problem: "\(folder)/ holds several libraries (\(names.joined(separator: ", "))); name one as \"library\" in \(Self.fileName)")
            }
        }
        throw PluginPackError(file: project.path, problem: "no built library in build/, .build/release/ or .build/debug/ (build it first, or name it as \"library\" in \(Self.fileName))")
    }
}

extension PluginPackage {
    /// Makes a package of the built plugin project `project`, written to `output` (default
    /// `<folder>/<id>-<version>.folio-package.tar`, `folder` being where the caller asks). The library's manifest is
    /// generated from its descriptor in a plugin host process (`PluginManifest.generate`); every path is held to the
    /// rules an install applies, so a package `pack` makes is one `install` takes; every path it reads stays inside the
    /// project (`PluginProjectDescription.inside`). Written through a temporary file.
    public static func pack(project: URL, output: URL?, defaultFolder: URL, isolation: PluginIsolation) throws -> PackedPlugin {
        let description = try PluginProjectDescription.load(project)
        let library = try description.libraryURL(in: project)
        do { try PluginInstaller.checkHeader(library) } catch { throw PluginPackError(file: library.path, problem: "\(error)") }
        var manifest: PluginManifest
        do { manifest = try PluginManifest.generate(forLibrary: library, isolation: isolation) } catch {
            throw PluginPackError(file: library.path, problem: "\(error)")
        }
        if let permissions = description.permissions, !permissions.isEmpty { manifest.permissions = permissions }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: project.path)) ?? []).sorted()
        let readme = try optionalFile(description.readme ?? names.first(where: PluginPackageRules.isReadme), in: project, key: "readme")
        let licence = try optionalFile(description.licence ?? names.first(where: PluginPackageRules.isLicence), in: project, key: "licence")
        let package = PluginPackage(id: manifest.id, version: manifest.version, library: library.lastPathComponent,
                                    readme: readme?.lastPathComponent, licence: licence?.lastPathComponent)
        do { _ = try parse(package.encoded()) } catch { throw PluginPackError(file: library.path, problem: "\(error)") }
        guard !package.version.contains("/") else { throw PluginPackError(file: library.path, problem: "its version '\(package.version.shownAsText)' cannot name a file") }
        let entries = try packageEntries(package, library: library, manifest: manifest, files: [readme, licence].compactMap { $0 },
                                         project: project, description: description)
        try checkEntries(entries, project: project)
        let url = output ?? defaultFolder.appendingPathComponent("\(manifest.id)-\(manifest.version).folio-package.tar")
        do { try PluginPackageArchive.write(entries, to: url) } catch { throw PluginPackError(file: url.path, problem: "\(error)") }
        return PackedPlugin(url: url, package: package, files: entries.filter { $0.contents != nil }.map(\.path),
                            warnings: PackWarning.all(library: library, licence: licence))
    }

    /// The archive's entries in order: the package manifest, the library and its manifest, README and licence, then the
    /// templates and samples folders.
    private static func packageEntries(_ package: PluginPackage, library: URL, manifest: PluginManifest, files: [URL], project: URL,
                                       description: PluginProjectDescription) throws -> [(path: String, contents: Data?)] {
        var entries: [(path: String, contents: Data?)] = [(manifestName, package.encoded())]
        entries.append((library.lastPathComponent, try read(library)))
        entries.append((ManifestLocator.besideManifest(for: library).lastPathComponent, try StrictJSON.fileData(manifest)))
        for file in files { entries.append((file.lastPathComponent, try read(file))) }
        let templates = try PluginProjectDescription.inside(project, description.templates ?? "templates", key: "templates")
        let samples = try PluginProjectDescription.inside(project, description.samples ?? "samples", key: "samples")
        entries += try tree(templates, as: "templates", explicit: description.templates != nil)
        entries += try tree(samples, as: "samples", explicit: description.samples != nil)
        return entries
    }

    /// Holds `entries` to the rules an install applies, so `pack` never makes a package `install` refuses.
    private static func checkEntries(_ entries: [(path: String, contents: Data?)], project: URL) throws {
        let limits = PluginPackageLimits()
        guard entries.count <= limits.maxEntries else { throw PluginPackError(file: project.path, problem: "more than \(limits.maxEntries) entries") }
        for entry in entries {
            do { try PluginPackageRules.check(path: entry.path, limits: limits) } catch {
                throw PluginPackError(file: project.path, problem: "\(error)")
            }
            if let size = entry.contents?.count, size > limits.maxEntryBytes(entry.path) {
                throw PluginPackError(file: project.path, problem: "'\(entry.path.shownAsText)' is over the limit of \(limits.maxEntryBytes(entry.path)) bytes")
            }
        }
    }

    private static func optionalFile(_ name: String?, in project: URL, key: String) throws -> URL? {
        guard let name else { return nil }
        let url = try PluginProjectDescription.inside(project, name, key: key)
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw PluginPackError(file: url.path, problem: "not a regular file") }
        guard PluginPackageRules.isReadme(url.lastPathComponent) || PluginPackageRules.isLicence(url.lastPathComponent) else {
            throw PluginPackError(file: url.path, problem: "a README is named README[.ext], a licence LICENSE, LICENCE or COPYING[.ext]")
        }
        return url
    }

    private static func read(_ url: URL) throws -> Data {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw PluginPackError(file: url.path, problem: "cannot read it") }
        return data
    }

    /// The folders and files under `root` as package entries under `prefix`; links and special files are refused.
    private static func tree(_ root: URL, as prefix: String, explicit: Bool) throws -> [(path: String, contents: Data?)] {
        var info = stat()
        guard lstat(root.path, &info) == 0 else {
            if explicit { throw PluginPackError(file: root.path, problem: "no such folder") }
            return []
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw PluginPackError(file: root.path, problem: "not a folder") }
        var entries: [(path: String, contents: Data?)] = [(prefix, nil)]
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
        for name in names {
            let url = root.appendingPathComponent(name)
            guard lstat(url.path, &info) == 0 else { throw PluginPackError(file: url.path, problem: "cannot read it") }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: entries += try tree(url, as: prefix + "/" + name, explicit: true)
            case S_IFREG: entries.append((prefix + "/" + name, try read(url)))
            default: throw PluginPackError(file: url.path, problem: "a package holds files and folders only (this is a link or a special file)")
            }
        }
        return entries
    }
}
