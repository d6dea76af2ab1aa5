import Foundation
import XCTest
import FolioCore
import FolioTemplates

/// The per-variable check the launcher's form uses is the one `--set` uses.
final class TemplateVariableCheckTests: XCTestCase {
    let json = """
    {"id": "swift/package", "name": "P", "variables": [
      {"name": "name", "type": "string", "pattern": "[A-Za-z][A-Za-z0-9_]*", "max": 8},
      {"name": "year", "type": "int", "default": "{{current_year}}", "min": 1970, "max": 9999},
      {"name": "license", "type": "choice", "choices": ["MIT", "none"], "default": "MIT"},
      {"name": "ci", "type": "bool", "default": true}]}
    """

    func variable(_ name: String) throws -> TemplateVariable {
        let template = try memoryTemplate(files: [], manifestJSON: json)
        return try XCTUnwrap(template.manifest.variables.first { $0.name == name })
    }

    func testGivenYearAbcWhenCheckedThenTheProblemIsTheOneSetReports() throws {
        let year = try variable("year")
        XCTAssertEqual(year.problem(withAnswer: "abc"), "'abc' is not a whole number")
        let template = try memoryTemplate(files: [], manifestJSON: json)
        assertThrows(try template.answers(given: ["name": .string("A"), "year": .string("abc")], mode: .defaults),
                     containing: ["'abc' is not a whole number"])
        XCTAssertEqual(year.problem(withAnswer: "1969"), "1969 is less than 1970")
        XCTAssertNil(year.problem(withAnswer: "2025"))
    }

    func testGivenAnEmptyAnswerWhenTheVariableHasADefaultThenItIsAcceptable() throws {
        XCTAssertNil(try variable("year").problem(withAnswer: ""))
        XCTAssertNil(try variable("ci").problem(withAnswer: ""))
        XCTAssertEqual(try variable("ci").problem(withAnswer: "maybe"), "'maybe' is not yes or no")
    }

    func testGivenPatternLengthAndChoicesWhenCheckedThenEachIsEnforced() throws {
        XCTAssertEqual(try variable("name").problem(withAnswer: "1x"), "'1x' does not match the pattern [A-Za-z][A-Za-z0-9_]*")
        XCTAssertEqual(try variable("name").problem(withAnswer: "Abcdefghij"), "'Abcdefghij' is longer than 8 characters")
        XCTAssertEqual(try variable("license").problem(withAnswer: "GPL"), "'GPL' is not one of MIT, none")
        XCTAssertNil(try variable("license").problem(withAnswer: "mit"))
    }
}
