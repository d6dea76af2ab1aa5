import Dispatch
import FoundationEssentials

/// `(0..<count).map(body)`, the calls spread over the process's threads (Dispatch's `concurrentPerform`, about one
/// thread a core). Below `serialBelow` items, or on one core, every call runs here, in order.
///
/// Every call has finished when this returns, so `body` may use what the caller owns; but it runs on several threads
/// at once, so what it shares must be safe to share (distinct indices, a handle of its own, or a `Mutex`). When calls
/// throw, the error of the lowest index is thrown, after every call has finished. Folio's one parallel map.
public func parallelMap<T, E: Error>(_ count: Int, serialBelow threshold: Int = 2,
                                     _ body: (Int) throws(E) -> T) throws(E) -> [T] {
    if count < max(threshold, 2) || ProcessInfo.processInfo.activeProcessorCount < 2 {
        var results: [T] = []
        results.reserveCapacity(max(count, 0))
        for index in 0..<max(count, 0) { results.append(try body(index)) }
        return results
    }
    let outcomes = withoutActuallyEscaping(body) { body in
        let run = ParallelRun(count, body)
        DispatchQueue.concurrentPerform(iterations: count) { run.call($0) }
        return run.outcomes()
    }
    var results: [T] = []
    results.reserveCapacity(count)
    for outcome in outcomes { results.append(try outcome.get()) }
    return results
}

/// The body and result slots of one `parallelMap`.
/// `@unchecked Sendable` is safe: each slot is written by exactly one `concurrentPerform` iteration (its index) and read
/// only after `concurrentPerform` has returned, which orders every write before the reads; `body` is called
/// concurrently as `parallelMap` documents and cannot outlive the call (`withoutActuallyEscaping` checks it).
private final class ParallelRun<T, E: Error>: @unchecked Sendable {
    private let body: (Int) throws(E) -> T
    private let slots: UnsafeMutableBufferPointer<Result<T, E>?>

    init(_ count: Int, _ body: @escaping (Int) throws(E) -> T) {
        self.body = body
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    func call(_ index: Int) {
        do throws(E) { slots[index] = .success(try body(index)) } catch { slots[index] = .failure(error) }
    }

    /// Every call's outcome, in index order (after `concurrentPerform` has returned).
    func outcomes() -> [Result<T, E>] { slots.compactMap { $0 } }
}
