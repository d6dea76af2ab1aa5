import CGit2
import FoundationEssentials
import Glibc

/// A git object id (SHA-1), copied out of libgit2 as a value (inline, no heap allocation).
public struct ObjectID: Hashable, Sendable, CustomStringConvertible, Comparable {
    // The 20 bytes as big-endian words, so that comparing words compares bytes in order.
    private let high: UInt64
    private let middle: UInt64
    private let low: UInt32

    init(_ oid: git_oid) {
        var copy = oid
        var h: UInt64 = 0, m: UInt64 = 0, l: UInt32 = 0
        withUnsafeBytes(of: &copy.id) { raw in
            for i in 0..<8 { h = h << 8 | UInt64(raw[i]) }
            for i in 8..<16 { m = m << 8 | UInt64(raw[i]) }
            for i in 16..<20 { l = l << 8 | UInt32(raw[i]) }
        }
        high = h
        middle = m
        low = l
    }

    init(_ pointer: UnsafePointer<git_oid>) { self.init(pointer.pointee) }

    /// Parses a full 40-digit hex id; nil when it is not one.
    /// Parsed here rather than by libgit2, so it needs no initialized library (ids are read while it starts).
    public init?(hex: String) {
        var words: (UInt64, UInt64, UInt32) = (0, 0, 0)
        var count = 0
        for byte in hex.utf8 {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            switch count {
            case 0..<16: words.0 = words.0 << 4 | UInt64(digit)
            case 16..<32: words.1 = words.1 << 4 | UInt64(digit)
            case 32..<40: words.2 = words.2 << 4 | UInt32(digit)
            default: return nil
            }
            count += 1
        }
        guard count == 40 else { return nil }
        high = words.0
        middle = words.1
        low = words.2
    }

    /// The 20 raw bytes.
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(20)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: middle >> UInt64(shift))) }
        for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: low >> UInt32(shift))) }
        return out
    }

    var oid: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { raw in
            for i in 0..<8 { raw[i] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * i)) }
            for i in 0..<8 { raw[8 + i] = UInt8(truncatingIfNeeded: middle >> UInt64(56 - 8 * i)) }
            for i in 0..<4 { raw[16 + i] = UInt8(truncatingIfNeeded: low >> UInt32(24 - 8 * i)) }
        }
        return oid
    }

    /// Calls `body` with a pointer to the libgit2 form.
    @discardableResult
    func withOID<R>(_ body: (UnsafePointer<git_oid>) throws -> R) rethrows -> R {
        var value = oid
        return try body(&value)
    }

    /// The 40-digit hex form.
    public var hex: String { hexPrefix(40) }

    /// The 7-digit abbreviation shown in logs.
    public var short: String { hexPrefix(7) }

    /// Appends the first `count` hex digits (40: all) to `out`, for writers that build bytes.
    public func appendHex(_ count: Int = 40, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: count))
        out.withUnsafeMutableBufferPointer { buffer in
            _ = writeHex(count, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    private func hexPrefix(_ count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { writeHex(count, into: $0) }
    }

    private func writeHex(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { table in
            var index = 0
            func put(_ value: UInt64, nibbles: Int) {
                var shift = (nibbles - 1) * 4
                while shift >= 0 && index < count {
                    buffer[index] = table[Int((value >> UInt64(shift)) & 0xf)]
                    index += 1
                    shift -= 4
                }
            }
            put(high, nibbles: 16)
            put(middle, nibbles: 16)
            put(UInt64(low), nibbles: 8)
        }
        return count
    }

    public var description: String { hex }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.high, lhs.middle, lhs.low) < (rhs.high, rhs.middle, rhs.low)
    }
}
