import Glibc

/// Filters on numbers: int, float, abs, round, filesizeformat.
extension JinjaRenderer {
    func numberFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue? {
        switch name {
        case "int":
            if case .undefined(let u) = v { throw undefinedError(u) }
            let fallback = arg(args, 0, "default", .int(0))
            let base = try intArg(args, 1, "base", 10)
            return try toInt(v, base: base) ?? fallback
        case "float":
            if case .undefined(let u) = v { throw undefinedError(u) }
            let fallback = arg(args, 0, "default", .float(0))
            return toFloat(v).map { .float($0) } ?? fallback
        case "abs":
            try operandCheck(v)
            guard let n = v.numeric else { throw error(.type, "bad operand type for abs(): '\(v.typeName)'") }
            switch n {
            case .int(let i):
                guard i != Int.min else { return JinjaBigInt(negative: false, limbs: JinjaBigInt(i).limbs).value }
                return .int(abs(i))
            case .big(let b): return JinjaBigInt(negative: false, limbs: b.limbs).value
            case .float(let d): return .float(abs(d))
            }
        case "round":
            let precision = try intArg(args, 0, "precision", 0)
            let method = try str(arg(args, 1, "method", .string("common")))
            try operandCheck(v)
            guard let n = v.numeric else { throw error(.type, "round needs a number, not \(v.typeName)") }
            return try round(n, precision, method)
        default: return nil
        }
    }

    /// Python's `int(s, base)` on text, then `int(float(s))`, as Jinja2's `int` filter; nil when neither works.
    func toInt(_ v: JinjaValue, base: Int) throws -> JinjaValue? {
        switch v {
        case .int(let i): return .int(i)
        case .bigInt: return v
        case .bool(let b): return .int(b ? 1 : 0)
        case .float(let d):
            guard d.isFinite, let i = Int(exactly: d.rounded(.towardZero)) else { return nil }
            return .int(i)
        case .string(let s), .markup(let s):
            if let i = Self.parseInt(s, base: base) { return i }
            if let d = Self.parseFloat(s), d.isFinite, let i = Int(exactly: d.rounded(.towardZero)) { return .int(i) }
            return nil
        default: return nil
        }
    }

    static func parseInt(_ text: String, base: Int) -> JinjaValue? {
        var s = strip(text, nil)
        var negative = false
        if s.hasPrefix("-") || s.hasPrefix("+") { negative = s.hasPrefix("-"); s.removeFirst() }
        var radix = base
        let lower = s.lowercased()
        for (prefix, r) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) && (base == r || base == 0) {
            s.removeFirst(2)
            radix = r
        }
        if radix == 0 { radix = 10 }
        guard (2...36).contains(radix), !s.isEmpty, !s.hasPrefix("_"), !s.hasSuffix("_"), !s.contains("__") else { return nil }
        let digits = s.filter { $0 != "_" }
        if let magnitude = Int(digits, radix: radix) { return .int(negative ? -magnitude : magnitude) }
        guard let big = JinjaBigInt(digits, radix: radix), !big.tooLarge else { return nil }
        return (negative ? -big : big).value
    }

    static func parseFloat(_ text: String) -> Double? {
        let s = strip(text, nil).filter { $0 != "_" }
        switch s.lowercased() {
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        case "nan", "+nan", "-nan": return .nan
        default: break
        }
        guard !s.isEmpty, s.allSatisfy({ "0123456789.eE+-".contains($0) }) else { return nil }
        return Double(s)
    }

    func toFloat(_ v: JinjaValue) -> Double? {
        switch v {
        case .int(let i): return Double(i)
        case .bigInt(let b): return b.doubleValue
        case .bool(let b): return b ? 1 : 0
        case .float(let d): return d
        case .string(let s), .markup(let s): return Self.parseFloat(s)
        default: return nil
        }
    }

    func round(_ n: JinjaNumber, _ precision: Int, _ method: String) throws -> JinjaValue {
        guard ["common", "ceil", "floor"].contains(method) else { throw error(.type, "method must be common, ceil or floor") }
        let p = Glibc.pow(10.0, Double(precision))
        let x = n.doubleValue
        switch method {
        case "ceil": return .float((x * p).rounded(.up) / p)
        case "floor": return .float((x * p).rounded(.down) / p)
        default:
            if case .int(let i) = n, precision >= 0 { return .int(i) }
            if case .big = n, precision >= 0 { return n.value }
            let scaled = x * p
            var r = scaled.rounded(.toNearestOrEven)
            if abs(scaled - scaled.rounded(.towardZero)) != 0.5 { r = scaled.rounded() }
            let result = r / p
            if case .int = n { return .int(Int(exactly: result.rounded()) ?? 0) }
            return .float(result)
        }
    }

    func filesizeformat(_ v: JinjaValue, _ args: JinjaArguments) throws -> String {
        let binary = try boolArg(args, 0, "binary", false)
        guard let bytes = toFloat(v) else { throw error(.type, "filesizeformat needs a number") }
        let base = binary ? 1024.0 : 1000.0
        let prefixes = binary ? ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"] : ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]
        if bytes == 1 { return "1 Byte" }
        if bytes < base { return "\(Int(bytes)) Bytes" }
        var unit = base
        for (i, prefix) in prefixes.enumerated() {
            unit = Glibc.pow(base, Double(i + 2))
            if bytes < unit || i == prefixes.count - 1 {
                return try percentFormat("%.1f", .tuple([.float(base * bytes / unit)])) + " " + prefix
            }
        }
        return "\(bytes)"
    }
}
