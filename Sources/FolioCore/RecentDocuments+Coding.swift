import FoundationEssentials
import Glibc

/// The recent-documents file read and written without Foundation's JSON coders, whose first use is a measurable part
/// of every `folio new` and `folio open` (Benchmarks/README.md; the file is small and its shape fixed).
extension RecentDocuments {
    /// The entries of a recent-documents file. Nil when it is not strict JSON holding an array (the whole list is then
    /// damaged); an element that is not a complete entry is skipped and the others are kept.
    static func decode(_ data: Data) -> [Entry]? {
        guard let node = try? JSONNode.parse(data), case let .array(elements) = node.value else { return nil }
        return elements.compactMap(entry)
    }

    private static func entry(_ value: JSONValue) -> Entry? {
        guard case let .object(fields) = value,
              let path = fields["path"]?.stringValue, let title = fields["title"]?.stringValue,
              let contentType = fields["contentType"]?.stringValue,
              let openedText = fields["opened"]?.stringValue, let opened = ISO8601Seconds.parse(openedText) else { return nil }
        var pinned: Bool?
        switch fields["pinned"] {
        case nil, .null?: pinned = nil
        case let .bool(flag)?: pinned = flag
        default: return nil
        }
        return Entry(path: path, title: title, contentType: contentType, opened: opened, pinned: pinned)
    }

    /// The file's bytes: an array of objects with sorted keys, two-space indented, dates as UTC ISO 8601 seconds (the
    /// layout `JSONEncoder` with `.prettyPrinted, .sortedKeys` and `.iso8601` wrote before).
    static func encode(_ entries: [Entry]) -> Data {
        let values: [JSONValue] = entries.map { entry in
            var fields: [String: JSONValue] = ["contentType": .string(entry.contentType), "opened": .string(ISO8601Seconds.format(entry.opened)),
                                               "path": .string(entry.path), "title": .string(entry.title)]
            if let pinned = entry.pinned { fields["pinned"] = .bool(pinned) }
            return .object(fields)
        }
        return JSONValue.array(values).prettyEncoded() ?? Data("[]".utf8)  // nil only for numbers, which it holds none of
    }
}
