import FolioPluginWire

/// Whether an editor is chosen by default for its content types or only offered as an option.
public enum EditorPriority: Sendable {
    case `default`, option
}

/// One command an editor offers: id, title, shortcut, usage and whether it acts on the selection.
public struct CommandSpec: Sendable, Equatable {
    public var id: String
    public var title: String
    public var shortcut: String
    public var usage: String
    public var needsSelection: Bool

    /// Creates a command description.
    public init(_ id: String, title: String, shortcut: String = "", usage: String, needsSelection: Bool = false) {
        self.id = id
        self.title = title
        self.shortcut = shortcut
        self.usage = usage
        self.needsSelection = needsSelection
    }
}

/// A content type an editor declares and the types it conforms to.
public struct TypeSpec: Sendable, Equatable {
    public var identifier: String
    public var conformsTo: [String]
    public var extensions: [String]
    public var description: String

    /// Creates a type declaration.
    public init(_ identifier: String, conformsTo: [String], extensions: [String] = [], description: String = "") {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.extensions = extensions
        self.description = description
    }
}

/// What an editor is: id, name, the content types it edits and declares, its priority and commands.
public struct EditorSpec: Sendable {
    public var id: String
    public var name: String
    public var contentTypes: [String]
    public var declaredTypes: [TypeSpec]
    public var priority: EditorPriority
    public var commands: [CommandSpec]

    /// Creates an editor description.
    public init(id: String, name: String, contentTypes: [String], declaredTypes: [TypeSpec] = [],
                priority: EditorPriority = .default, commands: [CommandSpec]) {
        self.id = id
        self.name = name
        self.contentTypes = contentTypes
        self.declaredTypes = declaredTypes
        self.priority = priority
        self.commands = commands
    }
}

/// The cursor and selection in the editor's view, items numbered from 1 (0 for none), with the scroll and the pan
/// (ABI 1.2). Kept as a name for compatibility: it is FolioPluginWire's `ViewSelection`, the one selection type that
/// Folio and its plugins share.
public typealias Selection = ViewSelection

/// The result of a three-way merge: the merged document, or one line per conflict.
public enum MergeOutcome<Document> {
    case merged(Document)
    case conflicts([String])
}

/// A failure an editor reports to the host: a status and a one-line message.
public struct EditorFailure: Error, CustomStringConvertible, Equatable {
    /// Which status the host sees.
    public enum Kind: Sendable, Equatable {
        case invalidArgument, unknownCommand, invalidDocument, conflict, unsupported, `internal`
    }
    public let kind: Kind
    public let message: String

    /// Creates a failure.
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
    /// Bad command arguments.
    public static func invalidArgument(_ message: String) -> EditorFailure { EditorFailure(.invalidArgument, message) }
    /// Bytes the editor cannot read.
    public static func invalidDocument(_ message: String) -> EditorFailure { EditorFailure(.invalidDocument, message) }
    public var description: String { message }
}

/// Capability ids an editor can provide beyond the basic operations.
public enum FolioExtension {
    /// Semantic diff between two versions.
    public static let semanticDiff = "folio.semantic-diff/1"
    /// Three-way semantic merge.
    public static let semanticMerge = "folio.semantic-merge/1"
}

/// What a Swift plugin's editor implements; FolioPluginKit turns it into the C ABI.
public protocol FolioEditor: Sendable {
    /// The editor's in-memory document.
    associatedtype Document

    /// The editor's description (id, types, commands).
    var spec: EditorSpec { get }
    /// The capability ids (see `FolioExtension`) this editor provides.
    var extensions: Set<String> { get }
    /// Reads a document from file bytes.
    func open(_ bytes: [UInt8]) throws -> Document
    /// Applies a command; returns the new document and a one-line description of the change.
    func apply(_ command: String, arguments: CommandArguments, to document: Document, selection: Selection) throws -> (Document, String)
    /// Writes the document as file bytes.
    func serialize(_ document: Document) throws -> [UInt8]
    /// Renders the document as at most `height` lines for a terminal `width` cells wide.
    func render(_ document: Document, width: Int, height: Int, selection: Selection) -> [String]
    /// Describes the changes from `old` to `new`, one per line (only when `extensions` has semantic diff).
    func semanticDiff(from old: Document, to new: Document) throws -> [String]
    /// Merges two descendants of `base` item by item (only when `extensions` has semantic merge).
    func semanticMerge(base: Document, ours: Document, theirs: Document) throws -> MergeOutcome<Document>
    /// The document's items in view order (only when `extensions` has `FolioExtension.items`).
    func items(of document: Document) throws -> [ItemInfo]
    /// For each item of `new`, the index of the same item in `old` (nil when it is new), as the semantic diff matches them.
    func matchItems(from old: Document, to new: Document) throws -> [Int?]
    /// `into` with the items `takes` of `from` put back (replacing the same item, or inserted at its old position or
    /// the nearest valid one when gone), everything else kept; and a one-line description.
    func takeItems(_ takes: [ItemTake], from: Document, into: Document) throws -> (Document, String)
    /// The current values of `command`'s arguments for the item `selection` names, one per argument of its usage (nil
    /// where there is none to suggest), for its form to start from (only when `extensions` has
    /// `FolioExtension.argumentValues`); nil when the command has none. Default: none.
    func argumentValues(for command: String, in document: Document, selection: Selection) throws -> [String?]?
}

extension FolioEditor {
    public var extensions: Set<String> { [] }
    public func semanticDiff(from old: Document, to new: Document) throws -> [String] {
        throw EditorFailure(.unsupported, "\(spec.id) has no semantic diff")
    }
    public func semanticMerge(base: Document, ours: Document, theirs: Document) throws -> MergeOutcome<Document> {
        throw EditorFailure(.unsupported, "\(spec.id) has no semantic merge")
    }
}

/// A plugin: id, name, version and its editors.
public struct FolioPlugin: Sendable {
    public var id: String
    public var name: String
    public var version: String
    public var editors: [any FolioEditor]

    /// Creates a plugin description.
    public init(id: String, name: String, version: String, editors: [any FolioEditor]) {
        self.id = id
        self.name = name
        self.version = version
        self.editors = editors
    }
}
