import FolioPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// One editor table of a loaded library, checked, with its description and its calls.
struct HostEditor {
    struct Command { var id, title, shortcut, usage: String; var needsSelection: Bool }
    struct Declared { var identifier: String; var conformsTo, extensions: [String]; var description: String }

    let id: String
    let name: String
    let contentTypes: [String]
    let priority: String
    let declared: [Declared]
    let commands: [Command]
    let table: UnsafePointer<folio_editor>
    let diffTable: UnsafePointer<folio_semantic_diff_v1>?
    let mergeTable: UnsafePointer<folio_semantic_merge_v1>?
    let itemsTable: UnsafePointer<folio_items_v1>?
    let argumentValuesTable: UnsafePointer<folio_argument_values_v1>?

    init(table: UnsafePointer<folio_editor>, library: String) throws(HostRefusal) {
        func refuse(_ reason: String) -> HostRefusal { HostRefusal(file: library, reason: reason) }
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
        func text(_ pointer: UnsafePointer<CChar>?, or fallback: String) -> String { pointer.map { String(cString: $0) } ?? fallback }
        var commands: [Command] = []
        if let list = e.commands {
            for index in 0..<e.command_count {
                guard let entry = list[index], Int(entry.pointee.struct_size) >= MemoryLayout<folio_command_info>.size, let commandID = entry.pointee.id else {
                    throw refuse("editor '\(id)': command \(index + 1) is missing or malformed")
                }
                let c = entry.pointee, name = String(cString: commandID)
                commands.append(Command(id: name, title: text(c.title, or: name), shortcut: text(c.shortcut, or: ""), usage: text(c.usage, or: name),
                                        needsSelection: c.flags & UInt32(FOLIO_COMMAND_NEEDS_SELECTION) != 0))
            }
        }
        var declared: [Declared] = []
        if let list = e.declared_types {
            for index in 0..<e.declared_type_count {
                guard let entry = list[index], Int(entry.pointee.struct_size) >= MemoryLayout<folio_type_declaration>.size, let identifier = entry.pointee.identifier else {
                    throw refuse("editor '\(id)': declared type \(index + 1) is missing or malformed")
                }
                let t = entry.pointee
                declared.append(Declared(identifier: String(cString: identifier), conformsTo: strings(t.conforms_to, min(t.conforms_to_count, 64)),
                                         extensions: strings(t.extensions, min(t.extension_count, 64)), description: text(t.description, or: "")))
            }
        }
        let diff = e.extension.flatMap { $0(table, FOLIO_EXTENSION_SEMANTIC_DIFF) }?.assumingMemoryBound(to: folio_semantic_diff_v1.self)
        let merge = e.extension.flatMap { $0(table, FOLIO_EXTENSION_SEMANTIC_MERGE) }?.assumingMemoryBound(to: folio_semantic_merge_v1.self)
        diffTable = diff.flatMap { Int($0.pointee.struct_size) >= MemoryLayout<folio_semantic_diff_v1>.size && $0.pointee.diff != nil ? $0 : nil }
        mergeTable = merge.flatMap { Int($0.pointee.struct_size) >= MemoryLayout<folio_semantic_merge_v1>.size && $0.pointee.merge != nil ? $0 : nil }
        itemsTable = Self.itemsTable(table)
        argumentValuesTable = Self.argumentValuesTable(table)
        self.id = id
        name = text(e.name, or: id)
        contentTypes = strings(e.content_types, e.content_type_count)
        priority = e.priority == FOLIO_PRIORITY_OPTION ? "option" : "default"
        self.declared = declared
        self.commands = commands
        self.table = table
    }

    /// The editor as a manifest entry (JSON members).
    func describe(_ json: inout HostJSON) {
        json.member("id", id)
        json.member("name", name)
        json.member("contentTypes", strings: contentTypes)
        json.member("priority", priority)
        json.member("declaredTypes", objects: declared) { json, t in
            json.member("identifier", t.identifier)
            json.member("conformsTo", strings: t.conformsTo)
            json.member("extensions", strings: t.extensions)
            json.member("description", t.description)
        }
        var extensions: [String] = []
        if diffTable != nil { extensions.append(FOLIO_EXTENSION_SEMANTIC_DIFF) }
        if mergeTable != nil { extensions.append(FOLIO_EXTENSION_SEMANTIC_MERGE) }
        if itemsTable != nil { extensions.append(FOLIO_EXTENSION_ITEMS) }
        if argumentValuesTable != nil { extensions.append(FOLIO_EXTENSION_ARGUMENT_VALUES) }
        json.member("extensions", strings: extensions)
        json.member("commands", objects: commands) { json, c in
            json.member("id", c.id)
            json.member("title", c.title)
            json.member("shortcut", c.shortcut)
            json.member("usage", c.usage)
            json.member("needsSelection", c.needsSelection)
        }
    }
}

/// The calls into an editor, each returning the plugin's bytes (checked against the cap) or throwing its failure.
struct HostCalls {
    let editor: HostEditor
    let bufferCap: Int
    private var table: UnsafePointer<folio_editor> { editor.table }

    func open(_ bytes: [UInt8]) throws(HostCallFailure) -> OpaquePointer {
        var error = folio_buffer()
        var handle: OpaquePointer?
        let status = bytes.withUnsafeBufferPointer { table.pointee.open?(table, $0.baseAddress, $0.count, &handle, &error) } ?? folio_status(FOLIO_STATUS_UNSUPPORTED)
        try check(status, &error)
        guard let handle else { throw HostCallFailure(status: 7, message: "the plugin returned no document") }
        return handle
    }

    func release(_ handle: OpaquePointer) { table.pointee.release?(table, handle) }

    /// Applies `command` with `arguments` (a JSON array as Folio encoded it); the new handle and the description.
    func apply(_ handle: OpaquePointer, _ command: String, arguments: String, _ selection: folio_selection) throws(HostCallFailure) -> (OpaquePointer, String) {
        var selection = selection
        var newHandle: OpaquePointer?
        var description = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&description) }
        let status = table.pointee.apply?(table, handle, command, arguments, &selection, &newHandle, &description, &error) ?? folio_status(FOLIO_STATUS_UNSUPPORTED)
        if status != FOLIO_STATUS_OK, let newHandle { release(newHandle) }
        try check(status, &error)
        guard let newHandle else { throw HostCallFailure(status: 7, message: "the plugin returned no document") }
        do {
            let text = try take(&description).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            return (newHandle, line.isEmpty ? command : line)
        } catch {
            release(newHandle)
            throw error
        }
    }

    func serialize(_ handle: OpaquePointer) throws(HostCallFailure) -> [UInt8] {
        var out = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out) }
        let status = table.pointee.serialize?(table, handle, &out, &error) ?? folio_status(FOLIO_STATUS_UNSUPPORTED)
        try check(status, &error)
        return try take(&out) ?? []
    }

    /// At most `height` lines, joined by "\n".
    func render(_ handle: OpaquePointer, width: Int, height: Int, _ selection: folio_selection) throws(HostCallFailure) -> [UInt8] {
        let w = UInt32(clamping: max(1, width)), h = UInt32(clamping: max(1, height))
        var selection = selection
        var out = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out) }
        let status = table.pointee.render?(table, handle, w, h, &selection, &out, &error) ?? folio_status(FOLIO_STATUS_UNSUPPORTED)
        try check(status, &error)
        let text = try take(&out).map { String(decoding: $0, as: UTF8.self) } ?? ""
        if text.isEmpty { return [] }
        return Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(Int(h)).joined(separator: "\n").utf8)
    }

    /// nil when the editor has no semantic diff.
    func diff(_ old: [UInt8], _ new: [UInt8]) throws(HostCallFailure) -> [UInt8]? {
        guard let diff = editor.diffTable?.pointee.diff else { return nil }
        var out = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out) }
        let status = old.withUnsafeBufferPointer { o in new.withUnsafeBufferPointer { n in diff(table, o.baseAddress, o.count, n.baseAddress, n.count, &out, &error) } }
        try check(status, &error)
        return try take(&out) ?? []
    }

    enum Merged { case merged([UInt8]), conflicts([UInt8]) }

    /// nil when the editor has no semantic merge.
    func merge(_ base: [UInt8], _ ours: [UInt8], _ theirs: [UInt8]) throws(HostCallFailure) -> Merged? {
        guard let merge = editor.mergeTable?.pointee.merge else { return nil }
        var merged = folio_buffer(), conflicts = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&merged); folio_buffer_release(&conflicts) }
        let status = base.withUnsafeBufferPointer { b in
            ours.withUnsafeBufferPointer { o in
                theirs.withUnsafeBufferPointer { t in
                    merge(table, b.baseAddress, b.count, o.baseAddress, o.count, t.baseAddress, t.count, &merged, &conflicts, &error)
                }
            }
        }
        if status == FOLIO_STATUS_CONFLICT {
            folio_buffer_release(&error)
            return .conflicts(try take(&conflicts) ?? [])
        }
        try check(status, &error)
        return .merged(try take(&merged) ?? [])
    }

    /// Throws the plugin's failure (releasing its message buffer) unless `status` is OK.
    func check(_ status: folio_status, _ error: inout folio_buffer) throws(HostCallFailure) {
        defer { folio_buffer_release(&error) }
        guard status != FOLIO_STATUS_OK else { return }
        let message: String
        do { message = try take(&error).map { String(decoding: $0, as: UTF8.self) } ?? "" } catch { message = "(a message over the size limit)" }
        let known: [folio_status] = [FOLIO_STATUS_INVALID_ARGUMENT, FOLIO_STATUS_UNKNOWN_COMMAND, FOLIO_STATUS_INVALID_DOCUMENT,
                                     FOLIO_STATUS_CONFLICT, FOLIO_STATUS_UNSUPPORTED, FOLIO_STATUS_OUT_OF_MEMORY]
        throw HostCallFailure(status: known.contains(status) ? Int64(status) : 7, message: message)
    }

    /// Copies a plugin buffer and releases it with the plugin's own function; a buffer over the cap is refused unread.
    func take(_ buffer: inout folio_buffer) throws(HostCallFailure) -> [UInt8]? {
        defer { folio_buffer_release(&buffer) }
        guard let data = buffer.data else { return nil }
        guard buffer.size <= bufferCap else {
            throw HostCallFailure(status: 7, message: "the plugin returned \(buffer.size) bytes, over the limit of \(bufferCap)")
        }
        return Array(UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
