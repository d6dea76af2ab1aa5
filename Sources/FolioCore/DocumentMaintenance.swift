import FoundationEssentials
import Dispatch
import Glibc
import FolioGit
import Synchronization

/// Packing and commit-graph upkeep, run off the writer's path: a change is acknowledged first, then its document
/// is packed on a background thread with a repository handle of its own (libgit2 handles are not shared across
/// threads). Processes wait for it before they exit (`waitForAll()`; `folio` does this), so nothing is left
/// half-written.
///
/// Every packer and every `compact` of a document, in any process, runs under one maintenance lock
/// (`.git/folio/maintenance.lock`): background packing skips a document that is being maintained, `compact`
/// waits. Background packing never decides reachability (it packs every loose object and rewrites merged packs
/// whole), and `compact` also holds the writer lock, so no change of this document is in flight while it judges
/// what history needs; objects written before a writer took its lock are protected by their age
/// (`Repository.pruneGracePeriod`).
public enum DocumentMaintenance {
    private static let group = DispatchGroup()
    private static let queue = DispatchQueue(label: "org.folio.maintenance", qos: .utility)
    private static let running = Mutex<Set<String>>([])

    /// Packs `gitDirectory`'s loose objects in the background unless that is already under way.
    static func schedule(gitDirectory: URL) {
        let key = gitDirectory.standardizedFileURL.path
        guard running.withLock({ $0.insert(key).inserted }) else { return }
        queue.async(group: group) {
            defer { _ = running.withLock { $0.remove(key) } }
            try? run(gitDirectory: gitDirectory)
        }
    }

    /// Waits until every scheduled maintenance of this process has finished.
    public static func waitForAll() {
        group.wait()
    }

    /// Packs loose objects (merging packs geometrically) and rewrites the commit-graph when packs merged; skipped
    /// when another packer or a compact holds the maintenance lock.
    static func run(gitDirectory: URL) throws {
        _ = try withMaintenanceLock(gitDirectory: gitDirectory, wait: false) {
            let repository = try Repository.open(at: gitDirectory)
            // The commit-graph covers the whole history, so it is rewritten only when packs merge or the history has
            // grown by a quarter since (geometrically rarer as history grows); commits newer than it are simply parsed,
            // as git and libgit2 both allow.
            // A writer faster than packing leaves more loose objects behind than the limit while a run is under way:
            // go again until they are under it, so that a burst of changes ends packed (bounded, in case another
            // process keeps writing).
            repository.removeStaleTemporaryFiles()
            var merged = false
            for _ in 0..<8 {
                if try repository.packIncrementally() { merged = true }
                guard repository.estimatedLooseObjects() > looseObjectLimit else { break }
            }
            // A Folio change writes a blob, a tree and a commit, so a third of the packed objects estimates the commits.
            if merged || repository.commitGraphIsStale(commits: repository.packs().reduce(0) { $0 + $1.objects } / 3) {
                try repository.writeCommitGraphRemovingStaleLock()
            }
        }
    }

    /// Runs `body` holding the document's maintenance lock; with `wait`, waits up to `timeout` seconds for it,
    /// otherwise returns nil at once when another packer holds it.
    static func withMaintenanceLock<R>(gitDirectory: URL, wait: Bool, timeout: TimeInterval = 300, _ body: () throws -> R) throws -> R? {
        let folder = gitDirectory.appendingPathComponent("folio")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("maintenance.lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXFailure(operation: "open maintenance lock", path: path) }
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 1000
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw POSIXFailure(operation: "lock", path: path) }
            guard wait else { return nil }
            if Date() > deadline { throw FolioError.busy(path) }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Loose objects before Folio packs them. git's own `gc.auto` is 6,700, but each loose object takes a whole
    /// file-system block (4 KiB for a ~200-byte commit), so Folio packs after about 340 changes of one file: a
    /// document stays within twice the size `git gc` would give it, and each background run stays short.
    static let looseObjectLimit = 1024
}

extension Document {
    /// Packs everything the history needs into one pack and rewrites the commit-graph (like `git gc`).
    ///
    /// Holds the writer lock (no change of this document in flight) and the maintenance lock (no packer running).
    /// Every ref is read first: a ref that cannot be read or resolved throws a `MaintenanceError` naming it and
    /// nothing is deleted. Objects named by the index or by the crash note of an interrupted change are kept, as
    /// is anything younger than `Repository.pruneGracePeriod`.
    public func compact() throws {
        DocumentMaintenance.waitForAll()
        try lock.withLock {
            let noted = (lock.readNote() ?? "").split(separator: " ").compactMap { ObjectID(hex: String($0)) }
            _ = try DocumentMaintenance.withMaintenanceLock(gitDirectory: repository.gitDirectory, wait: true) {
                let repository = try Repository.open(at: repository.gitDirectory)
                try repository.pack(all: true, extraRoots: noted)
                repository.removeStaleTemporaryFiles()
                try repository.writeCommitGraphRemovingStaleLock()
            }
        }
    }
}
