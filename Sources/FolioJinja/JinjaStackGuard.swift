import Glibc

/// glibc's `pthread_getattr_np` (a GNU extension the Glibc module does not import).
@_silgen_name("pthread_getattr_np")
private func getThreadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32

/// Keeps recursion (nested macros, includes, blocks, expressions) from overflowing the thread's stack, whatever its
/// size: the lowest stack address allowed is read from the running thread once, and deep paths compare the current
/// stack position with it.
struct JinjaStackGuard {
    /// The lowest address the stack may reach, or 0 when unknown.
    let floor: UInt

    /// Leaves `reserve` bytes of the current thread's stack for the work done below the last check.
    init(reserve: UInt = 256 << 10) {
        var attributes = pthread_attr_t()
        var low: UInt = 0
        var size = 0
        if getThreadAttributes(pthread_self(), &attributes) == 0 {
            var address: UnsafeMutableRawPointer?
            if pthread_attr_getstack(&attributes, &address, &size) == 0, let address { low = UInt(bitPattern: address) }
            pthread_attr_destroy(&attributes)
        }
        let reserved = min(reserve, UInt(max(size, 0)) / 2)
        floor = low == 0 ? 0 : low + reserved
    }

    /// Whether the stack has come down to the reserve.
    var exhausted: Bool {
        var marker: UInt8 = 0
        return withUnsafePointer(to: &marker) { UInt(bitPattern: $0) } < floor
    }
}
