import FolioPluginABI
#if canImport(Glibc)
import Glibc
#endif

extension HostEditor {
    /// The editor's `folio.items/1` table when it answers one that is large enough and has both functions.
    static func itemsTable(_ table: UnsafePointer<folio_editor>) -> UnsafePointer<folio_items_v1>? {
        let raw = table.pointee.extension.flatMap { $0(table, FOLIO_EXTENSION_ITEMS) }
        guard let items = raw?.assumingMemoryBound(to: folio_items_v1.self) else { return nil }
        let t = items.pointee
        return Int(t.struct_size) >= MemoryLayout<folio_items_v1>.size && t.list != nil && t.take != nil ? items : nil
    }
}

extension HostEditor {
    /// The editor's `folio.argument-values/1` table when it answers one that is large enough and has its function.
    static func argumentValuesTable(_ table: UnsafePointer<folio_editor>) -> UnsafePointer<folio_argument_values_v1>? {
        let raw = table.pointee.extension.flatMap { $0(table, FOLIO_EXTENSION_ARGUMENT_VALUES) }
        guard let values = raw?.assumingMemoryBound(to: folio_argument_values_v1.self) else { return nil }
        return Int(values.pointee.struct_size) >= MemoryLayout<folio_argument_values_v1>.size && values.pointee.values != nil ? values : nil
    }
}

extension HostCalls {
    /// The editor's answer (a JSON array, checked by Folio) for `command`'s current argument values; nil when it has
    /// none (no `folio.argument-values/1`, or FOLIO_STATUS_UNSUPPORTED for this command).
    func argumentValues(_ handle: OpaquePointer, _ command: String, _ selection: folio_selection) throws(HostCallFailure) -> [UInt8]? {
        guard let values = editor.argumentValuesTable?.pointee.values else { return nil }
        var selection = selection
        var out = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out) }
        let status = values(editor.table, handle, command, &selection, &out, &error)
        if status == FOLIO_STATUS_UNSUPPORTED { folio_buffer_release(&error); return nil }
        try check(status, &error)
        return try take(&out) ?? []
    }

    /// The editor's item list of `bytes` (matched against `previous` when given), as the plugin wrote it; nil when the
    /// editor has no `folio.items/1`.
    func items(_ bytes: [UInt8], previous: [UInt8]?) throws(HostCallFailure) -> [UInt8]? {
        guard let list = editor.itemsTable?.pointee.list else { return nil }
        var out = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out) }
        let table = editor.table
        let status = bytes.withUnsafeBufferPointer { b in
            guard let previous else { return list(table, nil, 0, b.baseAddress, b.count, &out, &error) }
            // An empty previous version is still a version (not NULL): pass a valid pointer and a size of 0.
            let padded = previous.isEmpty ? [0] : previous
            return padded.withUnsafeBufferPointer { p in list(table, p.baseAddress, previous.count, b.baseAddress, b.count, &out, &error) }
        }
        try check(status, &error)
        return try take(&out) ?? []
    }

    /// `into` with the items `fromKeys` of `from` put in place of `intoKeys` ("" for an item gone from `into`): the new
    /// bytes and the plugin's one-line description; nil when the editor has no `folio.items/1`.
    func takeItems(from: [UInt8], into: [UInt8], fromKeys: [String], intoKeys: [String]) throws(HostCallFailure) -> (bytes: [UInt8], description: String)? {
        guard let takeItems = editor.itemsTable?.pointee.take else { return nil }
        guard fromKeys.count == intoKeys.count else { throw HostCallFailure(status: 1, message: "the item lists differ in length") }
        var out = folio_buffer(), description = folio_buffer(), error = folio_buffer()
        defer { folio_buffer_release(&out); folio_buffer_release(&description) }
        let table = editor.table
        let fromStrings = CStrings(fromKeys), intoStrings = CStrings(intoKeys)
        let status = from.withUnsafeBufferPointer { f in
            into.withUnsafeBufferPointer { i in
                takeItems(table, f.baseAddress, f.count, i.baseAddress, i.count, fromStrings.pointers, intoStrings.pointers,
                          fromKeys.count, &out, &description, &error)
            }
        }
        try check(status, &error)
        let bytes = try take(&out) ?? []
        let text = try take(&description).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (bytes, text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}

/// NUL-terminated copies of strings and a pointer array to them, freed when this goes away.
final class CStrings {
    private let copies: [UnsafeMutablePointer<CChar>?]
    let list: UnsafeMutablePointer<UnsafePointer<CChar>?>

    init(_ strings: [String]) {
        copies = strings.map { strdup($0) }
        list = .allocate(capacity: max(1, strings.count))
        for (index, copy) in copies.enumerated() { list[index] = copy.map { UnsafePointer($0) } }
    }

    var pointers: UnsafePointer<UnsafePointer<CChar>?> { UnsafePointer(list) }

    deinit {
        for copy in copies { free(copy) }
        list.deallocate()
    }
}
