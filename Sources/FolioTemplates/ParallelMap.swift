import FoundationEssentials
import Dispatch
import Glibc

/// Storage written at distinct indices by concurrent workers (each index by exactly one), read after they finish.
private final class Slots<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T?>
    let count: Int
    init(_ count: Int) {
        self.count = count
        pointer = UnsafeMutablePointer<T?>.allocate(capacity: max(count, 1))
        pointer.initialize(repeating: nil, count: max(count, 1))
    }
    deinit {
        pointer.deinitialize(count: max(count, 1))
        pointer.deallocate()
    }
}

/// `(0..<count).map(body)`, spread over every core when `count` reaches `threshold`.
func parallelMap<T>(_ count: Int, threshold: Int, _ body: @Sendable (Int) -> T) -> [T] {
    if count < threshold || ProcessInfo.processInfo.activeProcessorCount < 2 { return (0..<count).map(body) }
    let slots = Slots<T>(count)
    withoutActuallyEscaping(body) { body in
        let run: @Sendable (Int) -> Void = { slots.pointer[$0] = body($0) }
        DispatchQueue.concurrentPerform(iterations: count, execute: run)
    }
    return (0..<count).compactMap { slots.pointer[$0] }
}
