import FolioTestSupport
import Foundation
import Synchronization
import XCTest

/// `folio` starts libgit2 on a thread of its own as a git command begins; a command that ends at once (an error)
/// must still exit cleanly: the libraries' exit handlers crashed when they ran while libgit2 was starting (about one
/// run in three hundred died of SIGSEGV before `folio` waited for it).
final class ExitWhileStartingTests: XCTestCase {
    func testGivenCommandsThatFailAtOnceWhenRunManyTimesThenEachExitsWithItsErrorAndNoneDiesOfASignal() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        let results = Mutex<[Int32: Int]>([:])
        // When `folio log` is run on missing documents 160 times, two at a time
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for run in 0..<80 {
                let status = (try? runProgram(folioExecutable.path, ["log", dir.path("missing-\(lane)-\(run)").path], cwd: dir.url, environment: env).status) ?? -1
                results.withLock { $0[status, default: 0] += 1 }
            }
        }
        // Then every run exited 1 (its one-line error), none by a signal
        XCTAssertEqual(results.withLock { $0 }, [1: 160])
    }
}
