/// An integer beyond 64 bits, for Python's unbounded `int` (`10 ** 100`, `'12345678901234567890'|int`), up to
/// `maxDigits` decimal digits (Python itself refuses to print longer ones by default). Results that fit 64 bits are
/// always plain `Int`s.
public struct JinjaBigInt: Sendable, Equatable, Hashable {
    /// The sign.
    var negative: Bool
    /// The magnitude, base 2^32, least significant limb first, without leading zero limbs (zero is empty).
    var limbs: [UInt32]

    /// The most decimal digits a big integer may have (Python's default `int` printing limit).
    static let maxDigits = 4300
    static let maxLimbs = 450

    init(negative: Bool, limbs: [UInt32]) {
        var l = limbs
        while l.last == 0 { l.removeLast() }
        self.negative = l.isEmpty ? false : negative
        self.limbs = l
    }

    init(_ i: Int) {
        let m = i.magnitude
        self.init(negative: i < 0, limbs: [UInt32(truncatingIfNeeded: m), UInt32(truncatingIfNeeded: m >> 32)])
    }

    /// Parses digits in `radix` (2...36, underscores not allowed here), with an optional sign.
    init?(_ text: String, radix: Int = 10) {
        var s = Substring(text)
        var negative = false
        if s.first == "-" || s.first == "+" { negative = s.first == "-"; s = s.dropFirst() }
        guard !s.isEmpty, s.count <= Self.maxDigits * 4 else { return nil }
        var value = JinjaBigInt(negative: false, limbs: [])
        for c in s {
            guard let d = c.hexDigitValue ?? (c.isLetter ? c.asciiValue.map { Int($0 | 0x20) - 87 } : nil), d < radix else { return nil }
            value = value.multipliedSmall(UInt32(radix), adding: UInt32(d))
        }
        value.negative = negative && !value.limbs.isEmpty
        self = value
    }

    /// The value as an `Int` when it fits.
    var intValue: Int? {
        guard limbs.count <= 2 else { return nil }
        let m = UInt64(limbs.first ?? 0) | (limbs.count > 1 ? UInt64(limbs[1]) << 32 : 0)
        if negative {
            if m == UInt64(Int.max) + 1 { return Int.min }
            return m <= UInt64(Int.max) ? -Int(m) : nil
        }
        return m <= UInt64(Int.max) ? Int(m) : nil
    }

    var doubleValue: Double {
        var d = 0.0
        for limb in limbs.reversed() { d = d * 4_294_967_296.0 + Double(limb) }
        return negative ? -d : d
    }

    func multipliedSmall(_ factor: UInt32, adding: UInt32 = 0) -> JinjaBigInt {
        var out: [UInt32] = []
        out.reserveCapacity(limbs.count + 1)
        var carry = UInt64(adding)
        for limb in limbs {
            let p = UInt64(limb) * UInt64(factor) + carry
            out.append(UInt32(truncatingIfNeeded: p))
            carry = p >> 32
        }
        if carry > 0 { out.append(UInt32(carry)) }
        return JinjaBigInt(negative: negative, limbs: out)
    }

    /// Divides the magnitude by a small divisor; returns the quotient and remainder.
    func dividedSmall(_ divisor: UInt32) -> (JinjaBigInt, UInt32) {
        var out = [UInt32](repeating: 0, count: limbs.count)
        var rem: UInt64 = 0
        for i in stride(from: limbs.count - 1, through: 0, by: -1) {
            let cur = (rem << 32) | UInt64(limbs[i])
            out[i] = UInt32(cur / UInt64(divisor))
            rem = cur % UInt64(divisor)
        }
        return (JinjaBigInt(negative: negative, limbs: out), UInt32(rem))
    }

    /// Decimal digits, with a `-` when negative.
    public var description: String {
        if limbs.isEmpty { return "0" }
        var chunks: [UInt32] = []
        var v = JinjaBigInt(negative: false, limbs: limbs)
        while !v.limbs.isEmpty {
            let (q, r) = v.dividedSmall(1_000_000_000)
            chunks.append(r)
            v = q
        }
        var s = negative ? "-" : ""
        s += String(chunks.last ?? 0)
        for c in chunks.dropLast().reversed() {
            let part = String(c)
            s += String(repeating: "0", count: 9 - part.count) + part
        }
        return s
    }

    static func compareMagnitude(_ a: [UInt32], _ b: [UInt32]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for i in stride(from: a.count - 1, through: 0, by: -1) where a[i] != b[i] {
            return a[i] < b[i] ? -1 : 1
        }
        return 0
    }

    static func addMagnitude(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        var carry: UInt64 = 0
        for i in 0..<max(a.count, b.count) {
            let s = UInt64(i < a.count ? a[i] : 0) + UInt64(i < b.count ? b[i] : 0) + carry
            out.append(UInt32(truncatingIfNeeded: s))
            carry = s >> 32
        }
        if carry > 0 { out.append(UInt32(carry)) }
        return out
    }

    /// `a - b` for magnitudes with `a >= b`.
    static func subtractMagnitude(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        var borrow: Int64 = 0
        for i in 0..<a.count {
            var d = Int64(a[i]) - Int64(i < b.count ? b[i] : 0) - borrow
            borrow = 0
            if d < 0 { d += 4_294_967_296; borrow = 1 }
            out.append(UInt32(d))
        }
        return out
    }

    static func + (a: JinjaBigInt, b: JinjaBigInt) -> JinjaBigInt {
        if a.negative == b.negative { return JinjaBigInt(negative: a.negative, limbs: addMagnitude(a.limbs, b.limbs)) }
        let c = compareMagnitude(a.limbs, b.limbs)
        if c == 0 { return JinjaBigInt(0) }
        return c > 0 ? JinjaBigInt(negative: a.negative, limbs: subtractMagnitude(a.limbs, b.limbs))
            : JinjaBigInt(negative: b.negative, limbs: subtractMagnitude(b.limbs, a.limbs))
    }

    static prefix func - (a: JinjaBigInt) -> JinjaBigInt { JinjaBigInt(negative: !a.negative, limbs: a.limbs) }

    static func - (a: JinjaBigInt, b: JinjaBigInt) -> JinjaBigInt { a + (-b) }

    static func * (a: JinjaBigInt, b: JinjaBigInt) -> JinjaBigInt {
        guard !a.limbs.isEmpty, !b.limbs.isEmpty else { return JinjaBigInt(0) }
        var out = [UInt32](repeating: 0, count: a.limbs.count + b.limbs.count)
        for i in 0..<a.limbs.count {
            var carry: UInt64 = 0
            for j in 0..<b.limbs.count {
                let t = UInt64(a.limbs[i]) * UInt64(b.limbs[j]) + UInt64(out[i + j]) + carry
                out[i + j] = UInt32(truncatingIfNeeded: t)
                carry = t >> 32
            }
            out[i + b.limbs.count] = UInt32(carry)
        }
        return JinjaBigInt(negative: a.negative != b.negative, limbs: out)
    }

    /// Python's floor division and modulo (the remainder takes the divisor's sign); nil when dividing by zero.
    static func floorDivMod(_ a: JinjaBigInt, _ b: JinjaBigInt) -> (JinjaBigInt, JinjaBigInt)? {
        guard !b.limbs.isEmpty else { return nil }
        var quotient = [UInt32](repeating: 0, count: a.limbs.count)
        var rem = JinjaBigInt(0)
        let divisor = JinjaBigInt(negative: false, limbs: b.limbs)
        for i in stride(from: a.limbs.count * 32 - 1, through: 0, by: -1) {
            rem = rem.multipliedSmall(2, adding: (a.limbs[i / 32] >> UInt32(i % 32)) & 1)
            if compareMagnitude(rem.limbs, divisor.limbs) >= 0 {
                rem = JinjaBigInt(negative: false, limbs: subtractMagnitude(rem.limbs, divisor.limbs))
                quotient[i / 32] |= 1 << UInt32(i % 32)
            }
        }
        var q = JinjaBigInt(negative: a.negative != b.negative, limbs: quotient)
        var r = JinjaBigInt(negative: a.negative, limbs: rem.limbs)
        if !r.limbs.isEmpty, r.negative != b.negative {
            q = q - JinjaBigInt(1)
            r = r + b
        }
        return (q, r)
    }

    static func < (a: JinjaBigInt, b: JinjaBigInt) -> Bool {
        if a.negative != b.negative { return a.negative }
        let c = compareMagnitude(a.limbs, b.limbs)
        return a.negative ? c > 0 : c < 0
    }

    /// The value, as an `Int` when it fits.
    var value: JinjaValue { intValue.map { .int($0) } ?? .bigInt(self) }

    var tooLarge: Bool { limbs.count > Self.maxLimbs }
}
