#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread running one closure, in place of Foundation's `Thread` (which lives in the ICU-linked
/// layer). Used where work needs its own thread rather than a Dispatch queue's (a long-running loop, or a bigger stack
/// than Dispatch's worker threads have).
public enum DetachedThread {
    /// Starts `body` on a new detached thread with `stackSize` bytes of stack (the system's default when nil).
    /// Returns false, without running `body`, when the system refuses a new thread.
    @discardableResult
    public static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, box)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        return true
    }

    /// Sleeps the calling thread for `seconds` (at most a day; negative or non-finite values do not sleep).
    public static func sleep(seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        let clamped = min(seconds, 86_400)
        var request = timespec(tv_sec: Int(clamped), tv_nsec: Int((clamped - clamped.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
