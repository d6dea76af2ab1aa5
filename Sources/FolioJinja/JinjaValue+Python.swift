/// Python's printing, equality and ordering of values.
extension JinjaValue {
    /// Python's `repr()` of a float: shortest round-trip digits, `1.0`, `1e-05`, `2.5e+100`.
    static func floatRepr(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        let text = "\(d.magnitude)"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let intPart = parts.first.map(String.init) ?? "0"
        let fracPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = Array(intPart + fracPart)
        var decpt = intPart.count + exponent
        while digits.count > 1, digits.first == "0" { digits.removeFirst(); decpt -= 1 }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let sign = d < 0 ? "-" : ""
        let ds = String(digits)
        if decpt > -4 && decpt <= 16 {
            if decpt <= 0 { return sign + "0." + String(repeating: "0", count: -decpt) + ds }
            if decpt >= digits.count { return sign + ds + String(repeating: "0", count: decpt - digits.count) + ".0" }
            return sign + String(digits[..<decpt]) + "." + String(digits[decpt...])
        }
        let exp = decpt - 1
        let mant = digits.count > 1 ? String(digits[0]) + "." + String(digits[1...]) : String(digits[0])
        let expText = abs(exp) < 10 ? "0\(abs(exp))" : "\(abs(exp))"
        return sign + mant + "e" + (exp < 0 ? "-" : "+") + expText
    }

    /// Python's `repr()` of a string: single quotes unless the text holds `'` and no `"`.
    static func stringRepr(_ s: String) -> String {
        let quote: Character = (s.contains("'") && !s.contains("\"")) ? "\"" : "'"
        var out = String(quote)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if Character(scalar) == quote { out += "\\" + String(quote); continue }
                let v = scalar.value
                if v < 0x20 || v == 0x7F {
                    out += "\\x" + hex(v, width: 2)
                } else if v >= 0x80 && v < 0xA0 {
                    out += "\\x" + hex(v, width: 2)
                } else if !isPrintable(scalar) {
                    out += v > 0xFFFF ? "\\U" + hex(v, width: 8) : "\\u" + hex(v, width: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append(quote)
        return out
    }

    static func hex(_ v: UInt32, width: Int) -> String {
        let h = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - h.count)) + h
    }

    static func isPrintable(_ s: Unicode.Scalar) -> Bool {
        if s == " " { return true }
        switch s.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return false
        default: return true
        }
    }

    /// Python's `repr()`, as lists and dicts print their elements. `seen` stops self-containing lists.
    func repr(_ seen: inout Set<ObjectIdentifier>) -> String {
        // Deeper than any real data: printed as Python prints a list it is already printing.
        if seen.count > Self.maxNesting {
            if case .dict = self { return "{...}" }
            if case .list = self { return "[...]" }
        }
        switch self {
        case .string(let s): return Self.stringRepr(s)
        case .markup(let s): return "Markup(" + Self.stringRepr(s) + ")"
        case .undefined: return "Undefined"
        case .list(let l):
            if let r = l.rangeRepr { return r }
            let id = ObjectIdentifier(l)
            if seen.contains(id) { return "[...]" }
            seen.insert(id)
            defer { seen.remove(id) }
            var parts: [String] = []
            for item in l.items { parts.append(item.repr(&seen)) }
            return "[" + parts.joined(separator: ", ") + "]"
        case .tuple(let items):
            var parts: [String] = []
            for item in items { parts.append(item.repr(&seen)) }
            return items.count == 1 ? "(" + parts[0] + ",)" : "(" + parts.joined(separator: ", ") + ")"
        case .dict(let d):
            let id = ObjectIdentifier(d)
            if seen.contains(id) { return "{...}" }
            seen.insert(id)
            defer { seen.remove(id) }
            var parts: [String] = []
            for (k, v) in d.entries { parts.append(k.repr(&seen) + ": " + v.repr(&seen)) }
            return "{" + parts.joined(separator: ", ") + "}"
        default: return plainString
        }
    }

    /// Python's `repr()`.
    var repr: String {
        var seen = Set<ObjectIdentifier>()
        return repr(&seen)
    }

    /// Python's `str()` for values whose printing does not depend on the Undefined policy.
    var plainString: String {
        switch self {
        case .undefined: return ""
        case .none: return "None"
        case .bool(let b): return b ? "True" : "False"
        case .int(let i): return String(i)
        case .bigInt(let b): return b.description
        case .float(let d): return Self.floatRepr(d)
        case .string(let s), .markup(let s): return s
        case .list, .tuple, .dict: return repr
        case .function(let f): return f.macro != nil ? "<Macro '\(f.name)'>" : "<function \(f.name)>"
        case .namespace(let n):
            var seen = Set<ObjectIdentifier>()
            let parts = n.attributes.entries.map { "\($0.key.plainString)=\($0.value.repr(&seen))" }
            return "<Namespace " + parts.joined(separator: ", ") + ">"
        case .object(let o): return "<\(o.typeName) object>"
        }
    }

    /// Python's type name, for messages (`'int object' has no attribute …`).
    var typeName: String {
        switch self {
        case .undefined: return "Undefined"
        case .none: return "NoneType"
        case .bool: return "bool"
        case .int, .bigInt: return "int"
        case .float: return "float"
        case .string: return "str"
        case .markup: return "Markup"
        case .list: return "list"
        case .tuple: return "tuple"
        case .dict: return "dict"
        case .function: return "function"
        case .namespace: return "Namespace"
        case .object(let o): return o.typeName
        }
    }

    /// The number a value stands for in arithmetic: bools are ints, as in Python.
    var numeric: JinjaNumber? {
        switch self {
        case .bool(let b): return .int(b ? 1 : 0)
        case .int(let i): return .int(i)
        case .bigInt(let b): return .big(b)
        case .float(let d): return .float(d)
        default: return nil
        }
    }

    /// How deep comparisons and printing follow nested lists and dicts (self-containing ones stop here).
    static let maxNesting = 256

    /// Python's `==`.
    static func pyEqual(_ a: JinjaValue, _ b: JinjaValue, depth: Int = 0) -> Bool {
        guard depth < maxNesting else { return false }
        if let x = a.numeric, let y = b.numeric { return x.doubleValue == y.doubleValue && x.exactEqual(y) }
        switch (a, b) {
        case (.none, .none): return true
        case (.undefined, .undefined): return true
        case let (.string(x), .string(y)), let (.markup(x), .markup(y)), let (.string(x), .markup(y)), let (.markup(x), .string(y)):
            return x == y
        case let (.list(x), .list(y)):
            return x === y || (x.items.count == y.items.count && zip(x.items, y.items).allSatisfy { pyEqual($0, $1, depth: depth + 1) })
        case let (.tuple(x), .tuple(y)):
            return x.count == y.count && zip(x, y).allSatisfy { pyEqual($0, $1, depth: depth + 1) }
        case let (.dict(x), .dict(y)):
            if x === y { return true }
            guard x.count == y.count else { return false }
            for (k, v) in x.entries {
                guard let w = y.get(k), pyEqual(v, w, depth: depth + 1) else { return false }
            }
            return true
        case let (.function(x), .function(y)): return x === y
        case let (.namespace(x), .namespace(y)): return x === y
        case let (.object(x), .object(y)): return x === y
        default: return false
        }
    }

    /// Python's ordering (`<`): numbers with numbers, strings with strings, sequences element-wise; nil when
    /// Python raises `TypeError`.
    static func pyLess(_ a: JinjaValue, _ b: JinjaValue, depth: Int = 0) -> Bool? {
        guard depth < maxNesting else { return nil }
        if let x = a.numeric, let y = b.numeric { return x.less(y) }
        switch (a, b) {
        case let (.string(x), .string(y)), let (.markup(x), .markup(y)), let (.string(x), .markup(y)), let (.markup(x), .string(y)):
            return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        case let (.list(x), .list(y)): return sequenceLess(x.items, y.items, depth + 1)
        case let (.tuple(x), .tuple(y)): return sequenceLess(x, y, depth + 1)
        default: return nil
        }
    }

    static func sequenceLess(_ x: [JinjaValue], _ y: [JinjaValue], _ depth: Int) -> Bool? {
        for (p, q) in zip(x, y) where !pyEqual(p, q, depth: depth) {
            return pyLess(p, q, depth: depth)
        }
        return x.count < y.count
    }
}

/// A Python number: an int (64-bit or big) or a float.
enum JinjaNumber {
    case int(Int)
    case big(JinjaBigInt)
    case float(Double)

    var doubleValue: Double {
        switch self {
        case .int(let i): return Double(i)
        case .big(let b): return b.doubleValue
        case .float(let d): return d
        }
    }

    /// The value as a big integer, when it is an integer.
    var bigValue: JinjaBigInt? {
        switch self {
        case .int(let i): return JinjaBigInt(i)
        case .big(let b): return b
        case .float: return nil
        }
    }

    func exactEqual(_ other: JinjaNumber) -> Bool {
        if case .int(let a) = self, case .int(let b) = other { return a == b }
        if let a = bigValue, let b = other.bigValue { return a == b }
        return doubleValue == other.doubleValue
    }

    func less(_ other: JinjaNumber) -> Bool {
        if case .int(let a) = self, case .int(let b) = other { return a < b }
        if let a = bigValue, let b = other.bigValue { return a < b }
        return doubleValue < other.doubleValue
    }

    var value: JinjaValue {
        switch self {
        case .int(let i): return .int(i)
        case .big(let b): return b.value
        case .float(let d): return .float(d)
        }
    }
}

/// Python's `str.isspace()` for one scalar.
func isPythonSpace(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
}
