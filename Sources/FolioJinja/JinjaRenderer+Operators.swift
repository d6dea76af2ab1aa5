import Glibc

/// Python's arithmetic, comparison and membership; integer overflow is an error, never a trap.
extension JinjaRenderer {
    func operandCheck(_ v: JinjaValue) throws {
        if case .undefined(let u) = v { throw undefinedError(u) }
    }

    /// Both operands, left first (no variadic array per operation).
    func operandCheck(_ a: JinjaValue, _ b: JinjaValue) throws {
        try operandCheck(a)
        try operandCheck(b)
    }

    func typeError(_ op: String, _ a: JinjaValue, _ b: JinjaValue) -> JinjaError {
        error(.type, "unsupported operand type(s) for \(op): '\(a.typeName)' and '\(b.typeName)'")
    }

    func overflow(_ op: String) -> JinjaError {
        error(.value, "integer overflow in \(op) (Folio's integers are 64-bit)")
    }

    func unary(_ op: String, _ v: JinjaValue) throws -> JinjaValue {
        try operandCheck(v)
        guard let n = v.numeric else { throw error(.type, "bad operand type for unary \(op): '\(v.typeName)'") }
        if op == "+" { return n.value }
        switch n {
        case .int(let i):
            let (r, o) = (0).subtractingReportingOverflow(i)
            return o ? (-JinjaBigInt(i)).value : .int(r)
        case .big(let b): return (-b).value
        case .float(let d): return .float(-d)
        }
    }

    func binary(_ op: String, _ a: JinjaValue, _ b: JinjaValue) throws -> JinjaValue {
        if op == "%", let format = a.stringValue, b.isUndefined, !format.contains("%") { return .string(format) }
        try operandCheck(a, b)
        if let x = a.numeric, let y = b.numeric { return try arithmetic(op, x, y) }
        switch op {
        case "+":
            switch (a, b) {
            case let (.string(x), .string(y)), let (.string(x), .markup(y)), let (.markup(x), .string(y)), let (.markup(x), .markup(y)):
                try checkSize(x.utf8.count + y.utf8.count)
                if case .markup = a { return .markup(x + y) }
                return .string(x + y)
            case let (.list(x), .list(y)):
                try step(x.items.count + y.items.count)
                return .array(x.items + y.items)
            case let (.tuple(x), .tuple(y)): return .tuple(x + y)
            default: throw typeError(op, a, b)
            }
        case "*":
            if case .int(let n)? = b.numeric { return try repeatValue(a, n, op, b) }
            if case .int(let n)? = a.numeric { return try repeatValue(b, n, op, a) }
            throw typeError(op, a, b)
        case "%":
            if let format = a.stringValue {
                if case .undefined(let u) = b {
                    if format.contains("%") { throw undefinedError(u) }
                    return .string(format)
                }
                return .string(try percentFormat(format, b))
            }
            throw typeError(op, a, b)
        default: throw typeError(op, a, b)
        }
    }

    func repeatValue(_ v: JinjaValue, _ n: Int, _ op: String, _ other: JinjaValue) throws -> JinjaValue {
        let count = max(0, n)
        switch v {
        case .string(let s), .markup(let s):
            let (size, o) = s.utf8.count.multipliedReportingOverflow(by: count)
            if o { throw limitError(.maxOutputBytes, "a string repeated \(n) times") }
            try checkSize(size)
            let r = String(repeating: s, count: count)
            if case .markup = v { return .markup(r) }
            return .string(r)
        case .list(let l):
            let (size, o) = l.items.count.multipliedReportingOverflow(by: count)
            if o { throw limitError(.maxSteps, "a list repeated \(n) times") }
            try step(size)
            return .array(Array([[JinjaValue]](repeating: l.items, count: count).joined()))
        case .tuple(let t):
            let (size, o) = t.count.multipliedReportingOverflow(by: count)
            if o { throw limitError(.maxSteps, "a tuple repeated \(n) times") }
            try step(size)
            return .tuple(Array([[JinjaValue]](repeating: t, count: count).joined()))
        default: throw typeError(op, v, other)
        }
    }

    func arithmetic(_ op: String, _ x: JinjaNumber, _ y: JinjaNumber) throws -> JinjaValue {
        if case .int(let a) = x, case .int(let b) = y { return try intArithmetic(op, a, b) }
        if let a = x.bigValue, let b = y.bigValue { return try bigArithmetic(op, a, b) }
        let a = x.doubleValue
        let b = y.doubleValue
        switch op {
        case "+": return .float(a + b)
        case "-": return .float(a - b)
        case "*": return .float(a * b)
        case "/":
            guard b != 0 else { throw error(.value, "float division by zero") }
            return .float(a / b)
        case "//":
            guard b != 0 else { throw error(.value, "float divmod()") }
            return .float((a / b).rounded(.down))
        case "%":
            guard b != 0 else { throw error(.value, "float modulo") }
            let r = a.truncatingRemainder(dividingBy: b)
            return .float(r != 0 && (r < 0) != (b < 0) ? r + b : r)
        case "**":
            let r = Self.pow(a, b)
            if r.isNaN { throw error(.value, "math domain error") }
            return .float(r)
        default: throw error(.type, "unknown operator \(op)")
        }
    }

    func intArithmetic(_ op: String, _ a: Int, _ b: Int) throws -> JinjaValue {
        switch op {
        case "+":
            let (r, o) = a.addingReportingOverflow(b)
            if o { return try bigArithmetic(op, JinjaBigInt(a), JinjaBigInt(b)) }
            return .int(r)
        case "-":
            let (r, o) = a.subtractingReportingOverflow(b)
            if o { return try bigArithmetic(op, JinjaBigInt(a), JinjaBigInt(b)) }
            return .int(r)
        case "*":
            let (r, o) = a.multipliedReportingOverflow(by: b)
            if o { return try bigArithmetic(op, JinjaBigInt(a), JinjaBigInt(b)) }
            return .int(r)
        case "/":
            guard b != 0 else { throw error(.value, "division by zero") }
            return .float(Double(a) / Double(b))
        case "//":
            guard b != 0 else { throw error(.value, "integer division or modulo by zero") }
            if a == Int.min && b == -1 { return try bigArithmetic(op, JinjaBigInt(a), JinjaBigInt(b)) }
            let q = a / b
            return .int((a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q)
        case "%":
            guard b != 0 else { throw error(.value, "integer division or modulo by zero") }
            if b == -1 { return .int(0) }
            let r = a % b
            return .int(r != 0 && (r < 0) != (b < 0) ? r + b : r)
        case "**":
            if b < 0 { return .float(Self.pow(Double(a), Double(b))) }
            var result = 1
            var base = a
            var e = b
            while e > 0 {
                if e & 1 == 1 {
                    let (r, o) = result.multipliedReportingOverflow(by: base)
                    if o { return try bigArithmetic(op, JinjaBigInt(a), JinjaBigInt(b)) }
                    result = r
                }
                e >>= 1
                if e > 0 {
                    let (sq, o) = base.multipliedReportingOverflow(by: base)
                    if o { return try bigArithmetic(op, JinjaBigInt(a), JinjaBigInt(b)) }
                    base = sq
                }
            }
            return .int(result)
        default: throw error(.type, "unknown operator \(op)")
        }
    }

    func tooLarge() -> JinjaError {
        error(.value, "integer result has more than \(JinjaBigInt.maxDigits) digits")
    }

    /// Integer arithmetic beyond 64 bits; results that fit are `Int`s again.
    func bigArithmetic(_ op: String, _ a: JinjaBigInt, _ b: JinjaBigInt) throws -> JinjaValue {
        let result: JinjaBigInt
        switch op {
        case "+": result = a + b
        case "-": result = a - b
        case "*":
            guard a.limbs.count + b.limbs.count <= JinjaBigInt.maxLimbs + 1 else { throw tooLarge() }
            result = a * b
        case "/":
            guard !b.limbs.isEmpty else { throw error(.value, "division by zero") }
            return .float(a.doubleValue / b.doubleValue)
        case "//", "%":
            guard let (q, r) = JinjaBigInt.floorDivMod(a, b) else { throw error(.value, "integer division or modulo by zero") }
            result = op == "//" ? q : r
        case "**":
            if b.negative { return .float(Self.pow(a.doubleValue, b.doubleValue)) }
            guard let e = b.intValue else { throw tooLarge() }
            if a.limbs.isEmpty || a.limbs == [1] { return (e % 2 == 0 && a.negative ? -a : a).value }
            let bits = Double(a.limbs.count * 32 - (a.limbs.last.map { $0.leadingZeroBitCount } ?? 0) - 1)
            guard bits * Double(e) <= Double(JinjaBigInt.maxLimbs * 32) else { throw tooLarge() }
            var r = JinjaBigInt(1)
            var base = a
            var n = e
            while n > 0 {
                if n & 1 == 1 { r = r * base }
                n >>= 1
                if n > 0 { base = base * base }
            }
            result = r
        default: throw error(.type, "unknown operator \(op)")
        }
        guard !result.tooLarge else { throw tooLarge() }
        return result.value
    }

    static func pow(_ a: Double, _ b: Double) -> Double {
        if b == 0 { return 1 }
        if b.rounded() == b, b.magnitude < 1_048_576 {
            var result = 1.0
            var base = a
            var e = Int(b.magnitude)
            while e > 0 {
                if e & 1 == 1 { result *= base }
                base *= base
                e >>= 1
            }
            return b < 0 ? 1 / result : result
        }
        if a < 0 { return .nan }
        return exp(b * log(a))
    }

    func compare(_ op: String, _ a: JinjaValue, _ b: JinjaValue) throws -> Bool {
        switch op {
        case "==":
            if options.undefined == .strict { try operandCheck(a, b) }
            return JinjaValue.pyEqual(a, b)
        case "!=":
            if options.undefined == .strict { try operandCheck(a, b) }
            return !JinjaValue.pyEqual(a, b)
        case "in": return try contains(b, a)
        case "notin": return !(try contains(b, a))
        default: break
        }
        try operandCheck(a, b)
        func less(_ x: JinjaValue, _ y: JinjaValue) throws -> Bool {
            guard let r = JinjaValue.pyLess(x, y) else {
                throw error(.type, "'\(op)' not supported between instances of '\(a.typeName)' and '\(b.typeName)'")
            }
            return r
        }
        switch op {
        case "<": return try less(a, b)
        case ">": return try less(b, a)
        case "<=": return try !less(b, a)
        case ">=": return try !less(a, b)
        default: throw error(.type, "unknown comparison \(op)")
        }
    }

    /// Python's `item in container`.
    func contains(_ container: JinjaValue, _ item: JinjaValue) throws -> Bool {
        switch container {
        case .string(let s), .markup(let s):
            guard let sub = item.stringValue else {
                if case .undefined(let u) = item { throw undefinedError(u) }
                throw error(.type, "'in <string>' requires string as left operand, not \(item.typeName)")
            }
            return sub.isEmpty || s.contains(sub)
        case .dict(let d): return d.get(item) != nil
        case .namespace(let n): return n.attributes.get(item) != nil
        default: return try iterate(container).contains { JinjaValue.pyEqual($0, item) }
        }
    }
}
