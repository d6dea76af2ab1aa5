import Glibc

/// glibc's `pthread_getattr_np` (a GNU extension the Glibc module does not import).
@_silgen_name("pthread_getattr_np")
private func getThreadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32

/// The thread-specific slot holding each thread's stack floor (plus one, so that an unknown floor is not "unset").
private let stackFloorKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// Keeps recursion (nested macros, includes, blocks, expressions) from overflowing the thread's stack, whatever its
/// size: the lowest stack address allowed is read from the running thread once, and deep paths compare the current
/// stack position with it.
struct JinjaStackGuard {
    /// The lowest address the stack may reach, or 0 when unknown.
    let floor: UInt

    /// Leaves 256 KiB (at most half) of the current thread's stack for the work done below the last check. The
    /// floor is read once per thread (glibc reads /proc/self/maps for the main thread's bounds) and kept in a
    /// thread-specific slot.
    init() {
        if let cached = pthread_getspecific(stackFloorKey) {
            floor = UInt(bitPattern: cached) &- 1
            return
        }
        floor = Self.readFloor(reserve: 256 << 10)
        pthread_setspecific(stackFloorKey, UnsafeRawPointer(bitPattern: floor &+ 1))
    }

    private static func readFloor(reserve: UInt) -> UInt {
        var attributes = pthread_attr_t()
        var low: UInt = 0
        var size = 0
        if getThreadAttributes(pthread_self(), &attributes) == 0 {
            var address: UnsafeMutableRawPointer?
            if pthread_attr_getstack(&attributes, &address, &size) == 0, let address { low = UInt(bitPattern: address) }
            pthread_attr_destroy(&attributes)
        }
        let reserved = min(reserve, UInt(max(size, 0)) / 2)
        return low == 0 ? 0 : low + reserved
    }

    /// Whether the stack has come down to the reserve.
    var exhausted: Bool {
        var marker: UInt8 = 0
        return withUnsafePointer(to: &marker) { UInt(bitPattern: $0) } < floor
    }
}
