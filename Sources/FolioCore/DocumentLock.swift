import Foundation

/// An advisory `flock` on `.git/folio/lock` serializing Folio writers; the kernel drops it when a process dies,
/// so a git `*.lock` file found while holding it was left by a killed writer.
///
/// The same file holds the crash note of the change in progress (empty when none), written in place through the
/// descriptor kept open here, so that a change creates no extra file.
final class DocumentLock {
    private let fd: Int32
    let path: String

    init(gitDirectory: URL) throws {
        let folder = gitDirectory.appendingPathComponent("folio")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("lock").path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXFailure(operation: "open lock", path: path) }
    }

    deinit { close(fd) }

    /// Replaces the note (call while holding the lock).
    func writeNote(_ text: String, sync: Bool) throws {
        let bytes = Array(text.utf8)
        guard pwrite(fd, bytes, bytes.count, 0) == bytes.count, ftruncate(fd, off_t(bytes.count)) == 0 else {
            throw POSIXFailure(operation: "write note", path: path)
        }
        if sync, fsync(fd) != 0 { throw POSIXFailure(operation: "fsync", path: path) }
    }

    /// Empties the note.
    func clearNote() throws {
        guard ftruncate(fd, 0) == 0 else { throw POSIXFailure(operation: "clear note", path: path) }
    }

    /// The note, nil when empty.
    func readNote() -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, info.st_size < 4096 else { return nil }
        var buffer = [UInt8](repeating: 0, count: Int(info.st_size))
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }

    /// Runs `body` holding the lock exclusively; waits up to `timeout` seconds for other writers.
    func withLock<R>(timeout: TimeInterval = 60, _ body: () throws -> R) throws -> R {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 200
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw POSIXFailure(operation: "lock", path: path) }
            if Date() > deadline { throw FolioError.busy(path) }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
