import CGit2
import FoundationEssentials
import Dispatch
import Glibc
import FolioBasics

extension Repository {
    /// The contents of the blobs `ids`, in order, read by up to `workers` threads at once.
    ///
    /// A libgit2 handle must not be used by two threads at a time, so each extra worker opens its own handle on the
    /// same git folder (about half a millisecond) and reads its share; this handle reads the first share itself.
    /// Below `threshold` blobs, or on one core, everything is read here. The first failure is thrown.
    public func readBlobs(_ ids: [ObjectID], threshold: Int = 64,
                          workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> [Data] {
        let workers = max(1, min(workers, 4, ids.count / max(threshold / 2, 1)))
        if ids.count < threshold || workers < 2 { return try ids.map(readBlob) }
        let gitFolder = gitDirectory
        // Worker `w` reads blobs w, w + workers, w + 2 × workers… with a handle of its own (this one for worker 0).
        let shares = try parallelMap(workers) { worker throws -> [Data] in
            let repository = worker == 0 ? self : try Repository.open(at: gitFolder)
            return try stride(from: worker, to: ids.count, by: workers).map { try repository.readBlob(ids[$0]) }
        }
        return ids.indices.map { shares[$0 % workers][$0 / workers] }
    }
}
