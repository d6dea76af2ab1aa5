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

    /// The note's fixed size: room for two object ids and a space (81 bytes with SHA-1, 129 with SHA-256). Writing
    /// it in place at this size, and clearing it by overwriting it with spaces, never changes the file's length, so
    /// a change costs no `ftruncate` (a journaled metadata update on ext4).
    static let noteSize = 160

    /// Replaces the note (call while holding the lock); `text` is at most `noteSize` bytes.
    func writeNote(_ text: String, sync: Bool) throws {
        var bytes = Array(text.utf8.prefix(Self.noteSize))
        bytes += [UInt8](repeating: UInt8(ascii: " "), count: Self.noteSize - bytes.count)
        guard pwrite(fd, bytes, bytes.count, 0) == bytes.count else { throw POSIXFailure(operation: "write note", path: path) }
        if sync, fsync(fd) != 0 { throw POSIXFailure(operation: "fsync", path: path) }
    }

    /// Empties the note (overwrites it with spaces).
    func clearNote() throws {
        let blank = [UInt8](repeating: UInt8(ascii: " "), count: Self.noteSize)
        guard pwrite(fd, blank, blank.count, 0) == blank.count else { throw POSIXFailure(operation: "clear note", path: path) }
    }

    /// The note, nil when empty or blank. (Older Folio versions wrote it at its own length, 81 bytes at most, and
    /// emptied the file to clear it; both read the same.)
    func readNote() -> String? {
        var buffer = [UInt8](repeating: 0, count: Self.noteSize)
        let n = pread(fd, &buffer, buffer.count, 0)
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }
        guard n > 0, let start = buffer[..<n].firstIndex(where: { !isBlank($0) }),
              let end = buffer[..<n].lastIndex(where: { !isBlank($0) }) else { return nil }
        return String(decoding: buffer[start...end], as: UTF8.self)
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
