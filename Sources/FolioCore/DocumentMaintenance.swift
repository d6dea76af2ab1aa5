import Foundation
import FolioGit

/// Packing and commit-graph upkeep, run off the writer's path: a change is acknowledged first, then its document
/// is packed on a background thread with a repository handle of its own (libgit2 handles are not shared across
/// threads). Processes wait for it before they exit (`waitForAll()`; `folio` does this), so nothing is left
/// half-written; another process packing the same document at the same time is skipped through a lock file.
public enum DocumentMaintenance {
    private static let group = DispatchGroup()
    private static let queue = DispatchQueue(label: "org.folio.maintenance", qos: .utility)
    private nonisolated(unsafe) static var running: Set<String> = []
    private static let lock = NSLock()

    /// Packs `gitDirectory`'s loose objects in the background unless that is already under way.
    static func schedule(gitDirectory: URL) {
        let key = gitDirectory.standardizedFileURL.path
        lock.lock()
        let started = running.insert(key).inserted
        lock.unlock()
        guard started else { return }
        queue.async(group: group) {
            defer { lock.lock(); running.remove(key); lock.unlock() }
            try? run(gitDirectory: gitDirectory)
        }
    }

    /// Waits until every scheduled maintenance of this process has finished.
    public static func waitForAll() {
        group.wait()
    }

    /// Packs loose objects (merging packs geometrically) and rewrites the commit-graph when packs merged.
    static func run(gitDirectory: URL) throws {
        let lockPath = gitDirectory.appendingPathComponent("folio/maintenance.lock").path
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return }  // another process is packing it
        defer { flock(fd, LOCK_UN) }
        let repository = try Repository.open(at: gitDirectory)
        // The commit-graph covers the whole history, so it is rewritten only when packs merge or the history has
        // grown by a quarter since (geometrically rarer as history grows); commits newer than it are simply parsed,
        // as git and libgit2 both allow.
        // A writer faster than packing leaves more loose objects behind than the limit while a run is under way:
        // go again until they are under it, so that a burst of changes ends packed (bounded, in case another
        // process keeps writing).
        var merged = false
        for _ in 0..<8 {
            if try repository.packIncrementally() { merged = true }
            guard repository.estimatedLooseObjects() > looseObjectLimit else { break }
        }
        // A Folio change writes a blob, a tree and a commit, so a third of the packed objects estimates the commits.
        if merged || repository.commitGraphIsStale(commits: repository.packs().reduce(0) { $0 + $1.objects } / 3) {
            try repository.writeCommitGraph()
        }
    }

    /// Loose objects before Folio packs them. git's own `gc.auto` is 6,700, but each loose object takes a whole
    /// file-system block (4 KiB for a ~200-byte commit), so Folio packs after about 340 changes of one file: a
    /// document stays within twice the size `git gc` would give it, and each background run stays short.
    static let looseObjectLimit = 1024
}
