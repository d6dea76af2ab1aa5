import FoundationEssentials
import Glibc

/// `.folio/document.json` written without Foundation's JSONEncoder, whose first use in a process is a measurable part
/// of every `folio new` (Benchmarks/README.md). The bytes are exactly what `JSONEncoder` wrote with `.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes` and ISO 8601 dates (tested against it), so documents made before and after compare equal.
/// An answer holding a number that is not a whole number below 10^15 is left to `JSONEncoder` (its notation for
/// those, `1e+20` or `1.5e-07`, is its own).
extension DocumentMetadata {
    func handEncoded() -> Data? {
        if let answers = origin.template?.answers, !answers.values.allSatisfy(Self.hasOnlyWholeNumbers) { return nil }
        var writer = PrettyJSONWriter()
        writer.object(level: 0) { object in
            object.member("contentType") { $0.string(contentType.identifier) }
            object.member("created") { $0.string(ISO8601Seconds.format(created)) }
            object.member("format") { $0.raw(String(format)) }
            object.member("origin") { $0.origin(origin) }
            object.member("primaryFile") { $0.string(primaryFile) }
            object.member("title") { $0.string(title) }
        }
        writer.raw("\n")
        return Data(writer.bytes)
    }

    static func hasOnlyWholeNumbers(_ value: JSONValue) -> Bool {
        switch value {
        case let .number(number): return number == number.rounded() && abs(number) < 1e15
        case let .array(values): return values.allSatisfy(hasOnlyWholeNumbers)
        case let .object(members): return members.values.allSatisfy(hasOnlyWholeNumbers)
        case .null, .bool, .string: return true
        }
    }
}

/// Pretty JSON as JSONEncoder lays it out: two spaces per level, `"key" : value`, members sorted by their UTF-8
/// bytes, an empty object or array as its brackets around an empty line.
struct PrettyJSONWriter {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                raw("\\u00"); bytes.append(hex[Int(byte >> 4)]); bytes.append(hex[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An object whose members `body` adds with `member` (in sorted order: the caller's order is kept as given).
    mutating func object(level: Int, _ body: (inout ObjectMembers) -> Void) {
        var members = ObjectMembers(level: level + 1)
        body(&members)
        raw("{\n")
        if members.entries.isEmpty {
            raw("\n")
        } else {
            let sorted = members.entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, entry) in sorted.enumerated() {
                indent(level + 1)
                string(entry.key)
                raw(" : ")
                bytes.append(contentsOf: entry.value)
                raw(index == sorted.count - 1 ? "\n" : ",\n")
            }
        }
        indent(level)
        raw("}")
    }

    mutating func array(level: Int, _ values: [JSONValue]) {
        raw("[\n")
        if values.isEmpty { raw("\n") }
        for (index, value) in values.enumerated() {
            indent(level + 1)
            self.value(value, level: level + 1)
            raw(index == values.count - 1 ? "\n" : ",\n")
        }
        indent(level)
        raw("]")
    }

    /// A JSON value; numbers must be whole and below 10^15 (written as integers, as JSONValue encodes them).
    mutating func value(_ value: JSONValue, level: Int) {
        switch value {
        case .null: raw("null")
        case let .bool(flag): raw(flag ? "true" : "false")
        case let .number(number): raw(Int64(exactly: number).map { String($0) } ?? String(number))
        case let .string(text): string(text)
        case let .array(values): array(level: level, values)
        case let .object(members):
            object(level: level) { object in
                for (key, member) in members { object.member(key) { $0.value(member, level: level + 1) } }
            }
        }
    }

    mutating func origin(_ origin: DocumentOrigin) {
        let level = 1
        object(level: level) { object in
            object.member("kind") { $0.string(origin.kind) }
            if let template = origin.template {
                object.member("template") { writer in
                    writer.object(level: level + 1) { fields in
                        fields.member("answers") { $0.value(.object(template.answers), level: level + 2) }
                        fields.member("commit") { $0.string(template.commit) }
                        fields.member("id") { $0.string(template.id) }
                        if let ref = template.ref { fields.member("ref") { $0.string(ref) } }
                        fields.member("source") { $0.string(template.source) }
                        if let version = template.version { fields.member("version") { $0.string(version) } }
                    }
                }
            }
        }
    }

    private mutating func indent(_ level: Int) { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2)) }

    /// The members of one object, each written on its own (at the object's level) and laid out when it closes.
    struct ObjectMembers {
        let level: Int
        var entries: [(key: String, value: [UInt8])] = []

        mutating func member(_ key: String, _ write: (inout PrettyJSONWriter) -> Void) {
            var writer = PrettyJSONWriter()
            write(&writer)
            entries.append((key, writer.bytes))
        }
    }
}

extension JSONValue {
    /// Pretty JSON text of this value as JSONEncoder lays it out (sorted keys, slashes as they are), without its
    /// first-use cost. Numbers must be whole and below 10^15; nil for any other number.
    public func prettyEncoded() -> Data? {
        guard DocumentMetadata.hasOnlyWholeNumbers(self) else { return nil }
        var writer = PrettyJSONWriter()
        writer.value(self, level: 0)
        return Data(writer.bytes)
    }
}
