import Glibc

/// Python's `%` formatting (`"%s-%05.2f" % (a, b)`, the `format` filter) and `str.format()`.
extension JinjaRenderer {
    struct FormatSpec {
        var fill: Character = " "
        var align: Character?
        var sign: Character = "-"
        var alternate = false
        var zero = false
        var width = 0
        var grouping = false
        var precision: Int?
        var type: Character?
    }

    func percentFormat(_ format: String, _ args: JinjaValue) throws -> String {
        var positional: [JinjaValue]
        var mapping: JinjaDict?
        switch args {
        case .tuple(let t): positional = t
        case .dict(let d): positional = [args]; mapping = d
        default: positional = [args]
        }
        var out = ""
        var chars = Array(format)
        var i = 0
        var next = 0
        func take() throws -> JinjaValue {
            guard next < positional.count else { throw error(.type, "not enough arguments for format string") }
            defer { next += 1 }
            return positional[next]
        }
        while i < chars.count {
            let c = chars[i]
            i += 1
            guard c == "%" else { out.append(c); continue }
            guard i < chars.count else { throw error(.value, "incomplete format") }
            var spec = FormatSpec()
            var value: JinjaValue?
            if chars[i] == "(" {
                guard let close = chars[i...].firstIndex(of: ")") else { throw error(.value, "incomplete format key") }
                let key = String(chars[(i + 1)..<close])
                guard let mapping else { throw error(.type, "format requires a mapping") }
                guard let v = mapping[key] else { throw error(.value, "KeyError: \(JinjaValue.stringRepr(key))") }
                value = v
                i = close + 1
            }
            while i < chars.count, "-+ #0".contains(chars[i]) {
                switch chars[i] {
                case "-": spec.align = "<"
                case "+": spec.sign = "+"
                case " ": if spec.sign != "+" { spec.sign = " " }
                case "#": spec.alternate = true
                default: spec.zero = true
                }
                i += 1
            }
            if i < chars.count, chars[i] == "*" {
                guard case .int(let w)? = try take().numeric else { throw error(.type, "* wants int") }
                spec.width = w
                i += 1
            }
            while i < chars.count, let d = chars[i].wholeNumberValue { spec.width = spec.width * 10 + d; i += 1; if spec.width > 1 << 24 { break } }
            if i < chars.count, chars[i] == "." {
                i += 1
                var p = 0
                while i < chars.count, let d = chars[i].wholeNumberValue { p = p * 10 + d; i += 1; if p > 1 << 16 { break } }
                spec.precision = p
            }
            while i < chars.count, "hlL".contains(chars[i]) { i += 1 }
            guard i < chars.count else { throw error(.value, "incomplete format") }
            let type = chars[i]
            i += 1
            if type == "%" { out.append("%"); continue }
            let v = try value ?? take()
            spec.type = type
            if spec.align == nil { spec.align = ">" }
            if spec.zero && spec.align == ">" && "diouxXeEfFgG".contains(type) { spec.fill = "0"; spec.align = "=" }
            try checkSize(spec.width)
            out += try formatValue(v, spec, percent: true)
        }
        if mapping == nil, next < positional.count, case .tuple = args {
            throw error(.type, "not all arguments converted during string formatting")
        }
        chars = []
        return out
    }

    func formatValue(_ v: JinjaValue, _ spec: FormatSpec, percent: Bool) throws -> String {
        var body: String
        var signPrefix = ""
        let type = spec.type
        switch type {
        case "s",
             nil where v.numeric == nil || v.isBoolLike:
            body = try str(v)
            if let p = spec.precision { body = String(body.prefix(p)) }
        case "r", "a": body = v.repr
        case "c":
            if case .int(let n)? = v.numeric, let s = Unicode.Scalar(UInt32(clamping: max(0, n))) { body = String(s) } else { body = try str(v) }
        default:
            guard let n = v.numeric else {
                if case .undefined(let u) = v { throw undefinedError(u) }
                throw error(.type, "%\(type.map(String.init) ?? "") format: a number is required, not \(v.typeName)")
            }
            let negative = n.doubleValue < 0 || (n.doubleValue == 0 && n.doubleValue.sign == .minus && type != "d")
            body = try formatNumber(n, spec)
            if body.hasPrefix("-") { body.removeFirst() }
            signPrefix = negative ? "-" : (spec.sign == "-" ? "" : String(spec.sign))
        }
        let length = signPrefix.count + body.count
        guard spec.width > length else { return signPrefix + body }
        let pad = String(repeating: spec.fill, count: spec.width - length)
        switch spec.align ?? (v.numeric != nil && !v.isBoolLike && type != "s" ? ">" : "<") {
        case "<": return signPrefix + body + pad
        case "^":
            let left = (spec.width - length) / 2
            return String(repeating: spec.fill, count: left) + signPrefix + body + String(repeating: spec.fill, count: spec.width - length - left)
        case "=": return signPrefix + pad + body
        default: return pad + signPrefix + body
        }
    }

    func formatNumber(_ n: JinjaNumber, _ spec: FormatSpec) throws -> String {
        let type = spec.type ?? (n.isInt ? "d" : "r")
        switch type {
        case "d", "i", "u", "n":
            if case .big(let b) = n.truncated { return JinjaBigInt(negative: false, limbs: b.limbs).description }
            guard case .int(let i) = n.truncated else { throw error(.value, "cannot format \(n.doubleValue) as an integer") }
            return spec.grouping ? Self.group(String(i.magnitude)) : String(i.magnitude)
        case "x", "X", "o", "b":
            guard case .int(let i) = n.truncated else { throw error(.value, "cannot format a float as \(type)") }
            let radix = type == "o" ? 8 : type == "b" ? 2 : 16
            var s = String(i.magnitude, radix: radix)
            if type == "X" { s = s.uppercased() }
            if spec.alternate { s = (type == "o" ? "0o" : type == "b" ? "0b" : type == "X" ? "0X" : "0x") + s }
            return s
        case "f", "F", "%":
            var d = abs(n.doubleValue)
            if type == "%" { d *= 100 }
            var s = Self.fixed(d, spec.precision ?? 6)
            if spec.grouping, let dot = s.firstIndex(of: ".") { s = Self.group(String(s[..<dot])) + s[dot...] } else if spec.grouping { s = Self.group(s) }
            return type == "%" ? s + "%" : s
        case "e", "E":
            let s = Self.exponent(abs(n.doubleValue), spec.precision ?? 6)
            return type == "E" ? s.uppercased() : s
        case "g", "G":
            let s = Self.general(abs(n.doubleValue), spec.precision ?? 6, alternate: spec.alternate)
            return type == "G" ? s.uppercased() : s
        case "r":
            if case .int(let i) = n { return String(i.magnitude) }
            var s = JinjaValue.floatRepr(abs(n.doubleValue))
            if spec.precision != nil { s = Self.general(abs(n.doubleValue), spec.precision!, alternate: false) }
            return s
        default: throw error(.value, "Unknown format code '\(type)' for object of type '\(n.isInt ? "int" : "float")'")
        }
    }

    static func group(_ digits: String) -> String {
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    static func cFormat(_ format: String, _ d: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let n = withVaList([d]) { vsnprintf(&buffer, buffer.count, format, $0) }
        if n >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(n) + 1)
            _ = withVaList([d]) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func fixed(_ d: Double, _ precision: Int) -> String {
        if d.isInfinite { return "inf" }
        if d.isNaN { return "nan" }
        return cFormat("%.\(min(precision, 100))f", d)
    }

    static func exponent(_ d: Double, _ precision: Int) -> String {
        if d.isInfinite { return "inf" }
        if d.isNaN { return "nan" }
        return cFormat("%.\(min(precision, 100))e", d)
    }

    static func general(_ d: Double, _ precision: Int, alternate: Bool) -> String {
        if d.isInfinite { return "inf" }
        if d.isNaN { return "nan" }
        return cFormat(alternate ? "%#.\(min(max(precision, 1), 100))g" : "%.\(min(max(precision, 1), 100))g", d)
    }

    // MARK: str.format

    func braceFormat(_ format: String, _ args: JinjaArguments) throws -> String {
        let chars = Array(format)
        var out = ""
        var i = 0
        var auto = 0
        while i < chars.count {
            let c = chars[i]
            if c == "{" {
                if i + 1 < chars.count, chars[i + 1] == "{" { out.append("{"); i += 2; continue }
                var j = i + 1
                var nesting = 1
                while j < chars.count {
                    if chars[j] == "{" { nesting += 1 }
                    if chars[j] == "}" { nesting -= 1; if nesting == 0 { break } }
                    j += 1
                }
                guard j < chars.count else { throw error(.value, "Single '{' encountered in format string") }
                out += try formatField(String(chars[(i + 1)..<j]), args, &auto)
                try checkSize(out.utf8.count)
                i = j + 1
            } else if c == "}" {
                if i + 1 < chars.count, chars[i + 1] == "}" { out.append("}"); i += 2; continue }
                throw error(.value, "Single '}' encountered in format string")
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }

    func formatField(_ field: String, _ args: JinjaArguments, _ auto: inout Int) throws -> String {
        var name = field
        var specText = ""
        var conversion: Character?
        if let colon = name.firstIndex(of: ":") {
            specText = String(name[name.index(after: colon)...])
            name = String(name[..<colon])
        }
        if let bang = name.firstIndex(of: "!") {
            conversion = name[name.index(after: bang)...].first
            name = String(name[..<bang])
        }
        var head = name
        var rest = ""
        if let k = name.firstIndex(where: { $0 == "." || $0 == "[" }) {
            head = String(name[..<k])
            rest = String(name[k...])
        }
        var value: JinjaValue
        if head.isEmpty {
            guard auto < args.positional.count else { throw error(.value, "Replacement index \(auto) out of range for positional args tuple") }
            value = args.positional[auto]
            auto += 1
        } else if let n = Int(head) {
            guard n >= 0, n < args.positional.count else { throw error(.value, "Replacement index \(n) out of range for positional args tuple") }
            value = args.positional[n]
        } else {
            guard let kw = args.keywords.first(where: { $0.0 == head }) else { throw error(.value, "KeyError: \(JinjaValue.stringRepr(head))") }
            value = kw.1
        }
        var chars = Array(rest)
        while !chars.isEmpty {
            if chars[0] == "." {
                let end = chars.dropFirst().firstIndex(where: { $0 == "." || $0 == "[" }) ?? chars.count
                value = try getAttribute(value, String(chars[1..<end]))
                chars = Array(chars[end...])
            } else if chars[0] == "[", let close = chars.firstIndex(of: "]") {
                let key = String(chars[1..<close])
                value = try getItem(value, Int(key).map { .int($0) } ?? .string(key))
                chars = Array(chars[(close + 1)...])
            } else { break }
        }
        if conversion == "r" || conversion == "a" { value = .string(value.repr) } else if conversion == "s" { value = .string(try str(value)) }
        let nestedSpec = try braceFormat(specText, args)
        return try formatValue(value, try parseSpec(nestedSpec, value), percent: false)
    }

    func parseSpec(_ text: String, _ value: JinjaValue) throws -> FormatSpec {
        var spec = FormatSpec()
        let c = Array(text)
        var i = 0
        if c.count >= 2, "<>=^".contains(c[1]) { spec.fill = c[0]; spec.align = c[1]; i = 2 } else if let f = c.first, "<>=^".contains(f) { spec.align = f; i = 1 }
        if i < c.count, "+- ".contains(c[i]) { spec.sign = c[i]; i += 1 }
        if i < c.count, c[i] == "#" { spec.alternate = true; i += 1 }
        if i < c.count, c[i] == "0" { spec.zero = true; i += 1 }
        while i < c.count, let d = c[i].wholeNumberValue { spec.width = spec.width * 10 + d; i += 1; if spec.width > 1 << 24 { break } }
        if i < c.count, c[i] == "," || c[i] == "_" { spec.grouping = true; i += 1 }
        if i < c.count, c[i] == "." {
            i += 1
            var p = 0
            while i < c.count, let d = c[i].wholeNumberValue { p = p * 10 + d; i += 1; if p > 1 << 16 { break } }
            spec.precision = p
        }
        if i < c.count { spec.type = c[i]; i += 1 }
        guard i == c.count else { throw error(.value, "Invalid format specifier '\(text)'") }
        if spec.zero && spec.align == nil { spec.fill = "0"; spec.align = "=" }
        if spec.type == nil, value.numeric != nil, !value.isBoolLike, case .float = value, spec.precision != nil { spec.type = "g" }
        try checkSize(spec.width)
        return spec
    }
}

extension JinjaValue {
    var isBoolLike: Bool { if case .bool = self { return true } else { return false } }
}

extension JinjaNumber {
    var isInt: Bool { if case .float = self { return false } else { return true } }
    var truncated: JinjaNumber {
        switch self {
        case .int, .big: return self
        case .float(let d):
            guard d.isFinite, let i = Int(exactly: d.rounded(.towardZero)) else { return self }
            return .int(i)
        }
    }
}
