import Dispatch
import Synchronization

/// Runs async work from synchronous code and blocks the calling thread until it has finished: its result, or its
/// error thrown here. Folio's one bridge from async to sync, for command-line verbs and worker threads; never from
/// async code (it would hold a thread of the cooperative pool the work may need, hence `noasync`).
@available(*, noasync, message: "blocks the calling thread; await the work instead")
public func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.set(result)
        done.signal()
    }
    done.wait()
    return try outcome.get()
}

/// Carries the task's result to the waiting thread.
private final class Outcome<T: Sendable>: Sendable {
    private let stored = Mutex<Result<T, any Error>>(.failure(CancellationError()))
    func set(_ result: Result<T, any Error>) { stored.withLock { $0 = result } }
    func get() throws -> T { try stored.withLock { $0 }.get() }
}
