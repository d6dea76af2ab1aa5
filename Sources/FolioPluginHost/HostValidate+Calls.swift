import FolioPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// A conformance failure: what was wrong, in one line.
struct ValidationFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A buffer a plugin returned, copied and released with its own function.
struct ReturnedBuffer {
    var bytes: [UInt8]?
    /// Whether it came with a release function (a buffer with data but none leaks, or frees nothing).
    var hadRelease: Bool
    /// Whether `data[size]` was NUL (text buffers are NUL-terminated by the ABI).
    var terminated: Bool

    var isEmpty: Bool { bytes?.isEmpty ?? true }
}

/// Raw calls into one editor table, for the conformance tests: every status and buffer as the plugin gave them.
struct RawEditor {
    let table: UnsafePointer<folio_editor>
    let id: String

    static let selection = folio_selection(struct_size: UInt32(MemoryLayout<folio_selection>.size), reserved: 0, cursor: 1, anchor: 0, scroll: 0, pan_x: 0, pan_y: 0)

    /// Copies and releases `buffer` through its release function (zeroing it).
    /// A buffer over the answer limit ends the test, named as over it (`HostValidate.AnswerLimit`), unread.
    static func take(_ buffer: inout folio_buffer) -> ReturnedBuffer {
        defer { folio_buffer_release(&buffer) }
        guard let data = buffer.data else { return ReturnedBuffer(bytes: nil, hadRelease: buffer.release != nil, terminated: true) }
        if buffer.size > HostValidate.AnswerLimit.state.withLock({ $0.cap }) {
            let size = buffer.size
            folio_buffer_release(&buffer)
            HostValidate.AnswerLimit.refuse(size: size)
        }
        let bytes = Array(UnsafeBufferPointer(start: data, count: buffer.size))
        return ReturnedBuffer(bytes: bytes, hadRelease: buffer.release != nil, terminated: data[buffer.size] == 0)
    }

    func open(_ bytes: [UInt8]) -> (status: folio_status, handle: OpaquePointer?, error: ReturnedBuffer) {
        var error = folio_buffer()
        var handle: OpaquePointer?
        let status = HostValidate.Deadline.timed(.call) { bytes.withUnsafeBufferPointer { table.pointee.open?(table, $0.baseAddress, $0.count, &handle, &error) } ?? -1 }
        return (status, handle, Self.take(&error))
    }

    /// Applies `command`; `selection` nil passes NULL (the ABI allows it).
    func apply(_ handle: OpaquePointer, _ command: String, _ arguments: [UInt8], selection: folio_selection? = Self.selection)
        -> (status: folio_status, handle: OpaquePointer?, description: ReturnedBuffer, error: ReturnedBuffer) {
        var newHandle: OpaquePointer?
        var description = folio_buffer(), error = folio_buffer()
        let json = (arguments + [0]).map { CChar(bitPattern: $0) }  // the JSON text, NUL-terminated
        let status = HostValidate.Deadline.timed(.call) {
            json.withUnsafeBufferPointer { args in
                Self.withSelection(selection) { table.pointee.apply?(table, handle, command, args.baseAddress, $0, &newHandle, &description, &error) }
            } ?? -1
        }
        return (status, newHandle, Self.take(&description), Self.take(&error))
    }

    /// `body` with a pointer to `selection`, or NULL.
    private static func withSelection<R>(_ selection: folio_selection?, _ body: (UnsafePointer<folio_selection>?) -> R) -> R {
        guard var selection else { return body(nil) }
        return withUnsafePointer(to: &selection) { body($0) }
    }

    func serialize(_ handle: OpaquePointer) -> (status: folio_status, bytes: ReturnedBuffer, error: ReturnedBuffer) {
        var out = folio_buffer(), error = folio_buffer()
        let status = HostValidate.Deadline.timed(.call) { table.pointee.serialize?(table, handle, &out, &error) ?? -1 }
        return (status, Self.take(&out), Self.take(&error))
    }

    /// Renders; `selection` nil passes NULL. The text is the plugin's bytes as they came.
    func render(_ handle: OpaquePointer, width: UInt32, height: UInt32, selection: folio_selection? = Self.selection)
        -> (status: folio_status, text: ReturnedBuffer, error: ReturnedBuffer) {
        var out = folio_buffer(), error = folio_buffer()
        let status = HostValidate.Deadline.timed(.render) { Self.withSelection(selection) { table.pointee.render?(table, handle, width, height, $0, &out, &error) } ?? -1 }
        return (status, Self.take(&out), Self.take(&error))
    }

    func release(_ handle: OpaquePointer) { table.pointee.release?(table, handle) }

    /// Opens `bytes`, failing unless the plugin accepts them.
    func openAccepted(_ bytes: [UInt8], what: String) throws -> OpaquePointer {
        let opened = open(bytes)
        try HostValidate.expectStatus(opened.status, [FOLIO_STATUS_OK], "open(\(what))", error: opened.error)
        guard let handle = opened.handle else { throw ValidationFailure("open(\(what)) returned OK but no document") }
        return handle
    }

    /// Serializes, failing unless it succeeds; the bytes.
    func serialized(_ handle: OpaquePointer, what: String) throws -> [UInt8] {
        let result = serialize(handle)
        try HostValidate.expectStatus(result.status, [FOLIO_STATUS_OK], "serialize(\(what))", error: result.error)
        try HostValidate.expectOwned(result.bytes, "serialize(\(what))'s bytes")
        return result.bytes.bytes ?? []
    }
}

extension HostValidate {
    static func statusName(_ status: folio_status) -> String {
        switch status {
        case FOLIO_STATUS_OK: return "OK"
        case FOLIO_STATUS_INVALID_ARGUMENT: return "INVALID_ARGUMENT"
        case FOLIO_STATUS_UNKNOWN_COMMAND: return "UNKNOWN_COMMAND"
        case FOLIO_STATUS_INVALID_DOCUMENT: return "INVALID_DOCUMENT"
        case FOLIO_STATUS_CONFLICT: return "CONFLICT"
        case FOLIO_STATUS_UNSUPPORTED: return "UNSUPPORTED"
        case FOLIO_STATUS_OUT_OF_MEMORY: return "OUT_OF_MEMORY"
        case FOLIO_STATUS_INTERNAL: return "INTERNAL"
        default: return "status \(status) (not a folio_status)"
        }
    }

    /// Fails unless `status` is one of `allowed`; the message quotes the plugin's error text.
    static func expectStatus(_ status: folio_status, _ allowed: [folio_status], _ what: String, error: ReturnedBuffer) throws {
        try expectText(error, "\(what)'s error message", oneLine: false)
        guard allowed.contains(status) else {
            let message = error.bytes.map { String(decoding: $0.prefix(200), as: UTF8.self) } ?? ""
            throw ValidationFailure("\(what) returned \(statusName(status)), expected \(allowed.map(statusName).joined(separator: " or "))"
                                    + (message.isEmpty ? "" : " (\"\(message)\")"))
        }
    }

    /// Fails when a buffer with data came without a release function.
    static func expectOwned(_ buffer: ReturnedBuffer, _ what: String) throws {
        if buffer.bytes != nil && !buffer.hadRelease {
            throw ValidationFailure("\(what): a buffer with data but no release function (the plugin must free what it allocates)")
        }
    }

    /// Fails unless `buffer` is valid UTF-8 text, NUL-terminated, owned, and (when `oneLine`) without control characters.
    static func expectText(_ buffer: ReturnedBuffer, _ what: String, oneLine: Bool) throws {
        try expectOwned(buffer, what)
        guard let bytes = buffer.bytes else { return }
        if let offset = invalidUTF8Offset(bytes) { throw ValidationFailure("\(what) is not valid UTF-8 (byte \(offset) of \(bytes.count))") }
        if !buffer.terminated { throw ValidationFailure("\(what) is not NUL-terminated (the ABI's text buffers are)") }
        if oneLine, let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first(where: isControl) {
            throw ValidationFailure("\(what) holds control character U+\(hex(scalar.value)) (one line of text expected)")
        }
    }

    /// The offset of the first byte that makes `bytes` invalid UTF-8, nil when valid.
    static func invalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The C library's `wcwidth` (Swift's Glibc module does not declare it), looked up once.
    private static let wcwidth: (@convention(c) (Int32) -> Int32)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth").map {
        unsafeBitCast($0, to: (@convention(c) (Int32) -> Int32).self)
    }

    /// Terminal cells of `line`, cluster by cluster as Folio measures (`DisplayWidth.clusterWidth`, which this process
    /// does not link): a cluster takes its first scalar's width (wcwidth in C.UTF-8; one it does not know counts 1, a
    /// combining mark 0), two with an emoji presentation selector or as a flag, its next scalar's when it starts with a
    /// combining mark — so a ZWJ sequence (👩‍👩‍👧) is two cells, not six.
    static func cells(_ line: Substring) -> Int {
        line.reduce(0) { $0 + clusterCells($1.unicodeScalars) }
    }

    private static func clusterCells(_ scalars: Character.UnicodeScalarView) -> Int {
        var width = scalars.first.map(scalarCells) ?? 0
        if width == 1 && scalars.contains(where: { $0.value == 0xFE0F }) { width = 2 }
        if scalars.filter({ (0x1F1E6...0x1F1FF).contains($0.value) }).count >= 2 { width = 2 }
        if width == 0 { width = scalars.dropFirst().map(scalarCells).max() ?? 0 }
        return width
    }

    private static func scalarCells(_ scalar: Unicode.Scalar) -> Int {
        let known = wcwidth.map { Int($0(Int32(bitPattern: scalar.value))) } ?? 1
        return max(known, scalar.properties.generalCategory == .nonspacingMark || scalar.value == 0x200D ? 0 : 1)
    }

    /// The process's data segment in bytes (`/proc/self/statm`), to see memory a loop never gives back.
    static func dataBytes() -> Int {
        guard let bytes = Files.statm() else { return 0 }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        guard fields.count > 5, let pages = Int(fields[5]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
