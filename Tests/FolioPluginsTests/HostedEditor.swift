import FolioCore
@testable import FolioPlugins
import Foundation

/// The bundled plugins' editors as Folio runs them: in their plugin host processes. One registry, so one warm host
/// per plugin, serves every test of the process that asks for a bundled editor (tests that crash, stop or limit a host
/// make their own).
enum HostedPlugins {
    static let bundled = PluginFixtures.bundledHost()

    /// The bundled editor `id`, through its plugin host.
    static func editor(_ id: String) throws -> HostedEditor {
        guard let entry = bundled.editors.first(where: { $0.editor.id == id }) else {
            throw PluginError.unknownEditor(id: id, known: bundled.editors.map(\.editor.id))
        }
        return HostedEditor(backend: try bundled.backend(id), manifest: entry.editor)
    }
}

/// An editor run in its plugin host, with the calls the plugin tests make (open, semantic diff and merge, items).
final class HostedEditor: Sendable {
    let backend: any EditorBackend
    /// The editor as the plugin describes it.
    let manifest: EditorManifest
    var id: String { manifest.id }

    init(backend: any EditorBackend, manifest: EditorManifest) {
        self.backend = backend
        self.manifest = manifest
    }

    func open(_ data: Data) throws -> HostedDocument { HostedDocument(editor: self, handle: try backend.openDocument(data)) }
    func semanticDiff(from old: Data, to new: Data) throws -> String? { try backend.diff(from: old, to: new) }
    func semanticMerge(base: Data, ours: Data, theirs: Data) throws -> SemanticMergeResult? {
        try backend.merge(base: base, ours: ours, theirs: theirs)
    }
    func items(of data: Data, previous: Data?) throws -> [EditorItem]? { try backend.items(of: data, previous: previous) }
    func takeItems(from: Data, into: Data, pairs: [(from: String, into: String?)]) throws -> (bytes: Data, description: String)? {
        try backend.takeItems(from: from, into: into, pairs: pairs)
    }
}

/// A document open in a plugin host.
final class HostedDocument: Sendable {
    let editor: HostedEditor
    let handle: any EditorDocumentHandle

    init(editor: HostedEditor, handle: any EditorDocumentHandle) {
        self.editor = editor
        self.handle = handle
    }

    /// Applies a command; returns the new document and the description of the change.
    func applying(_ command: String, arguments: [String], selection: ViewSelection = ViewSelection()) throws -> (document: HostedDocument, description: String) {
        let (document, description) = try handle.apply(command, arguments: arguments, selection: selection)
        return (HostedDocument(editor: editor, handle: document), description)
    }

    /// Applies a command and returns the new document and the description.
    func apply(_ command: String, _ arguments: String...) throws -> (HostedDocument, String) {
        let result = try applying(command, arguments: arguments)
        return (result.document, result.description)
    }

    func serialized() throws -> Data { try handle.bytes() }

    var text: String {
        get throws { String(decoding: try serialized(), as: UTF8.self) }
    }

    /// The editor's view for a terminal of `width` × `height` cells.
    func render(width: Int, height: Int, selection: ViewSelection = ViewSelection()) throws -> [String] {
        try handle.view(RenderRequest(width: width, height: height, selection: selection))
    }

    func argumentValues(_ command: String, count: Int, selection: ViewSelection) throws -> [String?]? {
        try handle.argumentValues(command, count: count, selection: selection)
    }
}
