import FolioPluginWire
import FoundationEssentials
import FolioBasics
import Glibc

/// The protocol between Folio and its plugin host process, over one `AF_UNIX` stream socket.
///
/// Every message is a 16-byte header followed by a payload:
///
///     magic u32 "FPLH" | version u16 | kind u16 | sequence u32 | length u32     (little-endian)
///
/// The payload is a list of fields, each `length u32` + bytes; integers are 8-byte little-endian fields.
/// A length-prefixed binary list rather than JSON because most of the traffic is document bytes (a 10,000-item
/// checklist is 450 KB): they cross as they are, with no escaping, base64 or parsing, and every length is checked
/// against a cap before anything is allocated. The version is in every header; either side treats a message of
/// another version, an unknown kind, a length over the cap or a short field list as a protocol violation and ends
/// the connection. Requests and replies alternate (one call at a time), and each reply repeats its request's sequence.
enum PluginWire {
    static let magic = HostWire.magic
    /// Bumped on any incompatible change; both ends are built from this package, so a mismatch is a broken install.
    static let version = HostWire.version
    static let headerSize = HostWire.headerSize

    /// Message kinds: requests from Folio (1…), replies from the host (100…) (shared with the host).
    typealias Kind = HostWire.Kind

    /// One decoded message.
    struct Message {
        var kind: Kind
        var sequence: UInt32
        var fields: [Data]
        /// On a failure reply: what the kernel refused the plugin during the call (read from the host's refusal channel).
        var refused: PluginRefusedCalls? = nil

        func field(_ index: Int) throws -> Data {
            guard index < fields.count else { throw WireError.violation("\(kind) message has \(fields.count) fields, needs \(index + 1)") }
            return fields[index]
        }
        func string(_ index: Int) throws -> String {
            let data = try field(index)
            guard let text = String(validatingUTF8CString: data) else { throw WireError.violation("field \(index + 1) of \(kind) is not UTF-8") }
            return text
        }
        func integer(_ index: Int) throws -> Int64 {
            let data = try field(index)
            guard data.count == 8 else { throw WireError.violation("field \(index + 1) of \(kind) is not an integer") }
            return data.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
        }
    }

    enum WireError: Error, CustomStringConvertible {
        /// The peer sent something that is not this protocol.
        case violation(String)
        /// The peer closed the connection.
        case closed
        /// A read or write failed (errno).
        case io(String, Int32)
        /// The deadline passed while waiting.
        case deadline
        /// Someone cancelled the call.
        case cancelled

        var description: String {
            switch self {
            case let .violation(what): return "protocol violation: \(what)"
            case .closed: return "the connection closed"
            case let .io(call, code): return "\(call) failed: \(String(cString: strerror(code)))"
            case .deadline: return "deadline passed"
            case .cancelled: return "cancelled"
            }
        }
    }

    static func integerField(_ value: Int64) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }

    /// The bytes of one message.
    static func encode(_ kind: Kind, sequence: UInt32, fields: [Data]) -> Data {
        let payload = fields.reduce(0) { $0 + 4 + $1.count }
        var data = Data(capacity: headerSize + payload)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(magic)
        append(version)
        append(kind.rawValue)
        append(sequence)
        append(UInt32(truncatingIfNeeded: payload))
        for field in fields {
            append(UInt32(truncatingIfNeeded: field.count))
            data.append(field)
        }
        return data
    }

    /// Checks a header; returns kind, sequence and payload length.
    static func decodeHeader(_ header: Data, cap: Int) throws -> (Kind, UInt32, Int) {
        func read<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            header.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        guard header.count == headerSize, read(0, UInt32.self) == magic else { throw WireError.violation("bad message header") }
        let version = read(4, UInt16.self)
        guard version == Self.version else { throw WireError.violation("protocol version \(version), expected \(Self.version)") }
        guard let kind = Kind(rawValue: read(6, UInt16.self)) else { throw WireError.violation("unknown message kind \(read(6, UInt16.self))") }
        let length = Int(read(12, UInt32.self))
        guard length <= cap else { throw WireError.violation("a message of \(length) bytes, over the cap of \(cap)") }
        return (kind, read(8, UInt32.self), length)
    }

    /// Splits a payload into its fields.
    static func decodeFields(_ payload: Data) throws -> [Data] {
        var fields: [Data] = []
        var offset = payload.startIndex
        while offset < payload.endIndex {
            guard payload.endIndex - offset >= 4 else { throw WireError.violation("a truncated field length") }
            let length = payload.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset - payload.startIndex, as: UInt32.self))) }
            offset += 4
            guard payload.endIndex - offset >= length else { throw WireError.violation("a field longer than its message") }
            fields.append(payload.subdata(in: offset..<offset + length))
            offset += length
            guard fields.count <= HostWire.maximumFields else { throw WireError.violation("more than \(HostWire.maximumFields) fields") }
        }
        return fields
    }
}

extension String {
    /// The text of `data` when it is valid UTF-8 without NUL bytes, else nil.
    init?(validatingUTF8CString data: Data) {
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else { return nil }
        self = text
    }
}

/// Blocking and deadline-bound reads and writes of whole messages on a socket.
struct WireChannel {
    let fd: Int32
    /// The largest payload accepted.
    let cap: Int

    /// Writes all of `data`; with a `deadline` the socket must be non-blocking and `poll` bounds the wait.
    func write(_ data: Data, until deadline: ContinuousClock.Instant? = nil, cancelled: () -> Bool = { false }) throws {
        try data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let count = Glibc.send(fd, raw.baseAddress?.advanced(by: done), raw.count - done, Int32(MSG_NOSIGNAL))
                if count > 0 { done += count; continue }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    try wait(for: Int16(POLLOUT), until: deadline, cancelled: cancelled)
                    continue
                }
                if count < 0 && (errno == EPIPE || errno == ECONNRESET) { throw PluginWire.WireError.closed }
                throw PluginWire.WireError.io("send", errno)
            }
        }
    }

    /// Reads exactly `count` bytes.
    func read(_ count: Int, until deadline: ContinuousClock.Instant? = nil, cancelled: () -> Bool = { false }) throws -> Data {
        var data = Data(count: count)
        var done = 0
        while done < count {
            let got = data.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress?.advanced(by: done), count - done, 0) }
            if got > 0 { done += got; continue }
            if got == 0 { throw PluginWire.WireError.closed }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), until: deadline, cancelled: cancelled)
                continue
            }
            if errno == ECONNRESET { throw PluginWire.WireError.closed }
            throw PluginWire.WireError.io("recv", errno)
        }
        return data
    }

    /// Reads one whole message.
    func receive(until deadline: ContinuousClock.Instant? = nil, cancelled: () -> Bool = { false }) throws -> PluginWire.Message {
        let (kind, sequence, length) = try PluginWire.decodeHeader(try read(PluginWire.headerSize, until: deadline, cancelled: cancelled), cap: cap)
        let payload = try read(length, until: deadline, cancelled: cancelled)
        return PluginWire.Message(kind: kind, sequence: sequence, fields: try PluginWire.decodeFields(payload))
    }

    /// Writes one whole message.
    func send(_ kind: PluginWire.Kind, sequence: UInt32, fields: [Data], until deadline: ContinuousClock.Instant? = nil,
              cancelled: () -> Bool = { false }) throws {
        try write(PluginWire.encode(kind, sequence: sequence, fields: fields), until: deadline, cancelled: cancelled)
    }

    /// Waits until the socket is ready for `events`, the deadline passes (throws) or a cancel is seen.
    /// Polls in slices of at most 50 ms so that a cancel from another thread is noticed even if the kill is delayed.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant?, cancelled: () -> Bool) throws {
        while true {
            if cancelled() { throw PluginWire.WireError.cancelled }
            var slice = 50
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                if remaining <= .zero { throw PluginWire.WireError.deadline }
                let millis = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
                slice = Int(min(Int64(slice), millis))
            }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, Int32(slice))
            if ready < 0 && errno != EINTR { throw PluginWire.WireError.io("poll", errno) }
            if ready > 0 { return }
        }
    }
}
