import CGit2
import Foundation

/// A git object id (SHA-1), copied out of libgit2 as a value.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The 20 raw bytes.
    public let bytes: [UInt8]

    init(_ oid: git_oid) {
        var copy = oid
        bytes = withUnsafeBytes(of: &copy.id) { Array($0) }
    }

    init(_ pointer: UnsafePointer<git_oid>) { self.init(pointer.pointee) }

    /// Parses a full 40-digit hex id; nil when it is not one.
    public init?(hex: String) {
        guard hex.utf8.count == 40, hex.allSatisfy(\.isHexDigit) else { return nil }
        var oid = git_oid()
        guard git_oid_fromstr(&oid, hex) == 0 else { return nil }
        self.init(oid)
    }

    var oid: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { raw in
            for (i, byte) in bytes.enumerated() where i < raw.count { raw[i] = byte }
        }
        return oid
    }

    /// Calls `body` with a pointer to the libgit2 form.
    func withOID<R>(_ body: (UnsafePointer<git_oid>) throws -> R) rethrows -> R {
        var value = oid
        return try body(&value)
    }

    /// The 40-digit hex form.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(40)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 7-digit abbreviation shown in logs.
    public var short: String { String(hex.prefix(7)) }

    public var description: String { hex }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
