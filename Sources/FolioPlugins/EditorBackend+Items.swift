import FolioPluginABI
import FoundationEssentials
import Glibc

/// One item of a version as its editor lists it (`folio.items/1`), checked by `EditorItem.parse`.
public struct EditorItem: Sendable, Equatable {
    /// The item's number as the editor's view shows it ("3", "1.2").
    public let key: String
    /// The item's key in the earlier version it was listed against, nil when it is new there (or none was given).
    public let previous: String?
    /// Changes whenever the item's content changes (not when only its position does).
    public let fingerprint: String
    /// One short line saying what the item is, made safe to show (`PluginText.description`).
    public let summary: String

    /// Creates an item record.
    public init(key: String, previous: String?, fingerprint: String, summary: String) {
        self.key = key
        self.previous = previous
        self.fingerprint = fingerprint
        self.summary = summary
    }

    /// The most items one version may list (a plugin's answer is refused beyond it).
    public static let maximumCount = 1_000_000

    /// Reads and checks a plugin's item list — the one place a `list` answer comes in. Keys must be unique, non-empty
    /// and without spaces or control characters; `previous` keys are keys, each used once (that they name items of
    /// the earlier version is checked where that version's list is at hand: `ItemLinks`);
    /// fingerprints are printable ASCII of at most 64 characters; summaries are made one safe line.
    static func parse(_ text: Data, editor: String) throws -> [EditorItem] {
        func refuse(_ line: Int, _ why: String) -> EditorOperationError {
            EditorOperationError(editor: editor, operation: "list items", kind: .internal, message: "line \(line) of the item list \(why)")
        }
        let bytes = [UInt8](text)
        var items: [EditorItem] = []
        var keys = Set<String>(), usedPrevious = Set<String>()
        var start = 0, number = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count  // a final newline ends the last line
            number += 1
            guard number <= maximumCount else { throw refuse(number, "is past the limit of \(maximumCount) items") }
            let fields = bytes[start..<end].split(separator: 0x09, maxSplits: 3, omittingEmptySubsequences: false)
            start = end + 1
            guard fields.count == 4 else { throw refuse(number, "does not have four tab-separated fields") }
            guard let key = String(validating: fields[0], as: UTF8.self), isKey(key) else { throw refuse(number, "has an invalid key") }
            guard keys.insert(key).inserted else { throw refuse(number, "repeats the key '\(PluginText.description(key))'") }
            var previous: String?
            if !fields[1].isEmpty {
                guard let text = String(validating: fields[1], as: UTF8.self), isKey(text) else { throw refuse(number, "has an invalid earlier key") }
                guard usedPrevious.insert(text).inserted else { throw refuse(number, "matches an earlier item already matched") }
                previous = text
            }
            guard fields[2].count <= 64, fields[2].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw refuse(number, "has an invalid fingerprint") }
            items.append(EditorItem(key: key, previous: previous, fingerprint: String(decoding: fields[2], as: UTF8.self), summary: summary(fields[3])))
        }
        return items
    }

    /// A summary as one safe line (`PluginText.description`), without its work for the common case it would return
    /// unchanged: printable ASCII, single inner spaces, at most `PluginText.descriptionLimit` characters.
    static func summary(_ bytes: ArraySlice<UInt8>) -> String {
        var plain = bytes.count <= PluginText.descriptionLimit && bytes.first != 0x20 && bytes.last != 0x20
        var previous: UInt8 = 0
        for byte in bytes where plain {
            plain = byte >= 0x20 && byte < 0x7F && !(byte == 0x20 && previous == 0x20)
            previous = byte
        }
        return plain ? String(decoding: bytes, as: UTF8.self) : PluginText.description(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `key` can name an item: 1–64 printable characters, no spaces, tabs or controls.
    static func isKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 64 && key.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) }
    }
}

extension EditorBackend {
    /// Checks the keys handed to `take`: each must be a key (`EditorItem.isKey`), "" allowed on the `into` side.
    static func checkTakeKeys(_ pairs: [(from: String, into: String?)], editor: String) throws {
        for pair in pairs where !EditorItem.isKey(pair.from) || !(pair.into.map(EditorItem.isKey) ?? true) {
            throw EditorOperationError(editor: editor, operation: "take items", kind: .invalidArgument, message: "'\(PluginText.description(pair.from))' is not an item key")
        }
    }
}

extension IsolatedEditor {
    /// The editor's items of `data` in its host process, matched against `previous` when given; nil when it has
    /// no `folio.items/1`.
    public func items(of data: Data, previous: Data?) throws -> [EditorItem]? {
        let fields = [PluginWire.integerField(previous == nil ? 0 : 1), previous ?? Data(), data]
        let (reply, _) = try plugin.call(.items, editor: editorID, command: "list items", fields: fields, limit: plugin.isolation.limits.call)
        try check(reply, "list items")
        guard let text = reply.fields.first else { return nil }
        return try EditorItem.parse(text, editor: editorID)
    }

    /// `into` with items of `from` put back, computed in the host process; nil when the editor has no `folio.items/1`.
    public func takeItems(from: Data, into: Data, pairs: [(from: String, into: String?)]) throws -> (bytes: Data, description: String)? {
        try Self.checkTakeKeys(pairs, editor: editorID)
        let fromKeys = Data(pairs.map(\.from).joined(separator: "\n").utf8), intoKeys = Data(pairs.map { $0.into ?? "" }.joined(separator: "\n").utf8)
        let (reply, _) = try plugin.call(.take, editor: editorID, command: "take items", fields: [from, into, PluginWire.integerField(Int64(pairs.count)), fromKeys, intoKeys],
                                         limit: plugin.isolation.limits.call)
        try check(reply, "take items")
        guard reply.fields.count >= 2 else { return nil }
        return (try reply.field(0), PluginText.description(try reply.field(1)))
    }
}
