extension JinjaValue {
    /// Parses JSON text into a value, keeping object key order (Python's dicts are ordered). Integers that fit
    /// 64 bits become `int`, longer ones big ints, other numbers `float`; `NaN`, `Infinity` and `-Infinity` are read
    /// as Python's `json` module writes and reads them; invalid UTF-8 in strings is replaced with U+FFFD.
    public init(json bytes: [UInt8]) throws {
        var parser = JinjaJSONParser(bytes: bytes)
        self = try parser.parseDocument()
    }

    /// Parses JSON text into a value (see `init(json:)` for bytes).
    public init(json text: String) throws {
        try self.init(json: Array(text.utf8))
    }
}

/// A small strict JSON parser that keeps key order and bounds nesting.
struct JinjaJSONParser {
    let bytes: [UInt8]
    var pos = 0
    static let maxDepth = 256

    init(bytes: [UInt8]) { self.bytes = bytes }

    func fail(_ why: String) -> JinjaError {
        JinjaError(.value, "malformed JSON at byte \(pos): \(why)", template: "<json>")
    }

    mutating func parseDocument() throws -> JinjaValue {
        let v = try parseValue(depth: 0)
        skipSpace()
        guard pos == bytes.count else { throw fail("trailing characters") }
        return v
    }

    mutating func skipSpace() {
        while pos < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[pos]) { pos += 1 }
    }

    mutating func parseValue(depth: Int) throws -> JinjaValue {
        guard depth < Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth) levels") }
        skipSpace()
        guard pos < bytes.count else { throw fail("unexpected end") }
        switch bytes[pos] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .none
        case UInt8(ascii: "N"): try expectWord("NaN"); return .float(.nan)
        case UInt8(ascii: "I"): try expectWord("Infinity"); return .float(.infinity)
        case UInt8(ascii: "-") where pos + 1 < bytes.count && bytes[pos + 1] == UInt8(ascii: "I"):
            try expectWord("-Infinity")
            return .float(-.infinity)
        default: return try parseNumber()
        }
    }

    mutating func expectWord(_ word: String) throws {
        let w = Array(word.utf8)
        guard pos + w.count <= bytes.count, Array(bytes[pos..<pos + w.count]) == w else { throw fail("unexpected token") }
        pos += w.count
    }

    mutating func parseObject(depth: Int) throws -> JinjaValue {
        pos += 1
        let dict = JinjaDict()
        skipSpace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; return .dict(dict) }
        while true {
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            let key = try parseString()
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            pos += 1
            dict.set(.string(key), try parseValue(depth: depth + 1))
            skipSpace()
            guard pos < bytes.count else { throw fail("unexpected end") }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if bytes[pos] == UInt8(ascii: "}") { pos += 1; return .dict(dict) }
            throw fail("expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws -> JinjaValue {
        pos += 1
        var items: [JinjaValue] = []
        skipSpace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
        while true {
            items.append(try parseValue(depth: depth + 1))
            skipSpace()
            guard pos < bytes.count else { throw fail("unexpected end") }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            throw fail("expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws -> JinjaValue {
        let start = pos
        var isFloat = false
        while pos < bytes.count {
            let c = bytes[pos]
            if (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { pos += 1 }
            else if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { isFloat = true; pos += 1 }
            else { break }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard !text.isEmpty else { throw fail("unexpected character") }
        if !isFloat, let i = Int(text) { return .int(i) }
        if !isFloat, let big = JinjaBigInt(text), !big.tooLarge { return .bigInt(big) }
        guard let d = Double(text) else { throw fail("bad number \(text)") }
        return .float(d)
    }

    mutating func parseHex4() throws -> UInt32 {
        guard pos + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[pos..<pos + 4], as: UTF8.self), radix: 16) else {
            throw fail("bad \\u escape")
        }
        pos += 4
        return v
    }

    mutating func parseString() throws -> String {
        pos += 1
        var out: [UInt8] = []
        while true {
            guard pos < bytes.count else { throw fail("unterminated string") }
            let c = bytes[pos]
            pos += 1
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard pos < bytes.count else { throw fail("unterminated string") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if scalar >= 0xD800, scalar < 0xDC00, pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") {
                    pos += 2
                    let low = try parseHex4()
                    if low >= 0xDC00, low < 0xE000 { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) } else { scalar = 0xFFFD }
                }
                let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(s)).utf8))
            default: out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
