import FolioCore
import FolioPluginABI
import FoundationEssentials
import Glibc
import Synchronization

/// Cursor and selection in an editor's view, items numbered from 1 (0 for none).
public struct ViewSelection: Sendable, Equatable {
    public var cursor: Int
    public var anchor: Int
    public var scroll: Int
    /// How far the user panned the view from where the editor puts it, in cells (ABI 1.2: columns right, rows down).
    public var panX: Int
    public var panY: Int

    /// Creates a selection.
    public init(cursor: Int = 0, anchor: Int = 0, scroll: Int = 0, panX: Int = 0, panY: Int = 0) {
        self.cursor = cursor
        self.anchor = anchor
        self.scroll = scroll
        self.panX = panX
        self.panY = panY
    }

    var c: folio_selection {
        folio_selection(struct_size: UInt32(MemoryLayout<folio_selection>.size), reserved: 0,
                        cursor: Int64(cursor), anchor: Int64(anchor), scroll: Int64(scroll), pan_x: Int64(panX), pan_y: Int64(panY))
    }
}

/// The outcome of a three-way semantic merge.
public enum SemanticMergeResult: Sendable, Equatable {
    case merged(Data)
    case conflicts([String])
}

/// One editor of a loaded plugin: opens documents and runs its optional capabilities.
public final class PluginEditor: @unchecked Sendable {
    /// The editor as the library describes it (same shape as a manifest entry).
    public let manifest: EditorManifest
    /// The id of the plugin providing it.
    public let pluginID: String
    /// The editor id.
    public var id: String { manifest.id }

    let table: UnsafePointer<folio_editor>
    private let diffTable: UnsafePointer<folio_semantic_diff_v1>?
    private let mergeTable: UnsafePointer<folio_semantic_merge_v1>?
    let itemsTable: UnsafePointer<folio_items_v1>?
    let argumentValuesTable: UnsafePointer<folio_argument_values_v1>?

    init(table: UnsafePointer<folio_editor>, pluginID: String, library: URL) throws {
        func refuse(_ reason: String) -> PluginRefusal { PluginRefusal(file: library.path, reason: reason) }
        let e = table.pointee
        guard Int(e.struct_size) >= MemoryLayout<folio_editor>.size else {
            throw refuse("an editor table is \(e.struct_size) bytes, ABI \(FOLIO_PLUGIN_ABI_MAJOR).\(FOLIO_PLUGIN_ABI_MINOR) needs \(MemoryLayout<folio_editor>.size)")
        }
        guard let idPointer = e.id else { throw refuse("an editor has no id") }
        let id = String(cString: idPointer)
        guard e.open != nil, e.apply != nil, e.serialize != nil, e.render != nil, e.release != nil else {
            throw refuse("editor '\(id)' lacks one of open, apply, serialize, render, release")
        }
        guard e.content_type_count <= 1024, e.declared_type_count <= 1024, e.command_count <= 1024 else {
            throw refuse("editor '\(id)' has implausible table sizes")
        }
        func strings(_ list: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int) -> [String] {
            guard let list else { return [] }
            return (0..<count).compactMap { list[$0].map { String(cString: $0) } }
        }
        /// The entries of one of the editor's tables, each present and at least as large as this host's struct.
        func entries<Entry>(_ list: UnsafePointer<UnsafePointer<Entry>?>?, _ count: Int, _ size: KeyPath<Entry, UInt32>,
                            _ what: String) throws -> [Entry] {
            guard let list else { return [] }
            return try (0..<count).map { index in
                guard let entry = list[index], Int(entry.pointee[keyPath: size]) >= MemoryLayout<Entry>.size else {
                    throw refuse("editor '\(id)': \(what) \(index + 1) is missing or malformed")
                }
                return entry.pointee
            }
        }
        var commands: [EditorCommand] = []
        for c in try entries(e.commands, e.command_count, \.struct_size, "command") {
            guard let commandID = c.id else { throw refuse("editor '\(id)': command \(commands.count + 1) is missing or malformed") }
            let name = String(cString: commandID)
            commands.append(EditorCommand(
                id: name, title: c.title.map { String(cString: $0) } ?? name, shortcut: c.shortcut.map { String(cString: $0) },
                needsSelection: c.flags & UInt32(FOLIO_COMMAND_NEEDS_SELECTION) != 0, usage: c.usage.map { String(cString: $0) }))
        }
        var declared: [DeclaredType] = []
        for t in try entries(e.declared_types, e.declared_type_count, \.struct_size, "declared type") {
            guard let identifier = t.identifier else { throw refuse("editor '\(id)': declared type \(declared.count + 1) is missing or malformed") }
            declared.append(DeclaredType(
                identifier: ContentType(String(cString: identifier)),
                conformsTo: strings(t.conforms_to, min(t.conforms_to_count, 64)).map { ContentType($0) },
                extensions: strings(t.extensions, min(t.extension_count, 64)),
                description: t.description.map { String(cString: $0) } ?? ""))
        }
        let diff = e.extension.flatMap { $0(table, FOLIO_EXTENSION_SEMANTIC_DIFF) }?.assumingMemoryBound(to: folio_semantic_diff_v1.self)
        let merge = e.extension.flatMap { $0(table, FOLIO_EXTENSION_SEMANTIC_MERGE) }?.assumingMemoryBound(to: folio_semantic_merge_v1.self)
        diffTable = diff.flatMap { Int($0.pointee.struct_size) >= MemoryLayout<folio_semantic_diff_v1>.size && $0.pointee.diff != nil ? $0 : nil }
        mergeTable = merge.flatMap { Int($0.pointee.struct_size) >= MemoryLayout<folio_semantic_merge_v1>.size && $0.pointee.merge != nil ? $0 : nil }
        let items = e.extension.flatMap { $0(table, FOLIO_EXTENSION_ITEMS) }?.assumingMemoryBound(to: folio_items_v1.self)
        itemsTable = items.flatMap { Int($0.pointee.struct_size) >= MemoryLayout<folio_items_v1>.size && $0.pointee.list != nil && $0.pointee.take != nil ? $0 : nil }
        let values = e.extension.flatMap { $0(table, FOLIO_EXTENSION_ARGUMENT_VALUES) }?.assumingMemoryBound(to: folio_argument_values_v1.self)
        argumentValuesTable = values.flatMap { Int($0.pointee.struct_size) >= MemoryLayout<folio_argument_values_v1>.size && $0.pointee.values != nil ? $0 : nil }
        var extensions: [String] = []
        if diffTable != nil { extensions.append(FOLIO_EXTENSION_SEMANTIC_DIFF) }
        if mergeTable != nil { extensions.append(FOLIO_EXTENSION_SEMANTIC_MERGE) }
        if itemsTable != nil { extensions.append(FOLIO_EXTENSION_ITEMS) }
        if argumentValuesTable != nil { extensions.append(FOLIO_EXTENSION_ARGUMENT_VALUES) }
        manifest = EditorManifest(
            id: id, name: e.name.map { String(cString: $0) } ?? id,
            contentTypes: strings(e.content_types, e.content_type_count).map { ContentType($0) },
            priority: e.priority == FOLIO_PRIORITY_OPTION ? .option : .default,
            declaredTypes: declared, extensions: extensions, commands: commands)
        self.pluginID = pluginID
        self.table = table
    }

    /// Opens a document from its file bytes.
    public func open(_ data: Data) throws -> EditorDocument {
        var error = folio_buffer()
        var handle: OpaquePointer?
        let status = data.withUnsafeBytes { raw in
            table.pointee.open?(table, raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &handle, &error) ?? folio_status(FOLIO_STATUS_UNSUPPORTED)
        }
        try check(status, "open", &error)
        guard let handle else { throw EditorOperationError(editor: id, operation: "open", kind: .internal, message: "the plugin returned no document") }
        return EditorDocument(editor: self, handle: handle)
    }

    /// Whether the editor provides `folio.semantic-diff/1`.
    public var hasSemanticDiff: Bool { diffTable != nil }
    /// Whether the editor provides `folio.semantic-merge/1`.
    public var hasSemanticMerge: Bool { mergeTable != nil }

    /// The changes from `old` to `new` as the editor sees them, one per line; nil when it has no semantic diff.
    public func semanticDiff(from old: Data, to new: Data) throws -> String? {
        guard let diffTable, let diff = diffTable.pointee.diff else { return nil }
        var out = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out) }
        let status = old.withUnsafeBytes { o in
            new.withUnsafeBytes { n in
                diff(table, o.bindMemory(to: UInt8.self).baseAddress, o.count, n.bindMemory(to: UInt8.self).baseAddress, n.count, &out, &error)
            }
        }
        try check(status, "semantic diff", &error)
        return try take(&out, editor: id, operation: "semantic diff").map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Three-way merge item by item; nil when the editor has no semantic merge.
    public func semanticMerge(base: Data, ours: Data, theirs: Data) throws -> SemanticMergeResult? {
        guard let mergeTable, let merge = mergeTable.pointee.merge else { return nil }
        var merged = folio_buffer(), conflicts = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&merged); folio_buffer_release(&conflicts) }
        let status = base.withUnsafeBytes { b in
            ours.withUnsafeBytes { o in
                theirs.withUnsafeBytes { t in
                    merge(table, b.bindMemory(to: UInt8.self).baseAddress, b.count, o.bindMemory(to: UInt8.self).baseAddress, o.count,
                          t.bindMemory(to: UInt8.self).baseAddress, t.count, &merged, &conflicts, &error)
                }
            }
        }
        if status == FOLIO_STATUS_CONFLICT {
            folio_buffer_release(&error)
            let text = try take(&conflicts, editor: id, operation: "semantic merge").map { String(decoding: $0, as: UTF8.self) } ?? ""
            return .conflicts(text.split(separator: "\n").map(String.init))
        }
        try check(status, "semantic merge", &error)
        return .merged(try take(&merged, editor: id, operation: "semantic merge") ?? Data())
    }

    /// Throws the plugin's error (releasing its message buffer) unless `status` is OK.
    func check(_ status: folio_status, _ operation: String, _ error: inout folio_buffer) throws {
        defer { folio_buffer_release(&error) }
        guard status != FOLIO_STATUS_OK else { return }
        let message: String
        do { message = try take(&error, editor: id, operation: operation).map { String(decoding: $0, as: UTF8.self) } ?? "" } catch {
            message = "(a message over the size limit)"
        }
        let kind: EditorOperationError.Kind
        switch status {
        case FOLIO_STATUS_INVALID_ARGUMENT: kind = .invalidArgument
        case FOLIO_STATUS_UNKNOWN_COMMAND: kind = .unknownCommand
        case FOLIO_STATUS_INVALID_DOCUMENT: kind = .invalidDocument
        case FOLIO_STATUS_CONFLICT: kind = .conflict
        case FOLIO_STATUS_UNSUPPORTED: kind = .unsupported
        case FOLIO_STATUS_OUT_OF_MEMORY: kind = .outOfMemory
        default: kind = .internal
        }
        throw EditorOperationError(editor: id, operation: operation, kind: kind, message: message)
    }
}

/// The largest buffer a plugin may return in this process (the plugin host process sets it from its limits).
let pluginBufferCap = Atomic<Int>(Int.max)

/// Copies a plugin buffer's bytes and releases it with the plugin's own function; a buffer over `pluginBufferCap`
/// is released unread and refused.
func take(_ buffer: inout folio_buffer, editor: String, operation: String) throws -> Data? {
    defer { folio_buffer_release(&buffer) }
    guard let data = buffer.data else { return nil }
    let cap = pluginBufferCap.load(ordering: .relaxed)
    guard buffer.size <= cap else {
        throw EditorOperationError(editor: editor, operation: operation, kind: .internal,
                                   message: "the plugin returned \(buffer.size) bytes, over the limit of \(cap)")
    }
    return Data(bytes: data, count: buffer.size)
}

/// An open document inside a plugin; owns the plugin's handle and releases it when dropped.
public final class EditorDocument: @unchecked Sendable {
    /// The editor that opened it.
    public let editor: PluginEditor
    let handle: OpaquePointer

    init(editor: PluginEditor, handle: OpaquePointer) {
        self.editor = editor
        self.handle = handle
    }

    deinit {
        editor.table.pointee.release?(editor.table, handle)
    }

    /// Applies a command; returns the new document and the plugin's one-line description of the change.
    public func applying(_ command: String, arguments: [String], selection: ViewSelection = ViewSelection()) throws -> (document: EditorDocument, description: String) {
        let json = String(decoding: (try? JSONEncoder().encode(arguments)) ?? Data("[]".utf8), as: UTF8.self)
        var selectionC = selection.c
        var newHandle: OpaquePointer?
        var description = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&description) }
        let status = editor.table.pointee.apply?(editor.table, handle, command, json, &selectionC, &newHandle, &description, &error)
            ?? folio_status(FOLIO_STATUS_UNSUPPORTED)
        if status != FOLIO_STATUS_OK, let newHandle { editor.table.pointee.release?(editor.table, newHandle) }
        try editor.check(status, command, &error)
        guard let newHandle else {
            throw EditorOperationError(editor: editor.id, operation: command, kind: .internal, message: "the plugin returned no document")
        }
        let document = EditorDocument(editor: editor, handle: newHandle)
        let text = try take(&description, editor: editor.id, operation: command).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return (document, line.isEmpty ? command : line)
    }

    /// The document as file bytes.
    public func serialized() throws -> Data {
        var out = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out) }
        let status = editor.table.pointee.serialize?(editor.table, handle, &out, &error) ?? folio_status(FOLIO_STATUS_UNSUPPORTED)
        try editor.check(status, "serialize", &error)
        return try take(&out, editor: editor.id, operation: "serialize") ?? Data()
    }

    /// The editor's view for a terminal of `width` × `height` cells: at most `height` lines.
    public func render(width: Int, height: Int, selection: ViewSelection = ViewSelection()) throws -> [String] {
        let w = UInt32(clamping: max(1, width)), h = UInt32(clamping: max(1, height))
        var selectionC = selection.c
        var out = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out) }
        let status = editor.table.pointee.render?(editor.table, handle, w, h, &selectionC, &out, &error) ?? folio_status(FOLIO_STATUS_UNSUPPORTED)
        try editor.check(status, "render", &error)
        let text = try take(&out, editor: editor.id, operation: "render").map { String(decoding: $0, as: UTF8.self) } ?? ""
        if text.isEmpty { return [] }
        return Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(Int(h)).map(String.init))
    }
}
