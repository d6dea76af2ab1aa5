import FoundationEssentials
import Glibc

extension JSONNode {
    /// The deepest nesting of arrays and objects Folio reads; deeper input is refused rather than recursed into.
    public static let maximumDepth = 256
}

/// A strict RFC 8259 parser that keeps line and column (in characters) for every value and key.
///
/// Everything outside the grammar is an error at its position, never repaired: invalid UTF-8, a lone UTF-16
/// surrogate escape, a control character in a string, a duplicate key, a number too large for a Double, or
/// nesting deeper than `JSONNode.maximumDepth`.
struct PositionedJSONParser {
    typealias Member = (key: String, keyLine: Int, keyColumn: Int, value: JSONNode)

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    /// UTF-8 continuation bytes passed on this line, so that columns count characters, not bytes.
    var continuationBytes = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var column: Int { index - lineStart - continuationBytes + 1 }

    func fail(_ message: String) -> JSONPositionError { JSONPositionError(line: line, column: column, message: message) }

    func fail(at position: (line: Int, column: Int), _ message: String) -> JSONPositionError {
        JSONPositionError(line: position.line, column: position.column, message: message)
    }

    mutating func parseDocument() throws -> JSONNode {
        skipSpace()
        let node = try parseValue()
        skipSpace()
        if index < bytes.count { throw fail("unexpected text after the JSON value") }
        return node
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index; continuationBytes = 0
            default: return
            }
        }
    }

    func peek(_ ascii: Unicode.Scalar) -> Bool { index < bytes.count && bytes[index] == UInt8(ascii: ascii) }

    mutating func parseValue() throws -> JSONNode {
        guard index < bytes.count else { throw fail("unexpected end of JSON") }
        let (l, c) = (line, column)
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(kind: .object(try nested { try $0.parseMembers() }), line: l, column: c)
        case UInt8(ascii: "["): return JSONNode(kind: .array(try nested { try $0.parseItems() }), line: l, column: c)
        case UInt8(ascii: "\""): return JSONNode(kind: .string(try parseString()), line: l, column: c)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(kind: .bool(true), line: l, column: c)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(kind: .bool(false), line: l, column: c)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(kind: .null, line: l, column: c)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(kind: .number(try parseNumber()), line: l, column: c)
        default: throw unexpectedCharacter()
        }
    }

    /// Runs `body` one level deeper, refusing input nested beyond the limit before recursing.
    mutating func nested<T>(_ body: (inout PositionedJSONParser) throws -> T) throws -> T {
        guard depth < JSONNode.maximumDepth else {
            throw fail("JSON nested deeper than \(JSONNode.maximumDepth) levels of arrays and objects")
        }
        depth += 1
        defer { depth -= 1 }
        index += 1  // the opening bracket
        return try body(&self)
    }

    mutating func parseMembers() throws -> [Member] {
        var members: [Member] = []
        var seen: [String: (line: Int, column: Int)] = [:]
        skipSpace()
        if peek("}") { index += 1; return members }
        while true {
            skipSpace()
            guard peek("\"") else { throw fail("expected a key in quotes") }
            let (kl, kc) = (line, column)
            let key = try parseString()
            if let first = seen.updateValue((kl, kc), forKey: key) {
                throw fail(at: (kl, kc), "duplicate key '\(key)' (first at line \(first.line), column \(first.column))")
            }
            skipSpace()
            guard peek(":") else { throw fail("expected ':' after key '\(key)'") }
            index += 1
            skipSpace()
            members.append((key, kl, kc, try parseValue()))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end of JSON in an object") }
            if peek(",") { index += 1; continue }
            if peek("}") { index += 1; return members }
            throw fail("expected ',' or '}' in an object")
        }
    }

    mutating func parseItems() throws -> [JSONNode] {
        var items: [JSONNode] = []
        skipSpace()
        if peek("]") { index += 1; return items }
        while true {
            skipSpace()
            items.append(try parseValue())
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end of JSON in an array") }
            if peek(",") { index += 1; continue }
            if peek("]") { index += 1; return items }
            throw fail("expected ',' or ']' in an array")
        }
    }

    func unexpectedCharacter() -> JSONPositionError {
        let byte = bytes[index]
        if (0x21...0x7E).contains(byte) { return fail("unexpected character '\(Character(Unicode.Scalar(byte)))'") }
        return fail("unexpected byte 0x\(String(byte, radix: 16, uppercase: true))")
    }

    mutating func literal(_ word: String) throws {
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else { throw index < bytes.count ? unexpectedCharacter() : fail("unexpected end of JSON") }
            index += 1
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, finite as a Double.
    mutating func parseNumber() throws -> Double {
        let start = index
        let position = (line, column)
        func digits(_ parser: inout PositionedJSONParser) -> Int {
            let first = parser.index
            while parser.index < parser.bytes.count, (48...57).contains(parser.bytes[parser.index]) { parser.index += 1 }
            return parser.index - first
        }
        if peek("-") { index += 1 }
        if peek("0") {
            index += 1
        } else if digits(&self) == 0 {
            throw index < bytes.count ? unexpectedCharacter() : fail("unexpected end of JSON in a number")
        }
        if peek(".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("expected a digit after '.' in a number") }
        }
        if peek("e") || peek("E") {
            index += 1
            if peek("+") || peek("-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("expected a digit in the exponent of a number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            throw fail(at: position, "number \(text.prefix(40)) is out of range")
        }
        return number
    }

    mutating func parseString() throws -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)  // every byte was checked: nothing is replaced
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
            case 0..<0x20:
                throw byte == 0x0A ? fail("unterminated string") : fail("control character 0x\(String(byte, radix: 16, uppercase: true)) in a string (escape it)")
            case 0x20..<0x80:
                out.append(byte)
                index += 1
            default:
                let length = try utf8SequenceLength()
                out.append(contentsOf: bytes[index..<index + length])
                index += length
                continuationBytes += length - 1
            }
        }
        throw fail("unterminated string")
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (a non-ASCII lead byte), else an error.
    func utf8SequenceLength() throws -> Int {
        let lead = bytes[index]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF  // no overlong forms
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F  // no UTF-16 surrogates
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F  // nothing above U+10FFFF
        default: throw fail("invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)))")
        }
        guard index + length <= bytes.count else { throw fail("invalid UTF-8 (a character cut short at the end)") }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard (offset == 1 ? second : 0x80...0xBF).contains(byte) else {
                throw fail("invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)) after 0x\(String(lead, radix: 16, uppercase: true)))")
            }
        }
        return length
    }

    mutating func parseEscape(into out: inout [UInt8]) throws {
        let position = (line, column)
        index += 1
        guard index < bytes.count else { throw fail("unterminated string") }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "u"):
            let scalar = try unicodeEscape(at: position)
            out.append(contentsOf: String(Character(scalar)).utf8)
        default:
            index -= 1
            throw fail(at: position, escaped < 0x80 && escaped >= 0x20
                ? "invalid escape '\\\(Character(Unicode.Scalar(escaped)))'" : "invalid escape in a string")
        }
    }

    /// A `\uXXXX` escape (the `\u` already read), joining a UTF-16 surrogate pair; a lone surrogate is an error.
    mutating func unicodeEscape(at position: (line: Int, column: Int)) throws -> Unicode.Scalar {
        let first = try hex4()
        switch first {
        case 0xD800...0xDBFF:
            guard peek("\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail(at: position, "lone UTF-16 surrogate \\u\(hexText(first)) (a high surrogate must be followed by a low one)")
            }
            index += 2
            let second = try hex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw fail(at: position, "lone UTF-16 surrogate \\u\(hexText(first)) (followed by \\u\(hexText(second)), not a low surrogate)")
            }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw fail(at: position, "invalid surrogate pair") }
            return scalar
        case 0xDC00...0xDFFF:
            throw fail(at: position, "lone UTF-16 surrogate \\u\(hexText(first)) (a low surrogate without a high one)")
        default:
            guard let scalar = Unicode.Scalar(first) else { throw fail(at: position, "invalid \\u escape") }
            return scalar
        }
    }

    func hexText(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    /// Exactly four hex digits.
    mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw fail("bad \\u escape (needs four hex digits)") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 65...70: digit = byte - 55
            case 97...102: digit = byte - 87
            default: throw fail("bad \\u escape (needs four hex digits)")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
