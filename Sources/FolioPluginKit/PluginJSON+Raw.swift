/// JSON read as text, part by part: an object's members and an array's elements with the exact bytes of each value,
/// so that fields an editor does not know (written by a newer version of it) are kept byte for byte.
extension PluginJSON {
    /// One member of an object: its key and the bytes of its value (no white space around them).
    public struct RawMember: Sendable, Equatable {
        public var key: String
        public var value: String
        /// Creates a member.
        public init(key: String, value: String) { self.key = key; self.value = value }
    }

    /// The members of the JSON object `bytes` in document order (a repeated key: the first, as `parse` keeps);
    /// nil when `bytes` is not one valid JSON object.
    public static func rawMembers(_ bytes: ArraySlice<UInt8>) -> [RawMember]? {
        guard let parsed = try? parse(Array(bytes), trailingCommas: true), case .object = parsed else { return nil }
        var scanner = RawScanner(bytes: bytes)
        return scanner.members()
    }

    /// The elements of the JSON array `bytes`, each as its exact bytes; nil when `bytes` is not one valid JSON array.
    public static func rawElements(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        guard let parsed = try? parse(Array(bytes), trailingCommas: true), case .array = parsed else { return nil }
        var scanner = RawScanner(bytes: bytes)
        return scanner.elements()
    }
}

/// Splits JSON that `PluginJSON.parse` already accepted; it only finds where each value starts and ends.
private struct RawScanner {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
        if bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
    }

    mutating func members() -> [PluginJSON.RawMember] {
        var out: [PluginJSON.RawMember] = []
        var seen = Set<String>()
        skipSpace()
        index += 1  // {
        while true {
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == 0x22 else { break }  // "}" or a trailing comma's "}"
            let keyBytes = value()
            skipSpace()
            index += 1  // :
            skipSpace()
            let valueBytes = value()
            if case let .string(key)? = try? PluginJSON.parse(Array(keyBytes)), seen.insert(key).inserted {
                out.append(PluginJSON.RawMember(key: key, value: String(decoding: valueBytes, as: UTF8.self)))
            }
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == 0x2C else { break }
            index += 1
        }
        return out
    }

    mutating func elements() -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        skipSpace()
        index += 1  // [
        while true {
            skipSpace()
            guard index < bytes.endIndex, bytes[index] != 0x5D else { break }
            out.append(value())
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == 0x2C else { break }
            index += 1
        }
        return out
    }

    /// The bytes of the value at `index`, which moves past it.
    mutating func value() -> ArraySlice<UInt8> {
        let start = index
        var depth = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                index += 1
                while index < bytes.endIndex, bytes[index] != 0x22 { index += bytes[index] == 0x5C ? 2 : 1 }
                index += 1
            case 0x7B, 0x5B:
                depth += 1
                index += 1
            case 0x7D, 0x5D:
                if depth == 0 { return bytes[start..<index] }
                depth -= 1
                index += 1
            case 0x2C, 0x3A, 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 { return bytes[start..<index] }
                index += 1
            default:
                index += 1
            }
            if depth == 0, byte == 0x22 || byte == 0x7D || byte == 0x5D { return bytes[start..<min(index, bytes.endIndex)] }
        }
        return bytes[start..<min(index, bytes.endIndex)]
    }

    mutating func skipSpace() {
        while index < bytes.endIndex, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }
}
