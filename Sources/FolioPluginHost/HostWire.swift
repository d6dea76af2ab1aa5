import FolioPluginWire
#if canImport(Glibc)
import Glibc
#endif

/// One message as the host sees it.
struct HostMessage {
    var kind: HostWire.Kind
    var sequence: UInt32
    var fields: [[UInt8]]

    func field(_ index: Int) throws(HostWireError) -> [UInt8] {
        guard index < fields.count else { throw .violation("\(kind) message has \(fields.count) fields, needs \(index + 1)") }
        return fields[index]
    }

    /// A field that is UTF-8 without NUL bytes.
    func string(_ index: Int) throws(HostWireError) -> String {
        let bytes = try field(index)
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            throw .violation("field \(index + 1) of \(kind) is not UTF-8")
        }
        return text
    }

    func integer(_ index: Int) throws(HostWireError) -> Int64 {
        let bytes = try field(index)
        guard bytes.count == 8 else { throw .violation("field \(index + 1) of \(kind) is not an integer") }
        return bytes.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
    }
}

/// Why the connection ends.
enum HostWireError: Error {
    case violation(String)
    case closed
    case io(Int32)
}

/// Blocking reads and writes of whole messages on the inherited socket.
struct HostChannel {
    let fd: Int32
    let cap: Int

    func send(_ kind: HostWire.Kind, sequence: UInt32, fields: [[UInt8]]) throws(HostWireError) {
        let payload = fields.reduce(0) { $0 + 4 + $1.count }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(HostWire.headerSize + payload)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(HostWire.magic)
        append(HostWire.version)
        append(kind.rawValue)
        append(sequence)
        append(UInt32(truncatingIfNeeded: payload))
        for field in fields {
            append(UInt32(truncatingIfNeeded: field.count))
            bytes.append(contentsOf: field)
        }
        try write(bytes)
    }

    func receive() throws(HostWireError) -> HostMessage {
        let header = try read(HostWire.headerSize)
        func value<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            header.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        guard value(0, UInt32.self) == HostWire.magic else { throw .violation("bad message header") }
        let version = value(4, UInt16.self)
        guard version == HostWire.version else { throw .violation("protocol version \(version), expected \(HostWire.version)") }
        guard let kind = HostWire.Kind(rawValue: value(6, UInt16.self)) else { throw .violation("unknown message kind") }
        let length = Int(value(12, UInt32.self))
        guard length <= cap else { throw .violation("a message of \(length) bytes, over the cap of \(cap)") }
        let payload = try read(length)
        return HostMessage(kind: kind, sequence: value(8, UInt32.self), fields: try Self.fields(payload))
    }

    private static func fields(_ payload: [UInt8]) throws(HostWireError) -> [[UInt8]] {
        var fields: [[UInt8]] = []
        var offset = 0
        while offset < payload.count {
            guard payload.count - offset >= 4 else { throw .violation("a truncated field length") }
            let length = payload.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
            offset += 4
            guard payload.count - offset >= length else { throw .violation("a field longer than its message") }
            fields.append(Array(payload[offset..<offset + length]))
            offset += length
            guard fields.count <= HostWire.maximumFields else { throw .violation("more than \(HostWire.maximumFields) fields") }
        }
        return fields
    }

    private func write(_ bytes: [UInt8]) throws(HostWireError) {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress?.advanced(by: done), bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if count > 0 { done += count; continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EPIPE || errno == ECONNRESET) { throw .closed }
            throw .io(errno)
        }
    }

    private func read(_ count: Int) throws(HostWireError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress?.advanced(by: done), count - done, 0) }
            if got > 0 { done += got; continue }
            if got == 0 { throw .closed }
            if errno == EINTR { continue }
            if errno == ECONNRESET { throw .closed }
            throw .io(errno)
        }
        return bytes
    }
}
