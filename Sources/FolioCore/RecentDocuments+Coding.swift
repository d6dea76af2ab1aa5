import Foundation

/// The recent-documents file read and written without Foundation's JSON coders, which cost 2–3 ms at the end of every
/// `folio new` and `folio open` for a list of 50 (the file is small and its shape fixed).
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
              let openedText = fields["opened"]?.stringValue, let opened = parseDate(openedText) else { return nil }
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
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 256 + 2)
        out.append(UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            out.append(contentsOf: (index == 0 ? "\n  {\n" : ",\n  {\n").utf8)
            field("contentType", quoted: entry.contentType, into: &out, last: false)
            field("opened", quoted: formatDate(entry.opened), into: &out, last: false)
            field("path", quoted: entry.path, into: &out, last: false)
            if let pinned = entry.pinned { field("pinned", literal: pinned ? "true" : "false", into: &out) }
            field("title", quoted: entry.title, into: &out, last: true)
            out.append(contentsOf: "  }".utf8)
        }
        out.append(contentsOf: (entries.isEmpty ? "]" : "\n]").utf8)
        return Data(out)
    }

    private static func field(_ key: String, quoted value: String, into out: inout [UInt8], last: Bool) {
        out.append(contentsOf: "    \"\(key)\" : ".utf8)
        appendQuoted(value, to: &out)
        out.append(contentsOf: (last ? "\n" : ",\n").utf8)
    }

    private static func field(_ key: String, literal: String, into out: inout [UInt8]) {
        out.append(contentsOf: "    \"\(key)\" : \(literal),\n".utf8)
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, the rest as is (UTF-8).
    static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)  // every byte of a multi-byte character is 0x80 or above
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `2026-12-01T07:00:00Z` (UTC, whole seconds).
    static func formatDate(_ date: Date) -> String {
        var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) ?? 0
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(Int(parts.tm_year) + 1900)
        return "\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// A date written by `formatDate`; any other ISO 8601 form (fractional seconds, an offset) through Foundation.
    static func parseDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
              let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
              let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), let second = number(bytes[17..<19]),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return ISO8601DateFormatter().date(from: text)
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900); parts.tm_mon = Int32(month - 1); parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour); parts.tm_min = Int32(minute); parts.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The decimal digits of `digits` as a number (at most four digits, so it never overflows); nil for a non-digit.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
