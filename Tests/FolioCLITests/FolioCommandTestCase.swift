import FolioCLITestSupport
import Foundation
import XCTest

/// The set-up shared by the command-line tests: each test gets a temporary directory and its environment (a home of
/// its own).
class TemporaryHomeTestCase: XCTestCase {
    var dir: TemporaryDirectory!
    var env: [String: String]!

    override func setUp() {
        super.setUp()
        dir = TemporaryDirectory()
        env = dir.environment()
    }
}

/// A temporary home in which `folio` runs in-process.
class FolioCommandTestCase: TemporaryHomeTestCase {
    /// Runs `folio ARGS` in the temporary directory and checks that it exits with `status`.
    @discardableResult
    func folio(_ args: String..., stdin: String = "", expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(args, environment: env, cwd: dir.url, stdin: Data(stdin.utf8))
        XCTAssertEqual(result.status, status, "folio \(args.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }
}
