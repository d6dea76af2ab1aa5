import FolioPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// The `items` conformance test (`folio.items/1`): lists of hostile documents, a version matched against itself, and
/// take round trips. An editor without the extension passes (there is nothing to check).
extension HostValidate {
    /// One parsed list line.
    struct ListedItem: Equatable {
        var key: String, previous: String, fingerprint: String
    }

    /// `documents[0]` is the sample, the rest hostile documents.
    static func items(_ editor: RawEditor, _ host: HostEditor, _ documents: [[UInt8]]) throws {
        guard let table = host.itemsTable?.pointee, let list = table.list, let take = table.take else { return }
        let sample = documents.first ?? []
        for (index, document) in documents.enumerated() {
            step("list items of document \(index + 1) (\(document.count) bytes)")
            _ = try listed(editor, list, document, previous: nil, what: "list(document \(index + 1))", mayRefuse: index > 0)
        }
        step("list items of the sample matched against itself")
        let items = try listed(editor, list, sample, previous: nil, what: "list(sample)", mayRefuse: false) ?? []
        let matched = try listed(editor, list, sample, previous: sample, what: "list(sample, previous: sample)", mayRefuse: false) ?? []
        if let stray = matched.first(where: { $0.previous != $0.key }) {
            throw ValidationFailure("list(sample, previous: sample): item '\(stray.key)' is matched with '\(stray.previous)', not with itself")
        }
        let keys = items.map(\.key)
        step("take every item of the sample into an empty document")
        let intoEmpty = try taken(editor, take, from: sample, into: [], pairs: keys.map { ($0, "") }, what: "take(all, into: empty)")
        try expectItems(editor, list, intoEmpty, items, "take(all, into: empty)")
        step("take every item of the sample into itself")
        let intoItself = try taken(editor, take, from: sample, into: sample, pairs: keys.map { ($0, $0) }, what: "take(all, into: sample)")
        try expectItems(editor, list, intoItself, items, "take(all, into: sample)")
        step("take nothing from the sample into an empty document")
        let empty = try listed(editor, list, [], previous: nil, what: "list(empty document)", mayRefuse: false) ?? []
        let nothing = try taken(editor, take, from: sample, into: [], pairs: [], what: "take(none)")
        try expectItems(editor, list, nothing, empty, "take(none)", of: "the empty document")
        step("take an item that does not exist")
        try refusesUnknownKey(editor, take, sample)
    }

    /// The parsed list of `bytes`; nil when the plugin refused it (allowed only when `mayRefuse`).
    private static func listed(_ editor: RawEditor, _ list: ItemsList, _ bytes: [UInt8], previous: [UInt8]?, what: String,
                               mayRefuse: Bool) throws -> [ListedItem]? {
        var out = folio_buffer(), error = folio_buffer()
        let status = bytes.withUnsafeBufferPointer { b in
            guard let previous else { return list(editor.table, nil, 0, b.baseAddress, b.count, &out, &error) }
            let padded = previous.isEmpty ? [0] : previous
            return padded.withUnsafeBufferPointer { p in list(editor.table, p.baseAddress, previous.count, b.baseAddress, b.count, &out, &error) }
        }
        let text = RawEditor.take(&out)
        try expectStatus(status, mayRefuse ? [FOLIO_STATUS_OK, FOLIO_STATUS_INVALID_DOCUMENT] : [FOLIO_STATUS_OK], what, error: RawEditor.take(&error))
        try expectText(text, "\(what)'s text", oneLine: false)
        guard status == FOLIO_STATUS_OK else { return nil }
        return try parse(text.bytes ?? [], what: what, matched: previous != nil)
    }

    /// Checks every line: four tab-separated fields, a unique key without spaces, an empty previous key unless an
    /// earlier version was given, a fingerprint of at most 64 printable ASCII characters.
    private static func parse(_ bytes: [UInt8], what: String, matched: Bool) throws -> [ListedItem] {
        var items: [ListedItem] = []
        var keys = Set<String>()
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        for (number, line) in lines.enumerated() {
            let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            let at = "\(what), line \(number + 1)"
            guard fields.count == 4 else { throw ValidationFailure("\(at): \(fields.count) fields, expected KEY, PREVIOUS, FINGERPRINT and SUMMARY") }
            guard !fields[0].isEmpty, fields[0].utf8.count <= 64, !fields[0].unicodeScalars.contains(where: { $0 == " " || isControl($0) }) else {
                throw ValidationFailure("\(at): the key '\(fields[0].prefix(40))' is empty, too long or holds a space or control character")
            }
            guard keys.insert(fields[0]).inserted else { throw ValidationFailure("\(at): the key '\(fields[0])' is repeated") }
            if !matched && !fields[1].isEmpty { throw ValidationFailure("\(at): a previous key without an earlier version") }
            guard fields[2].utf8.count <= 64, fields[2].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw ValidationFailure("\(at): the fingerprint is longer than 64 characters or not printable ASCII")
            }
            items.append(ListedItem(key: fields[0], previous: fields[1], fingerprint: fields[2]))
        }
        return items
    }

    typealias ItemsList = @convention(c) (UnsafePointer<folio_editor>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int,
                                          UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status
    typealias ItemsTake = @convention(c) (UnsafePointer<folio_editor>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int,
                                          UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int,
                                          UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status

    private static func call(_ editor: RawEditor, _ take: ItemsTake, from: [UInt8], into: [UInt8], pairs: [(String, String)])
        -> (status: folio_status, bytes: ReturnedBuffer, description: ReturnedBuffer, error: ReturnedBuffer) {
        var out = folio_buffer(), description = folio_buffer(), error = folio_buffer()
        let fromKeys = CStrings(pairs.map(\.0)), intoKeys = CStrings(pairs.map(\.1))
        let status = from.withUnsafeBufferPointer { f in
            into.withUnsafeBufferPointer { i in
                take(editor.table, f.baseAddress, f.count, i.baseAddress, i.count, fromKeys.pointers, intoKeys.pointers, pairs.count, &out, &description, &error)
            }
        }
        return (status, RawEditor.take(&out), RawEditor.take(&description), RawEditor.take(&error))
    }

    /// The bytes of a take that must succeed, with a one-line description.
    private static func taken(_ editor: RawEditor, _ take: ItemsTake, from: [UInt8], into: [UInt8], pairs: [(String, String)], what: String) throws -> [UInt8] {
        let result = call(editor, take, from: from, into: into, pairs: pairs)
        try expectStatus(result.status, [FOLIO_STATUS_OK], what, error: result.error)
        try expectOwned(result.bytes, "\(what)'s bytes")
        try expectText(result.description, "\(what)'s description", oneLine: true)
        return result.bytes.bytes ?? []
    }

    /// Fails unless `bytes` lists exactly `expected`'s items (keys and fingerprints, in order).
    private static func expectItems(_ editor: RawEditor, _ list: ItemsList, _ bytes: [UInt8], _ expected: [ListedItem], _ what: String,
                                    of source: String = "the sample") throws {
        let actual = try listed(editor, list, bytes, previous: nil, what: "list(\(what))", mayRefuse: false) ?? []
        let pairs = { (items: [ListedItem]) in items.map { "\($0.key) \($0.fingerprint)" } }
        guard pairs(actual) == pairs(expected) else {
            let first = zip(pairs(actual), pairs(expected)).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, expected.count)
            throw ValidationFailure("\(what) does not give \(source)'s items: \(actual.count) items vs \(expected.count), first difference at item \(first + 1)")
        }
    }

    private static func refusesUnknownKey(_ editor: RawEditor, _ take: ItemsTake, _ sample: [UInt8]) throws {
        for key in ["folio-validate-no-such-item", "0", "99999999999999999999", ""] {
            let result = call(editor, take, from: sample, into: sample, pairs: [(key, "")])
            try expectStatus(result.status, [FOLIO_STATUS_INVALID_ARGUMENT], "take('\(key.prefix(30))')", error: result.error)
            if result.bytes.bytes != nil { throw ValidationFailure("take('\(key.prefix(30))') refused the key but returned bytes") }
        }
    }
}
