import FoundationEssentials
import Glibc
import FolioCore

/// The per-round `flock` on a document's `.git/folio/sync.lock`: one sync round at a time per document across
/// processes (`folio sync --watch` and an open editor), dropped by the kernel when a process dies.
final class SyncRoundLock {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// The lock for the document at `documentPath`, nil when another process holds it right now.
    static func take(documentPath: String) throws -> SyncRoundLock? {
        let folder = documentPath + "/.git/folio"
        if mkdir(folder, 0o777) != 0 && errno != EEXIST { throw POSIXFailure(operation: "create folder", path: folder) }
        let path = folder + "/sync.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXFailure(operation: "open", path: path) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw POSIXFailure(operation: "lock", path: path, code: code)
        }
        return SyncRoundLock(fd: fd)
    }

    /// Waits for the lock (polling every 50 ms) until `isCancelled` or `timeout`; nil when it never came free.
    static func wait(documentPath: String, timeout: Duration, isCancelled: () -> Bool) throws -> SyncRoundLock? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let lock = try take(documentPath: documentPath) { return lock }
            if isCancelled() || ContinuousClock.now >= deadline { return nil }
            usleep(50_000)
        }
    }
}
