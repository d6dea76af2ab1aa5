import Dispatch

/// Runs `first` and `second` at the same time (on two of the process's threads when there are two cores) and
/// returns both results once both have finished. When either throws, the error of `first` (else of `second`) is
/// thrown, after both have finished: neither outlives the call, so each may use what the caller owns, provided the
/// two never touch the same thing.
func concurrently<A, B>(_ first: () throws -> A, _ second: () throws -> B) throws -> (A, B) {
    try withoutActuallyEscaping(first) { first in
        try withoutActuallyEscaping(second) { second in
            let pair = ConcurrentPair(first, second)
            DispatchQueue.concurrentPerform(iterations: 2) { pair.run($0) }
            return try (pair.first.get(), pair.second.get())
        }
    }
}

/// The two bodies of `concurrently` and their results. Each slot is written by the one iteration that runs its body
/// and read only after `concurrentPerform` has returned (which orders those writes before the reads), and the
/// bodies never leave the call, so the unchecked `Sendable` holds.
private final class ConcurrentPair<A, B>: @unchecked Sendable {
    private let firstBody: () throws -> A
    private let secondBody: () throws -> B
    var first: Result<A, any Error> = .failure(CancellationError())
    var second: Result<B, any Error> = .failure(CancellationError())

    init(_ first: @escaping () throws -> A, _ second: @escaping () throws -> B) {
        firstBody = first
        secondBody = second
    }

    func run(_ which: Int) {
        if which == 0 { first = Result { try firstBody() } } else { second = Result { try secondBody() } }
    }
}
