import FolioPluginABI
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Turns a `FolioPlugin` into the C descriptor that `folio_plugin_entry` returns.
///
/// A Swift plugin exports its entry point like this:
///
///     @_cdecl("folio_plugin_entry")
///     public func folioPluginEntry() -> UnsafeRawPointer? {
///         FolioPluginExport.descriptor { FolioPlugin(id: "…", name: "…", version: "…", editors: [MyEditor()]) }
///     }
public enum FolioPluginExport {
    /// The plugin's descriptor, built on the first call and kept for the life of the process.
    public static func descriptor(_ makePlugin: () -> FolioPlugin) -> UnsafeRawPointer? {
        let state = exported.withLock { exported in
            if let exported { return exported }
            let state = ExportState(makePlugin())
            exported = state
            return state
        }
        return UnsafeRawPointer(state.descriptor)
    }
}

/// The descriptor's state, made by the first `descriptor` call.
private let exported = Mutex<ExportState?>(nil)

/// Everything the descriptor points at. Allocated once and never freed: the library is never unloaded.
/// `@unchecked Sendable` is safe: every property is set in `init` and never changed (the descriptor's and the tables'
/// memory is written only there, before `exported` publishes it), and the editors are called one at a time (the ABI's threading rule).
private final class ExportState: @unchecked Sendable {
    let editors: [ErasedEditor]
    let descriptor: UnsafeMutablePointer<folio_plugin_descriptor>
    /// The extensions' function tables, shared by every editor that declares the extension.
    let extensionTables = (
        semanticDiff: permanent(folio_semantic_diff_v1(struct_size: UInt32(MemoryLayout<folio_semantic_diff_v1>.size), reserved: 0, diff: kitDiff)),
        semanticMerge: permanent(folio_semantic_merge_v1(struct_size: UInt32(MemoryLayout<folio_semantic_merge_v1>.size), reserved: 0, merge: kitMerge)),
        items: permanent(folio_items_v1(struct_size: UInt32(MemoryLayout<folio_items_v1>.size), reserved: 0, list: kitListItems, take: kitTakeItems)),
        argumentValues: permanent(folio_argument_values_v1(struct_size: UInt32(MemoryLayout<folio_argument_values_v1>.size), reserved: 0,
                                                           values: kitArgumentValues)))

    init(_ plugin: FolioPlugin) {
        editors = plugin.editors.map { ErasedEditor($0) }
        let editorPointers = UnsafeMutablePointer<UnsafePointer<folio_editor>?>.allocate(capacity: max(1, editors.count))
        for (index, editor) in editors.enumerated() {
            editorPointers[index] = UnsafePointer(makeEditor(editor.spec, index: index))
        }
        descriptor = .allocate(capacity: 1)
        descriptor.initialize(to: folio_plugin_descriptor(
            magic: FOLIO_PLUGIN_MAGIC, abi_major: UInt32(FOLIO_PLUGIN_ABI_MAJOR), abi_minor: UInt32(FOLIO_PLUGIN_ABI_MINOR),
            struct_size: UInt32(MemoryLayout<folio_plugin_descriptor>.size), reserved: 0,
            id: permanent(plugin.id), name: permanent(plugin.name), version: permanent(plugin.version),
            editors: UnsafePointer(editorPointers), editor_count: editors.count))
    }
}

private func editor(at pointer: UnsafePointer<folio_editor>?) -> ErasedEditor? {
    guard let pointer, let exported = exported.withLock({ $0 }) else { return nil }
    let index = Int(bitPattern: pointer.pointee.context) - 1
    return index >= 0 && index < exported.editors.count ? exported.editors[index] : nil
}

/// `value` in memory that is never freed (the library is never unloaded).
private func permanent<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
}

private func permanent(_ text: String) -> UnsafePointer<CChar>? {
    UnsafePointer(strdup(text))
}

private func permanentList(_ texts: [String]) -> UnsafePointer<UnsafePointer<CChar>?>? {
    let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(1, texts.count))
    for (index, text) in texts.enumerated() { list[index] = permanent(text) }
    return UnsafePointer(list)
}

private func makeEditor(_ spec: EditorSpec, index: Int) -> UnsafeMutablePointer<folio_editor> {
    let commands = UnsafeMutablePointer<UnsafePointer<folio_command_info>?>.allocate(capacity: max(1, spec.commands.count))
    for (i, command) in spec.commands.enumerated() {
        let info = UnsafeMutablePointer<folio_command_info>.allocate(capacity: 1)
        info.initialize(to: folio_command_info(
            struct_size: UInt32(MemoryLayout<folio_command_info>.size),
            flags: command.needsSelection ? UInt32(FOLIO_COMMAND_NEEDS_SELECTION) : 0,
            id: permanent(command.id), title: permanent(command.title), shortcut: permanent(command.shortcut),
            usage: permanent(command.usage)))
        commands[i] = UnsafePointer(info)
    }
    let types = UnsafeMutablePointer<UnsafePointer<folio_type_declaration>?>.allocate(capacity: max(1, spec.declaredTypes.count))
    for (i, type) in spec.declaredTypes.enumerated() {
        let declaration = UnsafeMutablePointer<folio_type_declaration>.allocate(capacity: 1)
        declaration.initialize(to: folio_type_declaration(
            struct_size: UInt32(MemoryLayout<folio_type_declaration>.size), reserved: 0,
            identifier: permanent(type.identifier),
            conforms_to: permanentList(type.conformsTo), conforms_to_count: type.conformsTo.count,
            extensions: permanentList(type.extensions), extension_count: type.extensions.count,
            description: permanent(type.description)))
        types[i] = UnsafePointer(declaration)
    }
    let editor = UnsafeMutablePointer<folio_editor>.allocate(capacity: 1)
    editor.initialize(to: folio_editor(
        struct_size: UInt32(MemoryLayout<folio_editor>.size),
        priority: spec.priority == .default ? Int32(FOLIO_PRIORITY_DEFAULT) : Int32(FOLIO_PRIORITY_OPTION),
        id: permanent(spec.id), name: permanent(spec.name),
        content_types: permanentList(spec.contentTypes), content_type_count: spec.contentTypes.count,
        declared_types: UnsafePointer(types), declared_type_count: spec.declaredTypes.count,
        commands: UnsafePointer(commands), command_count: spec.commands.count,
        context: UnsafeMutableRawPointer(bitPattern: index + 1),
        open: kitOpen, apply: kitApply, serialize: kitSerialize, render: kitRender, release: kitRelease,
        extension: kitExtension))
    return editor
}

// MARK: - The C entry points shared by every Swift editor

/// A document handle: the editor's document, boxed.
private final class DocumentBox {
    let state: Any
    init(_ state: Any) { self.state = state }
}

private func box(_ handle: OpaquePointer?) -> DocumentBox? {
    guard let handle else { return nil }
    return Unmanaged<DocumentBox>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

private func handle(_ state: Any) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(DocumentBox(state)).toOpaque())
}

private func bytes(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let pointer, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: count))
}

private func fill(_ buffer: UnsafeMutablePointer<folio_buffer>?, _ data: [UInt8]) -> folio_status {
    data.withUnsafeBytes { raw in folio_buffer_set(buffer, raw.baseAddress, raw.count) }
}

private func fill(_ buffer: UnsafeMutablePointer<folio_buffer>?, _ text: String) -> folio_status {
    fill(buffer, Array(text.utf8))
}

/// Runs `body`, turning any thrown error into a status and message.
private func guarded(_ errorBuffer: UnsafeMutablePointer<folio_buffer>?, _ body: () throws -> folio_status) -> folio_status {
    do {
        return try body()
    } catch let failure as EditorFailure {
        _ = fill(errorBuffer, failure.message)
        switch failure.kind {
        case .invalidArgument: return folio_status(FOLIO_STATUS_INVALID_ARGUMENT)
        case .unknownCommand: return folio_status(FOLIO_STATUS_UNKNOWN_COMMAND)
        case .invalidDocument: return folio_status(FOLIO_STATUS_INVALID_DOCUMENT)
        case .conflict: return folio_status(FOLIO_STATUS_CONFLICT)
        case .unsupported: return folio_status(FOLIO_STATUS_UNSUPPORTED)
        case .internal: return folio_status(FOLIO_STATUS_INTERNAL)
        }
    } catch {
        _ = fill(errorBuffer, String(describing: error))
        return folio_status(FOLIO_STATUS_INTERNAL)
    }
}

private let unknownEditor = EditorFailure(.internal, "unknown editor handle")

private let kitOpen: @convention(c) (UnsafePointer<folio_editor>?, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, data, size, out, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer), let out else { throw unknownEditor }
        out.pointee = handle(try editor.open(bytes(data, size)))
        return folio_status(FOLIO_STATUS_OK)
    }
}

private let kitApply: @convention(c) (UnsafePointer<folio_editor>?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<folio_selection>?, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, document, command, argumentsJSON, selection, out, description, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer), let document = box(document), let out else { throw unknownEditor }
        let commandID = command.map { String(cString: $0) } ?? ""
        let spec = try editor.command(commandID)
        let arguments = try decodeArguments(argumentsJSON)
        let (state, summary) = try editor.apply(document.state, commandID, CommandArguments(arguments, usage: spec.usage),
                                                selection.map(readSelection) ?? Selection())
        let status = fill(description, summary)
        if status != FOLIO_STATUS_OK { return status }
        out.pointee = handle(state)
        return folio_status(FOLIO_STATUS_OK)
    }
}

private let kitSerialize: @convention(c) (UnsafePointer<folio_editor>?, OpaquePointer?, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, document, out, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer), let document = box(document) else { throw unknownEditor }
        return fill(out, try editor.serialize(document.state))
    }
}

private let kitRender: @convention(c) (UnsafePointer<folio_editor>?, OpaquePointer?, UInt32, UInt32, UnsafePointer<folio_selection>?, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, document, width, height, selection, out, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer), let document = box(document) else { throw unknownEditor }
        let lines = try editor.render(document.state, Int(width), Int(height), selection.map(readSelection) ?? Selection())
        return fill(out, lines.prefix(Int(height)).map { ViewText.fit($0, width: Int(width)) }.joined(separator: "\n"))
    }
}

private let kitRelease: @convention(c) (UnsafePointer<folio_editor>?, OpaquePointer?) -> Void = { _, document in
    guard let document else { return }
    Unmanaged<DocumentBox>.fromOpaque(UnsafeRawPointer(document)).release()
}

private let kitExtension: @convention(c) (UnsafePointer<folio_editor>?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = { editorPointer, id in
    guard let editor = editor(at: editorPointer), let id else { return nil }
    let name = String(cString: id)
    guard editor.extensions.contains(name) else { return nil }
    guard let tables = exported.withLock({ $0 })?.extensionTables else { return nil }
    switch name {
    case FolioExtension.semanticDiff: return UnsafeRawPointer(tables.semanticDiff)
    case FolioExtension.semanticMerge: return UnsafeRawPointer(tables.semanticMerge)
    case FolioExtension.items: return UnsafeRawPointer(tables.items)
    case FolioExtension.argumentValues: return UnsafeRawPointer(tables.argumentValues)
    default: return nil
    }
}

private let kitDiff: @convention(c) (UnsafePointer<folio_editor>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, old, oldSize, new, newSize, out, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer) else { throw unknownEditor }
        let lines = try editor.diff(bytes(old, oldSize), bytes(new, newSize))
        return fill(out, lines.joined(separator: "\n"))
    }
}

private let kitMerge: @convention(c) (UnsafePointer<folio_editor>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, base, baseSize, ours, oursSize, theirs, theirsSize, merged, conflicts, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer) else { throw unknownEditor }
        switch try editor.merge(bytes(base, baseSize), bytes(ours, oursSize), bytes(theirs, theirsSize)) {
        case let .merged(data):
            return fill(merged, data)
        case let .conflicts(lines):
            let status = fill(conflicts, lines.joined(separator: "\n"))
            return status == FOLIO_STATUS_OK ? folio_status(FOLIO_STATUS_CONFLICT) : status
        }
    }
}

private let kitListItems: @convention(c) (UnsafePointer<folio_editor>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, previous, previousSize, data, size, out, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer) else { throw unknownEditor }
        let items = try editor.listItems(previous.map { _ in bytes(previous, previousSize) }, bytes(data, size))
        return fill(out, KitItems.lines(items))
    }
}

private let kitTakeItems: @convention(c) (UnsafePointer<folio_editor>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, from, fromSize, into, intoSize, fromKeys, intoKeys, count, out, description, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer) else { throw unknownEditor }
        func strings(_ list: UnsafePointer<UnsafePointer<CChar>?>?) throws -> [String] {
            guard count >= 0, count <= 1_000_000 else { throw EditorFailure.invalidArgument("\(count) item keys") }
            guard count > 0 else { return [] }
            guard let list else { throw EditorFailure.invalidArgument("no item keys") }
            return try (0..<count).map { index in
                guard let key = list[index] else { throw EditorFailure.invalidArgument("item key \(index + 1) is missing") }
                return String(cString: key)
            }
        }
        let (data, summary) = try editor.takeItems(bytes(from, fromSize), bytes(into, intoSize), try strings(fromKeys), try strings(intoKeys))
        let status = fill(out, data)
        if status != FOLIO_STATUS_OK { return status }
        return fill(description, summary)
    }
}

private let kitArgumentValues: @convention(c) (UnsafePointer<folio_editor>?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<folio_selection>?, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status = { editorPointer, document, command, selection, out, error in
    guarded(error) {
        guard let editor = editor(at: editorPointer), let document = box(document), let command else { throw unknownEditor }
        let commandID = try editor.command(String(cString: command)).id
        guard let values = try editor.argumentValues(document.state, commandID, selection.map(readSelection) ?? Selection()) else {
            return folio_status(FOLIO_STATUS_UNSUPPORTED)
        }
        return fill(out, PluginJSON.array(values))
    }
}

/// The selection the host passed; the pan only when its `struct_size` covers it (a 1.0/1.1 host passes none).
private func readSelection(_ pointer: UnsafePointer<folio_selection>) -> Selection {
    let size = Int(pointer.pointee.struct_size)
    guard size >= MemoryLayout<folio_selection>.offset(of: \.pan_x) ?? Int.max else { return Selection() }
    var selection = Selection(cursor: clampInt(pointer.pointee.cursor), anchor: clampInt(pointer.pointee.anchor), scroll: clampInt(pointer.pointee.scroll))
    if size >= MemoryLayout<folio_selection>.size { selection.panX = clampInt(pointer.pointee.pan_x); selection.panY = clampInt(pointer.pointee.pan_y) }
    return selection
}

private func clampInt(_ value: Int64) -> Int {
    Int(max(Int64(Int32.min), min(Int64(Int32.max), value)))
}

private func decodeArguments(_ json: UnsafePointer<CChar>?) throws -> [String] {
    guard let json else { return [] }
    let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(json).assumingMemoryBound(to: UInt8.self), count: strlen(json)))
    if bytes.isEmpty { return [] }
    let refusal = EditorFailure.invalidArgument("arguments must be a JSON array of strings")
    guard case let .array(values)? = try? PluginJSON.parse(bytes) else { throw refusal }
    return try values.map { value in
        guard case let .string(text) = value else { throw refusal }
        return text
    }
}

// MARK: - Type erasure

/// An editor with its document type erased, so the C glue can hold editors of any type.
/// `@unchecked Sendable` is safe: its closures hold the plugin's editor, which the host calls one call at a time from
/// one thread (docs/PLUGINS.md, "Threading"), and nothing here is changed after `init`.
private struct ErasedEditor: @unchecked Sendable {
    let spec: EditorSpec
    let extensions: Set<String>
    let open: ([UInt8]) throws -> Any
    let apply: (Any, String, CommandArguments, Selection) throws -> (Any, String)
    let serialize: (Any) throws -> [UInt8]
    let render: (Any, Int, Int, Selection) throws -> [String]
    let diff: ([UInt8], [UInt8]) throws -> [String]
    let merge: ([UInt8], [UInt8], [UInt8]) throws -> MergeOutcome<[UInt8]>
    let listItems: ([UInt8]?, [UInt8]) throws -> [(item: ItemInfo, previous: String?)]
    let takeItems: ([UInt8], [UInt8], [String], [String]) throws -> ([UInt8], String)
    let argumentValues: (Any, String, Selection) throws -> [String?]?

    init<E: FolioEditor>(_ editor: E) {
        spec = editor.spec
        extensions = editor.extensions
        func cast(_ state: Any) throws -> E.Document {
            guard let document = state as? E.Document else { throw EditorFailure(.internal, "document handle of another editor") }
            return document
        }
        open = { try editor.open($0) }
        apply = { state, command, arguments, selection in
            let (document, summary) = try editor.apply(command, arguments: arguments, to: try cast(state), selection: selection)
            return (document, summary)
        }
        serialize = { try editor.serialize(try cast($0)) }
        render = { state, width, height, selection in
            editor.render(try cast(state), width: width, height: height, selection: selection)
        }
        diff = { old, new in
            try editor.semanticDiff(from: try editor.open(old), to: try editor.open(new))
        }
        merge = { base, ours, theirs in
            switch try editor.semanticMerge(base: try editor.open(base), ours: try editor.open(ours), theirs: try editor.open(theirs)) {
            case let .merged(document): return .merged(try editor.serialize(document))
            case let .conflicts(lines): return .conflicts(lines)
            }
        }
        listItems = { previous, bytes in try KitItems.list(editor, previous: previous, bytes: bytes) }
        takeItems = { from, into, fromKeys, intoKeys in try KitItems.take(editor, from: from, into: into, fromKeys: fromKeys, intoKeys: intoKeys) }
        argumentValues = { state, command, selection in try editor.argumentValues(for: command, in: try cast(state), selection: selection) }
    }

    /// The command `id` names; an unknown id is the ABI's UNKNOWN_COMMAND, naming the commands there are.
    func command(_ id: String) throws -> CommandSpec {
        guard let command = spec.commands.first(where: { $0.id == id }) else {
            throw EditorFailure(.unknownCommand, "unknown command '\(id)' (commands: \(spec.commands.map(\.id).joined(separator: ", ")))")
        }
        return command
    }
}
