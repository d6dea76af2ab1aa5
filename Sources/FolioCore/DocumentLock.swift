import FoundationEssentials
import Glibc

/// An advisory `flock` on `.git/folio/lock` serializing Folio writers; the kernel drops it when a process dies,
/// so a git `*.lock` file found while holding it was left by a killed writer.
///
/// The same file holds the crash note of the change in progress (empty when none), written in place through the
/// descriptor kept open here, so that a change creates no extra file.
final class DocumentLock {
    /// The lock file's descriptor: read-write normally, read-only on a document the user may only read (the note can
    /// still be read), -1 when the file cannot be opened at all (`openFailure` says why).
    private let fd: Int32
    let path: String
    /// Whether changes can be made under this lock (the file is open for writing).
    let isWritable: Bool
    /// Why the lock cannot be taken for writing, when it cannot.
    private let openFailure: String?

    /// Opens (and, unless `readOnly`, creates) `.git/folio/lock`. Never fails: a document on a read-only file
    /// system, or one the user may only read, opens for reading, and only a change reports the problem.
    init(gitDirectory: URL, readOnly: Bool = false) {
        let folder = gitDirectory.appendingPathComponent("folio").path
        path = folder + "/lock"
        var failure: String?
        var fd: Int32 = -1
        if !readOnly {
            failure = Self.makeFolder(folder)
            if failure == nil {
                fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
                if fd < 0 { failure = String(cString: strerror(errno)) }
            }
        }
        isWritable = fd >= 0
        if fd < 0 { fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        self.fd = fd
        openFailure = isWritable ? nil : failure ?? "the document was opened for reading"
    }

    /// Creates `.git/folio` when missing; the reason when it cannot be used as a folder.
    private static func makeFolder(_ folder: String) -> String? {
        if mkdir(folder, 0o777) == 0 { return nil }
        let code = errno
        var info = stat()
        guard lstat(folder, &info) == 0 else { return String(cString: strerror(code)) }
        return info.st_mode & S_IFMT == S_IFDIR ? nil : "\(folder) is not a folder"
    }

    deinit { if fd >= 0 { close(fd) } }

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
        guard isWritable else { throw WorkTreeError.lockUnavailable(path: path, cause: openFailure ?? "not writable") }
        return try withSharedOrExclusiveLock(LOCK_EX, timeout: timeout, body)
    }

    /// Runs `body` holding the lock shared when the lock file can be opened at all (so that a reader does not see a
    /// change half-made), else without it (a document on a read-only file system has no writer to wait for).
    func whileReading<R>(timeout: TimeInterval = 60, _ body: () throws -> R) throws -> R {
        guard fd >= 0 else { return try body() }
        return try withSharedOrExclusiveLock(LOCK_SH, timeout: timeout, body)
    }

    private func withSharedOrExclusiveLock<R>(_ mode: Int32, timeout: TimeInterval, _ body: () throws -> R) throws -> R {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 200
        while flock(fd, mode | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw POSIXFailure(operation: "lock", path: path) }
            if Date() > deadline { throw FolioError.busy(path) }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
