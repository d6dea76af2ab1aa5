import FolioCore
import FoundationEssentials
import Glibc

/// The manifest kept beside a plugin library (`libX.folio-plugin.json`): everything listing needs, without loading code.
public struct PluginManifest: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var version: String
    /// The plugin ABI major version the library was built for.
    public var abi: Int
    /// The minor version of that ABI (what its descriptor states), nil in a manifest written before Folio recorded it.
    public var abiMinor: Int? = nil
    /// The library's file name, e.g. `libFolioChecklist.so`.
    public var library: String
    public var editors: [EditorManifest]
    /// The Swift compiler that built a Swift plugin ("6.3.1", from the `folio_swift` record FolioPluginKit links),
    /// nil for a plugin without Swift code.
    public var swift: String?
    /// What the plugin asks for beyond nothing (`PluginPermissions`); nil: nothing.
    public var permissions: PluginPermissions? = nil

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, version, abi, abiMinor, library, editors, swift, permissions }

    /// The objects whose keys are checked: the manifest, its permissions, each editor, declared type and command.
    static let strictPaths: Set<[String]> = [[], ["permissions"], ["editors", "*"], ["editors", "*", "declaredTypes", "*"], ["editors", "*", "commands", "*"]]

    /// The ABI version as Folio shows it everywhere: "1.2" (just the major, "1", when the manifest has no minor).
    public var abiVersion: String { abiMinor.map { "\(abi).\($0)" } ?? "\(abi)" }

    /// What the plugin declares it needs (nothing when the manifest has no `permissions`).
    public var declaredPermissions: PluginPermissions { permissions ?? .none }

    /// Reads and checks a manifest file; errors name the file, line and column.
    public static func load(from url: URL) throws -> PluginManifest {
        guard let manifest = try StrictJSON.load(PluginManifest.self, from: url, strictAt: strictPaths) else {
            throw FolioError.unreadableFile(path: url.path, reason: "no such file")
        }
        do { try manifest.validate() } catch { throw FolioError.invalidFile(path: url.path, problem: "\(error)") }
        return manifest
    }

    func validate() throws {
        if id.isEmpty { throw PluginError.invalidManifest(.emptyPluginID) }
        if library.contains("/") { throw PluginError.invalidManifest(.libraryNotAFileName(library)) }
        for editor in editors where editor.id.isEmpty { throw PluginError.invalidManifest(.emptyEditorID) }
        if let problem = permissions?.problem { throw PluginError.invalidManifest(.permissions(problem)) }
    }
}

/// One editor in a manifest.
public struct EditorManifest: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// The content types it edits (and everything conforming to them).
    public var contentTypes: [ContentType]
    public var priority: EditorPriority = .default
    public var declaredTypes: [DeclaredType] = []
    /// Optional capability ids, e.g. `folio.semantic-diff/1`.
    public var extensions: [String] = []
    public var commands: [EditorCommand] = []

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, contentTypes, priority, declaredTypes, extensions, commands }
}

extension EditorManifest {
    // In an extension, so that the memberwise initializer stays.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        contentTypes = try c.decode([ContentType].self, forKey: .contentTypes)
        priority = try c.decodeIfPresent(EditorPriority.self, forKey: .priority) ?? .default
        declaredTypes = try c.decodeIfPresent([DeclaredType].self, forKey: .declaredTypes) ?? []
        extensions = try c.decodeIfPresent([String].self, forKey: .extensions) ?? []
        commands = try c.decodeIfPresent([EditorCommand].self, forKey: .commands) ?? []
    }
}

/// Whether an editor is chosen by default for its types, or only offered ("reopen with").
public enum EditorPriority: String, Codable, Sendable, Comparable {
    case `default`, option

    public static func < (lhs: EditorPriority, rhs: EditorPriority) -> Bool { lhs == .default && rhs == .option }
}

/// A content type a plugin declares.
public struct DeclaredType: Codable, Sendable, Equatable {
    public var identifier: ContentType
    public var conformsTo: [ContentType]
    public var extensions: [String]
    public var description: String

    enum CodingKeys: String, CodingKey, CaseIterable { case identifier, conformsTo, extensions, description }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(ContentType.self, forKey: .identifier)
        conformsTo = try c.decodeIfPresent([ContentType].self, forKey: .conformsTo) ?? []
        extensions = try c.decodeIfPresent([String].self, forKey: .extensions) ?? []
        description = try c.decodeIfPresent(String.self, forKey: .description) ?? ""
    }

    /// The declaration the content-type registry holds, `plugin` (its id) declaring it.
    func declaration(by plugin: String) -> ContentTypeDeclaration {
        ContentTypeDeclaration(identifier, conformsTo: conformsTo, extensions: extensions, description: description, declaredBy: plugin)
    }
}
