import CGit2
import FoundationEssentials
import Dispatch
import Glibc
import Synchronization

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
        let results = BlobSlots(count: ids.count)
        let failure = Mutex<(any Error)?>(nil)
        let gitFolder = gitDirectory
        let own = UncheckedHandle(self)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                let repository = worker == 0 ? own.repository : try Repository.open(at: gitFolder)
                var index = worker
                while index < ids.count {
                    results.store(try repository.readBlob(ids[index]), at: index)
                    index += workers
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.collect()
    }
}

/// This handle, carried into the first worker of `readBlobs`: it is the only thread using it until the workers are
/// joined (`concurrentPerform` returns only after every iteration), and the caller is blocked meanwhile.
private struct UncheckedHandle: @unchecked Sendable {
    let repository: Repository
    init(_ repository: Repository) { self.repository = repository }
}

/// One slot per blob, each written by exactly one worker and read only after all have finished, so no lock is
/// needed (`concurrentPerform`'s return orders the writes before the reads).
private final class BlobSlots: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Data>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: Data(), count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func store(_ data: Data, at index: Int) { slots[index] = data }

    func collect() -> [Data] { Array(UnsafeBufferPointer(start: slots, count: count)) }
}
