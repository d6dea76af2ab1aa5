import Foundation
import XCTest
import FolioCore
import FolioTemplates

final class TemplateAnswerTests: XCTestCase {
    let json = """
    {"id": "a/b", "name": "B", "variables": [
      {"name": "name", "type": "string", "pattern": "[A-Za-z]+"},
      {"name": "module", "type": "string", "default": "{{name.snake_case}}_core"},
      {"name": "tags", "type": "multichoice", "choices": ["x", "y", "z"], "default": ["x"]},
      {"name": "fancy", "type": "bool"},
      {"name": "level", "type": "int", "when": "fancy", "default": 2, "min": 1, "max": 3},
      {"name": "key", "type": "string", "secret": true, "default": "k"}]}
    """

    func testDefaultsRenderOverEarlierAnswersAndWhenSkipsQuestions() throws {
        // Given a template whose defaults use earlier answers
        let template = try memoryTemplate(files: [], manifestJSON: json)
        // When answers are collected with defaults
        let answers = try template.answers(given: ["name": .string("MyLib"), "tags": .string("y, z")], mode: .defaults)
        // Then the default is rendered, the multichoice parsed, the conditional question skipped, the secret left out of the record
        XCTAssertEqual(answers["module"], .string("my_lib_core"))
        XCTAssertEqual(answers["tags"], .array([.string("y"), .string("z")]))
        XCTAssertEqual(answers["fancy"], .bool(false))
        XCTAssertNil(answers["level"])
        XCTAssertEqual(template.recordableAnswers(answers)["key"], nil)
        XCTAssertEqual(answers["key"], .string("k"))
    }

    func testInvalidAnswersAreErrorsNamingTheVariable() throws {
        let template = try memoryTemplate(files: [], manifestJSON: json)
        assertThrows(try template.answers(given: ["name": .string("no digits 1")], mode: .defaults), containing: ["a/b", "variable 'name'", "pattern"])
        assertThrows(try template.answers(given: ["name": .string("A"), "fancy": .string("yes"), "level": .string("7")], mode: .defaults),
                     containing: ["variable 'level'", "more than 3"])
        assertThrows(try template.answers(given: ["name": .string("A"), "tags": .string("w")], mode: .defaults), containing: ["'w' is not one of x, y, z"])
        assertThrows(try template.answers(given: ["nam": .string("A")], mode: .defaults), containing: ["unknown variable 'nam'"])
    }

    func testGivenARequiredVariableWithoutDefaultWhenDefaultsAreUsedThenTheErrorNamesItAndNoOption() throws {
        // Given a template whose "name" has no default
        let template = try memoryTemplate(files: [], manifestJSON: json)
        // When answers are collected with defaults only
        XCTAssertThrowsError(try template.answers(given: [:], mode: .defaults)) { error in
            // Then the error says which variable, typed so callers can ask for it, and suggests no command-line option
            XCTAssertEqual((error as? TemplateError)?.kind, .missingAnswer(variable: "name"))
            XCTAssertTrue("\(error)".contains("no answer for 'name'"), "\(error)")
            XCTAssertFalse("\(error)".contains("--"), "\(error)")
        }
    }

    func testManifestErrorsNameTheFileLineAndColumn() {
        assertThrows(try TemplateManifest.parse(Data("{\"id\": \"a\",\n \"name\": }".utf8), file: "src: t/template.json"),
                     containing: ["src: t/template.json: line 2, column 10"])
        assertThrows(try TemplateManifest.parse(Data(#"{"id": "a/../b", "name": "x"}"#.utf8), file: "t.json"), containing: ["t.json", "line 1, column 8", "id"])
        assertThrows(try TemplateManifest.parse(Data(#"{"id": "a", "name": "x", "version": "one"}"#.utf8), file: "t.json"), containing: ["semantic version"])
        assertThrows(try TemplateManifest.parse(Data(#"{"name": "x"}"#.utf8), file: "t.json"), containing: ["missing key 'id'"])
    }

    func testSemanticVersionsOrderAsSemverSays() {
        let ordered = ["0.9.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta", "1.0.0", "1.2.0", "v1.10.0"].compactMap(SemanticVersion.init)
        XCTAssertEqual(ordered.count, 7)
        XCTAssertEqual(ordered, ordered.sorted())
        XCTAssertNil(SemanticVersion("1.2"))
    }
}

/// Each TemplateError says which failure it is, so callers (the CLI's hints) can tell them apart.
final class TemplateErrorKindTests: XCTestCase {
    func kind(_ body: () throws -> Any) -> TemplateError.Kind? {
        do { _ = try body(); return nil } catch { return (error as? TemplateError)?.kind }
    }

    func testFailuresAreTypedByWhatHappened() throws {
        // Given a template asking for a name and a number from 1 to 3
        let template = try memoryTemplate(files: [], manifestJSON: """
            {"id": "a/b", "name": "B", "variables": [{"name": "name", "type": "string"}, {"name": "level", "type": "int", "min": 1, "max": 3}]}
            """)
        // When it is given a variable it does not ask for / Then the kind says so
        XCTAssertEqual(kind { try template.answers(given: ["nam": .string("A")], mode: .defaults) }, .unknownVariable)
        // When an answer is out of range / Then it is an invalid answer
        XCTAssertEqual(kind { try template.answers(given: ["name": .string("A"), "level": .string("7")], mode: .defaults) }, .invalidAnswer)
        // When a required answer is missing / Then the kind names the variable (the CLI hints --set with it)
        XCTAssertEqual(kind { try template.answers(given: [:], mode: .defaults) }, .missingAnswer(variable: "name"))
        // When a template.json is malformed / Then it is an invalid file
        XCTAssertEqual(kind { try TemplateManifest.parse(Data(#"{"id": "x", "name": "n", "nmae": 1}"#.utf8), file: "t.json") }, .invalidFile)
    }
}
