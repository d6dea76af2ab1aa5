import Foundation

/// An advisory `flock` on `.git/folio/lock` serializing Folio writers; the kernel drops it when a process dies,
/// so a git `*.lock` file found while holding it was left by a killed writer.
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
