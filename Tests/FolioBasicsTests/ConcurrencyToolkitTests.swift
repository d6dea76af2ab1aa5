import FolioBasics
import Synchronization
import XCTest

/// Folio's one parallel map and its one blocking bridge from async to sync.
final class ConcurrencyToolkitTests: XCTestCase {
    private struct Failed: Error, Equatable { let which: Int }

    // Moved from FolioCoreTests (FolioCore's `concurrently`, which `parallelMap` replaces), same assertions.
    func testGivenTwoBodiesWhenMappedInParallelThenBothFinishAndTheFirstBodysErrorWins() throws {
        // Given two bodies of different work, When run by one parallel map, Then both results arrive
        let both = try parallelMap(2) { side throws -> String in side == 0 ? String((0..<1000).reduce(0, +)) : "second" }
        XCTAssertEqual(both, ["499500", "second"])
        // When both throw, Then the first body's error wins, after the second has run
        let secondRan = Mutex(false)
        XCTAssertThrowsError(try parallelMap(2) { side throws in
            if side == 1 { secondRan.withLock { $0 = true } }
            throw Failed(which: side + 1)
        }) { error in
            XCTAssertEqual(error as? Failed, Failed(which: 1))
        }
        XCTAssertTrue(secondRan.withLock { $0 })
        // When only the second throws, Then its error is thrown
        XCTAssertThrowsError(try parallelMap(2) { side throws in if side == 1 { throw Failed(which: 2) } }) {
            XCTAssertEqual($0 as? Failed, Failed(which: 2))
        }
    }

    func testGivenManyItemsWhenMappedInParallelThenEachResultIsInItsIndexsPlace() {
        // Given 5,000 items (above the serial threshold), When mapped in parallel
        let squares = parallelMap(5000, serialBelow: 16) { $0 * $0 }
        // Then the result is the serial map's, in order
        XCTAssertEqual(squares, (0..<5000).map { $0 * $0 })
        // And nothing to map gives nothing
        XCTAssertEqual(parallelMap(0) { $0 }, [])
    }

    func testGivenAsyncWorkWhenWaitedForFromSyncCodeThenItsResultOrErrorArrivesHere() throws {
        // Given async work that suspends before answering, When a synchronous caller waits for it
        let answer = try waitFor { () async throws -> Int in
            try await Task.sleep(for: .milliseconds(20))
            return 42
        }
        // Then its result arrives
        XCTAssertEqual(answer, 42)
        // And a thrown error is thrown to the caller
        XCTAssertThrowsError(try waitFor { () async throws -> Int in throw Failed(which: 3) }) {
            XCTAssertEqual($0 as? Failed, Failed(which: 3))
        }
    }
}
