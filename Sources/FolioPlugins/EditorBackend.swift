import FoundationEssentials
import Glibc
import Synchronization

/// An editor as Folio calls it. Plugin code runs only in a plugin host process (`IsolatedEditor`); the protocol lets
/// Folio's own code and tests stand in for an editor (fakes), never a plugin loaded into Folio.
public protocol EditorBackend: Sendable {
    /// The editor id.
    var editorID: String { get }
    /// Reads a document from its file bytes.
    func openDocument(_ data: Data) throws -> any EditorDocumentHandle
    /// The changes from `old` to `new`, one per line; nil when the editor has no semantic diff.
    func diff(from old: Data, to new: Data) throws -> String?
    /// A three-way merge; nil when the editor has no semantic merge.
    func merge(base: Data, ours: Data, theirs: Data) throws -> SemanticMergeResult?
    /// The items of `data` (`folio.items/1`), each matched to its key in `previous` when that is given; nil when the
    /// editor has no items extension.
    func items(of data: Data, previous: Data?) throws -> [EditorItem]?
    /// `into` with the items of `from` named by `pairs` put back (each with the same item's key in `into`, nil when it
    /// is gone there): the new bytes and the editor's description; nil when the editor has no items extension.
    func takeItems(from: Data, into: Data, pairs: [(from: String, into: String?)]) throws -> (bytes: Data, description: String)?
    /// Stops a call running on this editor (from another thread or task); it throws `PluginHostFailure`.
    func cancel()
}

/// A document open in an editor.
public protocol EditorDocumentHandle: Sendable {
    /// Applies a command; returns the new document and the change's description, already made safe to commit
    /// (`PluginText.description`).
    func apply(_ command: String, arguments: [String], selection: ViewSelection) throws -> (document: any EditorDocumentHandle, description: String)
    /// The document's file bytes.
    func bytes() throws -> Data
    /// The editor's view for `request`: at most `request.height` lines without control characters. A failed call
    /// throws its typed error (`PluginHostFailure`, `EditorOperationError`); the screen's `PluginView` is made from it.
    func view(_ request: RenderRequest) throws -> [String]
    /// The current values of `command`'s `count` arguments for `selection` (`folio.argument-values/1`), nil where the
    /// editor suggests none; nil when it has none for the command. Checked by `ArgumentValues.parse`.
    func argumentValues(_ command: String, count: Int, selection: ViewSelection) throws -> [String?]?
}

extension EditorDocumentHandle {
    /// No values: a document handle that predates `folio.argument-values/1`.
    public func argumentValues(_ command: String, count: Int, selection: ViewSelection) throws -> [String?]? { nil }
}

/// An editor whose code runs in its plugin's host process.
public struct IsolatedEditor: EditorBackend {
    let plugin: IsolatedPlugin
    public let editorID: String

    public func openDocument(_ data: Data) throws -> any EditorDocumentHandle {
        try IsolatedDocument.open(data, editor: self)
    }

    /// Maps a plugin's error reply to `EditorOperationError` (or `PluginRefusal`).
    func check(_ reply: PluginWire.Message, _ operation: String) throws {
        guard reply.kind == .failure else { return }
        let status = try reply.integer(0)
        let message = PluginText.description(try reply.field(1))
        throw EditorOperationError(editor: editorID, operation: operation, kind: .init(status: status), message: message, refused: reply.refused)
    }

    public func diff(from old: Data, to new: Data) throws -> String? {
        let (reply, _) = try plugin.call(.diff, editor: editorID, command: "semantic diff", fields: [old, new], limit: plugin.isolation.limits.call)
        try check(reply, "semantic diff")
        guard let text = reply.fields.first else { return nil }
        return String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(PluginText.viewLine).joined(separator: "\n")
    }

    public func merge(base: Data, ours: Data, theirs: Data) throws -> SemanticMergeResult? {
        let (reply, _) = try plugin.call(.merge, editor: editorID, command: "semantic merge", fields: [base, ours, theirs], limit: plugin.isolation.limits.call)
        if reply.kind == .conflicts {
            return .conflicts(String(decoding: try reply.field(0), as: UTF8.self).split(separator: "\n").map { PluginText.description(String($0)) })
        }
        try check(reply, "semantic merge")
        return reply.fields.first.map { .merged($0) }
    }

    public func cancel() { plugin.cancel() }
}

/// A document held by a plugin host process, named by Folio's id for it. A document opened from bytes is opened
/// again transparently when its host was replaced (after a crash); one derived by a command is not (it is gone).
final class IsolatedDocument: EditorDocumentHandle {
    let editor: IsolatedEditor
    private let id: Int64
    private let source: Data?
    private let state: Mutex<Int>  // the host generation the document lives in

    private init(editor: IsolatedEditor, id: Int64, generation: Int, source: Data?) {
        self.editor = editor
        self.id = id
        self.source = source
        state = Mutex(generation)
    }

    deinit {
        editor.plugin.release(id, generation: state.withLock { $0 })
    }

    static func open(_ data: Data, editor: IsolatedEditor) throws -> IsolatedDocument {
        let id = editor.plugin.newDocumentID()
        let (reply, generation) = try editor.plugin.call(.open, editor: editor.editorID, command: "open", fields: [PluginWire.integerField(id), data],
                                                         limit: editor.plugin.isolation.limits.call)
        try editor.check(reply, "open")
        return IsolatedDocument(editor: editor, id: id, generation: generation, source: data)
    }

    /// Runs a call on this document, reopening it first when its host was replaced and it came from bytes.
    func call(_ kind: PluginWire.Kind, _ command: String, _ fields: [Data], limit: Duration) throws -> PluginWire.Message {
        let generation = state.withLock { $0 }
        do {
            return try editor.plugin.call(kind, editor: editor.editorID, command: command, fields: [PluginWire.integerField(id)] + fields,
                                          limit: limit, generation: generation).0
        } catch is StaleDocument {
            guard let source else { throw StaleDocument() }
            let (reply, newGeneration) = try editor.plugin.call(.open, editor: editor.editorID, command: "open",
                                                                fields: [PluginWire.integerField(id), source], limit: editor.plugin.isolation.limits.call)
            try editor.check(reply, "open")
            state.withLock { $0 = newGeneration }
            return try editor.plugin.call(kind, editor: editor.editorID, command: command, fields: [PluginWire.integerField(id)] + fields,
                                          limit: limit, generation: newGeneration).0
        }
    }

    static func selectionFields(_ selection: ViewSelection) -> [Data] {
        selection.wireIntegers.map(PluginWire.integerField)
    }

    func apply(_ command: String, arguments: [String], selection: ViewSelection) throws -> (document: any EditorDocumentHandle, description: String) {
        let newID = editor.plugin.newDocumentID()
        let json = (try? JSONEncoder().encode(arguments)) ?? Data("[]".utf8)
        let reply = try call(.apply, command, [PluginWire.integerField(newID), Data(command.utf8), json] + Self.selectionFields(selection),
                             limit: editor.plugin.isolation.limits.call)
        try editor.check(reply, command)
        let description = PluginText.description(try reply.field(0))
        let document = IsolatedDocument(editor: editor, id: newID, generation: state.withLock { $0 }, source: nil)
        return (document, description.isEmpty ? PluginText.description(command) : description)
    }

    func bytes() throws -> Data {
        let reply = try call(.serialize, "serialize", [], limit: editor.plugin.isolation.limits.call)
        try editor.check(reply, "serialize")
        return try reply.field(0)
    }

    func view(_ request: RenderRequest) throws -> [String] {
        let w = Int64(max(1, min(request.width, 100_000))), h = Int64(max(1, min(request.height, 100_000_000)))
        let reply = try call(.render, "render", [PluginWire.integerField(w), PluginWire.integerField(h)] + Self.selectionFields(request.selection),
                             limit: editor.plugin.isolation.limits.render)
        try editor.check(reply, "render")
        let text = String(decoding: try reply.field(0), as: UTF8.self)
        if text.isEmpty { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).prefix(Int(h)).map { PluginText.viewLine($0, width: Int(w)) }
    }
}
