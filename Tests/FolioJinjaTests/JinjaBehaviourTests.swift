import Foundation
import XCTest

@testable import FolioJinja

/// Folio's own cases (Fixtures/cases.py) with the output Jinja2 3.1.6 gave for each (Fixtures/behaviour.json, made
/// by Fixtures/record.py): what cookiecutter and copier templates use, each of which must render exactly so.
final class JinjaBehaviourTests: XCTestCase {
    func testGivenFolioFixturesWhenRenderedThenEveryOutputMatchesJinja2() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let cases = JinjaSpecTests.loadCases(from: directory)
        XCTAssertGreaterThanOrEqual(cases.count, 100)
        let failures = cases.compactMap { c in JinjaSpecTests.run(c).map { "\(c.key): \($0)" } }
        print("jinja behaviour fixtures: \(cases.count - failures.count) passed, \(failures.count) failed")
        XCTAssertTrue(failures.isEmpty, failures.joined(separator: "\n"))
    }
}
