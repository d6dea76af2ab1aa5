import FolioCore
import FolioDisplayWidth
import FoundationEssentials
import FolioBasics
import Glibc

/// The caps an installed package is held to.
public struct PluginPackageLimits: Sendable, Equatable {
    /// Entries (files and folders) in one package.
    public var maxEntries = 4096
    /// Bytes of one path (ustar's own limit is 255).
    public var maxPathBytes = 255
    /// Folders deep.
    public var maxDepth = 16
    /// The library at the package's top (the same cap as a bare library: `PluginInstaller.maxLibraryBytes`).
    public var maxLibraryBytes = PluginInstaller.maxLibraryBytes
    /// Any other file (templates, samples, README, licence, manifests).
    public var maxFileBytes = 16 << 20
    /// All entries together.
    public var maxTotalBytes = PluginInstaller.maxLibraryBytes + (64 << 20)

    /// The standard caps.
    public init() {}

    /// The cap of the entry at `path`: the library's for a top-level `.so`, else a file's.
    func maxEntryBytes(_ path: String) -> Int {
        !path.contains("/") && path.hasSuffix(".so") ? maxLibraryBytes : maxFileBytes
    }
}

/// What a package's paths may be: relative, made of plain components, and one of the package's parts.
enum PluginPackageRules {
    /// Top-level names a package may hold besides `*.so`, their `*.folio-plugin.json` and the two folders.
    static let topFolders: Set<String> = ["templates", "samples"]

    /// A path as shown in a refusal (control characters escaped).
    static func shown(_ path: String) -> String { path.shownAsText }

    /// Fails when `path` is not a plain relative path within `limits`, or not a part of a package.
    static func check(path: String, limits: PluginPackageLimits) throws {
        typealias Problem = PluginPackageArchive.Problem
        guard !path.isEmpty else { throw Problem("an entry has an empty name") }
        guard !path.hasPrefix("/") else { throw Problem("'\(shown(path))' is an absolute path") }
        guard path.utf8.count <= limits.maxPathBytes else { throw Problem("'\(shown(path))' is longer than \(limits.maxPathBytes) bytes") }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) else {
            throw Problem("'\(shown(path))' holds a control character or a backslash")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        for component in components {
            guard !component.isEmpty, component != ".", component != ".." else {
                throw Problem("'\(shown(path))' has a '\(component.isEmpty ? "//" : String(component))' component (paths must stay inside the package)")
            }
        }
        guard components.count <= limits.maxDepth else { throw Problem("'\(shown(path))' is more than \(limits.maxDepth) folders deep") }
        let top = String(components[0])
        if components.count > 1 || topFolders.contains(top) {
            guard topFolders.contains(top) else { throw Problem("'\(shown(path))' is not part of a package (only templates/ and samples/ may hold files in folders)") }
            return
        }
        guard top == PluginPackage.manifestName || top.hasSuffix(".so") || top.hasSuffix(ManifestLocator.suffix) || isReadme(top) || isLicence(top) else {
            throw Problem("'\(shown(path))' is not part of a package (\(PluginPackage.manifestName), libraries, their manifests, README, LICENSE, templates/, samples/)")
        }
    }

    static func isReadme(_ name: String) -> Bool { name == "README" || (name.hasPrefix("README.") && !name.dropFirst(7).contains(".")) }
    static func isLicence(_ name: String) -> Bool {
        ["LICENSE", "LICENCE", "COPYING"].contains { name == $0 || (name.hasPrefix($0 + ".") && !name.dropFirst($0.count + 1).contains(".")) }
    }
}

/// A plugin package: one plugin's library, its generated manifest, templates, sample documents, README and licence,
/// described by `folio-package.json`. As a folder, and as a file: an uncompressed ustar archive of that folder with
/// `folio-package.json` first (`PluginPackageArchive`). Installed, the package is the folder `<plugins>/<id>/`:
///
///     folio-package.json           {"format": 1, "id", "version", "library", "readme"?, "licence"?}
///     libNAME.so                   the plugin (exactly one library per package: one id, one folder, one lock entry)
///     libNAME.folio-plugin.json    its manifest, generated from its descriptor by `plugins pack`
///     templates/…/template.json    Folio templates (listed as the source `plugin:<id>`)
///     samples/FILE                 sample documents (`plugins validate`, `folio new --type T --sample FILE`)
///     README[.ext], LICENSE[.ext]  shown by `plugins info`
public struct PluginPackage: Sendable, Equatable {
    /// The manifest's file name, the first entry of an archive.
    public static let manifestName = "folio-package.json"
    /// The archive format version this Folio reads and writes.
    public static let format = 1

    public var id: String
    public var version: String
    /// The library's file name at the package's top.
    public var library: String
    /// The README's and the licence's file names at the top, when the package has them.
    public var readme: String?
    public var licence: String?

    /// Creates a package description.
    public init(id: String, version: String, library: String, readme: String? = nil, licence: String? = nil) {
        self.id = id; self.version = version; self.library = library; self.readme = readme; self.licence = licence
    }

    static let keys: Set<String> = ["format", "id", "version", "library", "readme", "licence"]

    /// Parses `folio-package.json` strictly: a JSON object of known keys only, `format` 1, strings where strings
    /// belong, the library a top-level `.so` name, README and licence top-level names.
    static func parse(_ data: Data) throws -> PluginPackage {
        typealias Problem = PluginPackageArchive.Problem
        let node: JSONNode
        do {
            node = try JSONNode.parse(data)
            try node.rejectUnknownKeys { $0.isEmpty ? keys : nil }
        } catch { throw Problem("\(manifestName): \(JSONKeys.describe(error))") }
        guard node.value.objectValue != nil else { throw Problem("\(manifestName): not a JSON object") }
        guard node["format"]?.wholeNumber == format else { throw Problem("\(manifestName): 'format' must be \(format)") }
        func string(_ key: String, required: Bool) throws -> String? {
            guard let value = node[key] else {
                if required { throw Problem("\(manifestName): '\(key)' is missing") }
                return nil
            }
            guard let text = value.value.stringValue, !text.isEmpty, text.utf8.count <= 200,
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw Problem("\(manifestName): '\(key)' must be a short line of text")
            }
            return text
        }
        let package = PluginPackage(id: try string("id", required: true) ?? "", version: try string("version", required: true) ?? "",
                                    library: try string("library", required: true) ?? "", readme: try string("readme", required: false),
                                    licence: try string("licence", required: false))
        if PluginInstaller.isFolioName(package.id) {
            throw Problem("\(manifestName): id '\(shown(package.id))' is refused: names starting with '\(PluginInstaller.folioNamePrefix)' are Folio's own files")
        }
        guard PluginInstaller.isUsableID(package.id) else { throw Problem("\(manifestName): id '\(shown(package.id))' cannot name a folder") }
        guard !package.library.contains("/"), package.library.hasSuffix(".so"), !package.library.hasPrefix(".") else {
            throw Problem("\(manifestName): 'library' must name a .so file at the package's top")
        }
        for name in [package.readme, package.licence].compactMap({ $0 }) where name.contains("/") || name.hasPrefix(".") {
            throw Problem("\(manifestName): '\(shown(name))' must name a file at the package's top")
        }
        return package
    }

    private static func shown(_ text: String) -> String { text.shownAsText }

    /// The manifest's JSON (sorted keys, one trailing newline).
    func encoded() -> Data {
        var object: [String: JSONValue] = ["format": .number(Double(Self.format)), "id": .string(id), "version": .string(version), "library": .string(library)]
        if let readme { object["readme"] = .string(readme) }
        if let licence { object["licence"] = .string(licence) }
        return (try? StrictJSON.fileData(JSONValue.object(object))) ?? Data("\n".utf8)
    }
}
