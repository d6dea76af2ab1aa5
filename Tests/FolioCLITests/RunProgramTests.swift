import Foundation
import FolioTestSupport
import XCTest

/// `runProgram`, the tests' way to run a program: one that exits before reading its input does not end the whole test
/// run with SIGPIPE (CI once died so, when `folio write` refused a broken settings file before reading its input).
final class RunProgramTests: XCTestCase {
    func testGivenAProgramThatExitsWithoutReadingWhenGivenAMebibyteOfInputThenItsStatusIsReturned() throws {
        let result = try runProgram("/bin/sh", ["-c", "exit 3"], stdin: Data(count: 1 << 20))
        XCTAssertEqual(result.status, 3)
    }
}
