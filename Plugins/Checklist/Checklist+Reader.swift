import FolioPluginKit

/// Reads a checklist from any JSON the fast scanner leaves (other keys, escapes, odd spacing), field by field, keeping
/// the fields it does not know byte for byte (a newer plugin wrote them), with
/// the messages Foundation's `JSONDecoder` gave for the same mistakes ("missing 'title' at items, item 2", "wrong
/// type at items, item 1, checked: Expected to decode Bool but found number instead.").
enum ChecklistReader {
    /// The checklist `json` (parsed from `bytes`), with every field it does not know kept as the text `bytes` hold.
    static func read(_ json: PluginJSON.Value, bytes: [UInt8]) throws -> Checklist {
        guard case let .object(fields) = try present(json, at: []) else { throw mismatch("Dictionary<String, Any>", json, at: []) }
        let raw = PluginJSON.rawMembers(bytes[...]) ?? []
        var list = Checklist(title: try optionalString(fields["title"], at: ["title"]) ?? "", items: [],
                             extra: raw.filter { $0.key != "title" && $0.key != "items" })
        switch fields["items"] {
        case nil, .null?: break
        case let .array(items)?:
            let rawItems = raw.first { $0.key == "items" }.flatMap { PluginJSON.rawElements(Array($0.value.utf8)[...]) } ?? []
            list.items = try items.enumerated().map { index, item in
                let members = rawItems.indices.contains(index) ? PluginJSON.rawMembers(rawItems[index]) ?? [] : []
                return try read(item, members: members, at: ["items", "item \(index + 1)"])
            }
        case let other?: throw mismatch("Array<Any>", other, at: ["items"])
        }
        return list
    }

    private static func read(_ item: PluginJSON.Value, members: [PluginJSON.RawMember], at path: [String]) throws -> Checklist.Item {
        guard case let .object(fields) = try present(item, at: path) else { throw mismatch("Dictionary<String, Any>", item, at: path) }
        guard let title = fields["title"] else { throw EditorFailure.invalidDocument("missing 'title' at \(describe(path))") }
        guard case let .string(text) = try present(title, at: path + ["title"]) else { throw mismatch("String", title, at: path + ["title"]) }
        let id = try optionalString(fields["id"], at: path + ["id"])
        let extra = members.filter { !["id", "title", "checked"].contains($0.key) }
        switch fields["checked"] {
        case nil, .null?: return Checklist.Item(id: id ?? "", title: text, checked: false, extra: extra, idStored: id != nil)
        case let .bool(checked)?: return Checklist.Item(id: id ?? "", title: text, checked: checked, extra: extra, idStored: id != nil)
        case let other?: throw mismatch("Bool", other, at: path + ["checked"])
        }
    }

    private static func optionalString(_ value: PluginJSON.Value?, at path: [String]) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case let .string(text)?: return text
        case let other?: throw mismatch("String", other, at: path)
        }
    }

    /// `value`, unless it is null where a value is required.
    private static func present(_ value: PluginJSON.Value, at path: [String]) throws -> PluginJSON.Value {
        guard value != .null else { throw EditorFailure.invalidDocument("missing value at \(describe(path))") }
        return value
    }

    private static func mismatch(_ type: String, _ value: PluginJSON.Value, at path: [String]) -> EditorFailure {
        .invalidDocument("wrong type at \(describe(path)): Expected to decode \(type) but found \(value.kindDescription) instead.")
    }

    private static func describe(_ path: [String]) -> String {
        path.isEmpty ? "the top level" : path.joined(separator: ", ")
    }
}

extension String {
    /// The text without white space (Unicode's White_Space property) at either end, scalar by scalar.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed()
        return String(String.UnicodeScalarView(scalars))
    }
}
