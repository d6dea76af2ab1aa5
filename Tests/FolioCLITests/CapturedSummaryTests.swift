@testable import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The one line the launcher shows for a command it ran: the command once, then what it said.
final class CapturedSummaryTests: XCTestCase {
    func testGivenAFailedTemplatesUpdateWhenSummarizedThenTheFolioPrefixIsNotDoubled() {
        // Given `folio templates update` failing with the command line's own error line
        let output = "folio templates: remote: cannot reach https://example.invalid/templates.git (timed out)\n"
        // When summarized
        let line = CapturedSummary.line(arguments: ["templates", "update"], output: output, status: 1)
        // Then "folio templates update:" comes once, followed by the reason
        XCTAssertEqual(line, .failure("folio templates update: remote: cannot reach https://example.invalid/templates.git (timed out)"))
    }

    func testGivenAUsageErrorWhenSummarizedThenTheErrorNotTheUsageLineIsShown() {
        let output = "folio edit: unknown option '--bogus'\nusage: folio edit DOCUMENT COMMAND [ARGS…]\n"
        XCTAssertEqual(CapturedSummary.line(arguments: ["edit", "--bogus"], output: output, status: 2),
                       .failure("folio edit --bogus: unknown option '--bogus'"))
    }

    func testGivenARealFailingCommandWhenRunCapturedThenItsSummaryHasTheCommandOnce() throws {
        // Given a command that fails in the CLI (a document that is not there)
        let dir = TemporaryDirectory("folio-captured")
        let io = CommandIO(environment: dir.environment([:]), currentDirectory: dir.url, isInteractive: false,
                           out: { _ in }, err: { _ in }, stdin: { Data() })
        // When the launcher runs it captured
        let line = runCaptured(["log", dir.path("missing").path], io: io)
        // Then "folio log" appears once
        XCTAssertTrue(line.isFailure, line.shown)
        XCTAssertTrue(line.text.hasPrefix("folio log "), line.text)
        XCTAssertEqual(line.text.components(separatedBy: "folio log").count, 2, line.text)
    }
}
