import FoundationEssentials
import FolioBasics
import Glibc

/// Writes files so that a crash leaves either the old or the new content, never a torn file.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `url`, optionally fsyncs it, and renames it into place.
    /// `mode` sets the permission bits (default 0644); with `umask: true` they are the bits before the process's
    /// umask applies, as git checks out work-tree files (0666 or 0777 then).
    public static func write(_ data: Data, to url: URL, sync: Bool, mode: mode_t = 0o644, umask: Bool = false) throws {
        try write(data, toPath: url.path, sync: sync, mode: mode, umask: umask)
    }

    /// `write(_:to:sync:mode:umask:)` for a file-system path (no URL parsing on a writer's hot path).
    public static func write(_ data: Data, toPath path: String, sync: Bool, mode: mode_t = 0o644, umask: Bool = false) throws {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { String(path[..<$0]) } ?? "."
        // A short temporary name, so that a file whose name has the full 255 bytes can still be written.
        let temporary = directory + "/" + WorkTree.temporaryName()
        var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if fd < 0 && errno == ENOENT {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        }
        guard fd >= 0 else { throw POSIXFailure(operation: "create", path: temporary) }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        if !writeAll(fd, data) { let failure = POSIXFailure(operation: "write", path: path); close(fd); throw failure }
        if !umask { fchmod(fd, mode) }
        if sync, fsync(fd) != 0 { let failure = POSIXFailure(operation: "fsync", path: path); close(fd); throw failure }
        close(fd)
        guard rename(temporary, path) == 0 else { throw POSIXFailure(operation: "rename", path: path) }
        ok = true
        if sync { syncDirectory(atPath: directory) }
    }

    /// Creates a new file (failing if it exists) without the temporary-file dance: for folders nobody sees yet,
    /// such as a document being staged before it is renamed into place.
    public static func writeNew(_ data: Data, to url: URL, mode: mode_t = 0o644) throws {
        var fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if fd < 0 && errno == ENOENT {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        }
        guard fd >= 0 else { throw POSIXFailure(operation: "create", path: url.path) }
        defer { close(fd) }
        guard writeAll(fd, data) else { throw POSIXFailure(operation: "write", path: url.path) }
        fchmod(fd, mode)
    }

    /// Writes all of `data` to `fd`, retrying short writes and EINTR; false on an error (errno says which).
    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Writes all of `buffer` to `fd`, retrying short writes and EINTR; false on an error (errno says which).
    package static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }

    /// Flushes everything written to the file system holding `url` (one `syncfs(2)` instead of many fsyncs).
    public static func syncFileSystem(containing url: URL) {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { _ = linuxSyncfs(fd); close(fd) }
    }

    /// fsyncs a directory so that a rename inside it is durable.
    public static func syncDirectory(_ url: URL) {
        syncDirectory(atPath: url.path)
    }

    static func syncDirectory(atPath path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }
}

/// A failed system call: which, on which path, and errno's message.
public struct POSIXFailure: Error, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let code: Int32
    public init(operation: String, path: String, code: Int32 = errno) { self.operation = operation; self.path = path; self.code = code }
    public var description: String { "\(path): \(operation) failed: \(String(cString: strerror(code)))" }
}

/// glibc's `syncfs(2)`, which Swift's Glibc module hides behind `_GNU_SOURCE`.
@_silgen_name("syncfs")
private func linuxSyncfs(_ fd: Int32) -> Int32
