/// Strict JSON (RFC 8259) for plugins, in plain Swift: FolioPluginKit needs no Foundation, so a Swift plugin runs on
/// the Swift standard library alone (Folio's shipped runtime has no Foundation). The kit reads a command's arguments
/// with it; a plugin whose documents are JSON can read them with it too.
public enum PluginJSON {
    /// A JSON value. An object keeps the first of repeated keys (as Foundation's `JSONDecoder` does).
    public indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])

        /// What the value is, as Foundation's `JSONDecoder` names it in a type mismatch ("a string", "number", …).
        public var kindDescription: String {
            switch self {
            case .null: return "null"
            case .bool: return "bool"
            case .number: return "number"
            case .string: return "a string"
            case .array: return "an array"
            case .object: return "a dictionary"
            }
        }
    }

    /// Bytes that are not one JSON value: the byte offset where reading stopped and why.
    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "not valid JSON at byte \(offset): \(reason)" }
    }

    /// Reads `bytes` as exactly one JSON value (whitespace around it, and a leading byte order mark, allowed);
    /// nesting deeper than 512 levels is refused. `trailingCommas` also accepts a comma before a closing bracket or
    /// brace, as Foundation's `JSONDecoder` does (for files people edit by hand).
    public static func parse(_ bytes: [UInt8], trailingCommas: Bool = false) throws(SyntaxError) -> Value {
        var reader = PluginJSONReader(bytes: bytes, trailingCommas: trailingCommas)
        return try reader.document()
    }

    /// `text` as a JSON string literal: `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`;
    /// everything else as it is (the bytes the Checklist plugin writes its documents with).
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A JSON array of strings and nulls (`folio.argument-values/1`'s answer).
    public static func array(_ values: [String?]) -> String {
        "[" + values.map { $0.map(quote) ?? "null" }.joined(separator: ",") + "]"
    }
}

/// The reader behind `PluginJSON.parse`: one pass over the bytes, every length and index checked.
struct PluginJSONReader {
    let bytes: [UInt8]
    let trailingCommas: Bool
    var index = 0
    var depth = 0

    init(bytes: [UInt8], trailingCommas: Bool) {
        self.bytes = bytes
        self.trailingCommas = trailingCommas
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private func fail(_ reason: String) -> PluginJSON.SyntaxError { PluginJSON.SyntaxError(offset: index, reason: reason) }

    mutating func document() throws(PluginJSON.SyntaxError) -> PluginJSON.Value {
        let value = try self.value()
        skipSpace()
        guard index == bytes.count else { throw fail("text after the value") }
        return value
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
    }

    private mutating func value() throws(PluginJSON.SyntaxError) -> PluginJSON.Value {
        skipSpace()
        guard index < bytes.count else { throw fail("the text ends before a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try nested { (reader: inout PluginJSONReader) throws(PluginJSON.SyntaxError) in try reader.object() }
        case UInt8(ascii: "["): return try nested { (reader: inout PluginJSONReader) throws(PluginJSON.SyntaxError) in try reader.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func nested(_ body: (inout PluginJSONReader) throws(PluginJSON.SyntaxError) -> PluginJSON.Value) throws(PluginJSON.SyntaxError) -> PluginJSON.Value {
        guard depth < 512 else { throw fail("nested more than 512 levels deep") }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(PluginJSON.SyntaxError) {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(what)") }
        index += 1
    }

    /// Consumes `byte` (after whitespace) when it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func object() throws(PluginJSON.SyntaxError) -> PluginJSON.Value {
        index += 1
        var members: [String: PluginJSON.Value] = [:]
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            if trailingCommas, take(UInt8(ascii: "}")) { return .object(members) }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            let key = try string()
            try expect(UInt8(ascii: ":"), "':'")
            let member = try value()
            if members[key] == nil { members[key] = member }
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"), "',' or '}'")
        return .object(members)
    }

    private mutating func array() throws(PluginJSON.SyntaxError) -> PluginJSON.Value {
        index += 1
        var elements: [PluginJSON.Value] = []
        if take(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            if trailingCommas, take(UInt8(ascii: "]")) { return .array(elements) }
            elements.append(try value())
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"), "',' or ']'")
        return .array(elements)
    }

    private mutating func literal(_ word: String) throws(PluginJSON.SyntaxError) {
        let expected = word.utf8
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else { throw fail("unknown literal") }
        index += expected.count
    }

    /// A number as RFC 8259 writes it: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func number() throws(PluginJSON.SyntaxError) -> Double {
        let start = index
        func digits(_ reader: inout PluginJSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, reader.bytes[reader.index] >= 0x30, reader.bytes[reader.index] <= 0x39 { reader.index += 1 }
            return reader.index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leadingZero = index < bytes.count && bytes[index] == 0x30
        let whole = digits(&self)
        guard whole > 0, !(leadingZero && whole > 1) else { throw fail("not a value") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("no digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("no digits in the exponent") }
        }
        return Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? .nan
    }

    /// A string literal: valid UTF-8, no raw control characters, escapes decoded (surrogate pairs joined, lone
    /// surrogates refused).
    private mutating func string() throws(PluginJSON.SyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while true {
            guard index < bytes.count else { throw fail("the text ends inside a string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                try appendRun(runStart, to: &scalars)
                index += 1
                if byte == UInt8(ascii: "\"") { return String(scalars) }
                scalars.append(try escape())
                runStart = index
            } else {
                guard byte >= 0x20 else { throw fail("a control character in a string") }
                index += 1
            }
        }
    }

    private func appendRun(_ start: Int, to scalars: inout String.UnicodeScalarView) throws(PluginJSON.SyntaxError) {
        guard start < index else { return }
        guard let text = String(validating: bytes[start..<index], as: UTF8.self) else { throw PluginJSON.SyntaxError(offset: start, reason: "a string that is not UTF-8") }
        scalars.append(contentsOf: text.unicodeScalars)
    }

    private mutating func escape() throws(PluginJSON.SyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw fail("the text ends inside an escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return try unicodeEscape()
        default: throw fail("an unknown escape")
        }
    }

    private mutating func unicodeEscape() throws(PluginJSON.SyntaxError) -> Unicode.Scalar {
        let first = try hex4()
        if first >= 0xD800, first < 0xDC00 {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { throw fail("a lone surrogate") }
            index += 2
            let second = try hex4()
            guard second >= 0xDC00, second < 0xE000 else { throw fail("a lone surrogate") }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) ?? "\u{FFFD}"
        }
        guard let scalar = Unicode.Scalar(first) else { throw fail("a lone surrogate") }
        return scalar
    }

    private mutating func hex4() throws(PluginJSON.SyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw fail("a short \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw fail("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}
