#if canImport(Glibc)
import Glibc
#endif

/// A lock taken and released around a block of code, in place of Foundation's `NSLock` (which lives in the
/// ICU-linked layer). Folio locks with `Mutex`; this is left only for `LoadedPlugin`'s cache, and goes with the
/// in-process plugin path (issue 25 item 1).
// @unchecked Sendable: the only state is the heap-allocated pthread mutex, which exists to be shared between threads;
// it is initialized before `init` returns and destroyed in `deinit`, when no other reference remains.
public final class ThreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Waits for the lock and takes it.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock (taken by this thread).
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// `body`'s result, run holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
