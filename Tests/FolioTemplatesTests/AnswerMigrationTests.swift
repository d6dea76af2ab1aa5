import Foundation
import XCTest
import FolioCore
import FolioTemplates

/// `renamedFrom` in template.json and how recorded answers carry over to a newer version.
final class AnswerMigrationTests: XCTestCase {
    private func manifest(_ variables: String) throws -> TemplateManifest {
        try TemplateManifest.parse(Data(#"{"id": "t", "name": "T", "version": "2.0.0", "variables": [\#(variables)]}"#.utf8), file: "tpl/template.json")
    }

    func testGivenRenamedFromWhenParsedThenTheOldNamesAreKept() throws {
        let m = try manifest(#"{"name": "name", "type": "string", "renamedFrom": ["project", "title"]}"#)
        XCTAssertEqual(m.variables.first?.renamedFrom, ["project", "title"])
    }

    func testGivenRenamedFromCycleWhenParsedThenRefusedNamingVariableAndPosition() {
        assertThrows(try manifest(#"""
        {"name": "a", "type": "string", "renamedFrom": ["b"]},
        {"name": "b", "type": "string", "renamedFrom": ["a"]}
        """#), containing: ["tpl/template.json", "line 1", "variable 'a'", "renamedFrom 'b' is also a variable"])
    }

    func testGivenOldNameClashingWithAVariableWhenParsedThenRefused() {
        assertThrows(try manifest(#"{"name": "project", "type": "string"}, {"name": "name", "type": "string", "renamedFrom": ["project"]}"#),
                     containing: ["variable 'name'", "renamedFrom 'project' is also a variable"])
    }

    func testGivenOneOldNameClaimedTwiceOrInvalidWhenParsedThenRefused() {
        assertThrows(try manifest(#"{"name": "a", "type": "string", "renamedFrom": ["x"]}, {"name": "b", "type": "string", "renamedFrom": ["x"]}"#),
                     containing: ["variable 'b'", "'x' is already claimed by 'a'"])
        assertThrows(try manifest(#"{"name": "a", "type": "string", "renamedFrom": ["../x"]}"#), containing: ["renamedFrom '../x' must be letters"])
        assertThrows(try manifest(#"{"name": "a", "type": "string", "renamedFrom": "x"}"#), containing: ["tpl/template.json"])
    }

    func testGivenRecordedAnswersWhenMigratedThenRenamesFollowRemovedDisappearAndRefusedAreReported() throws {
        // Given v2: project → name, a new license, count now an int with max 5; v1 recorded project, old, count
        let template = try memoryTemplate(files: [], manifestJSON: #"""
        {"id": "t", "name": "T", "version": "2.0.0", "variables": [
          {"name": "name", "type": "string", "renamedFrom": ["project"]},
          {"name": "license", "type": "choice", "choices": ["MIT", "Apache-2.0"], "default": "MIT"},
          {"name": "count", "type": "int", "max": 5}]}
        """#)
        // When the recorded answers are migrated
        let migration = template.migrateAnswers(["project": .string("Ada"), "old": .bool(true), "count": .string("9")])
        // Then project's answer is name's, old is dropped, count's answer is refused with why, license is not answered
        XCTAssertEqual(migration.answers, ["name": .string("Ada")])
        XCTAssertEqual(migration.renamed, ["project": "name"])
        XCTAssertEqual(migration.removed, ["old"])
        XCTAssertEqual(migration.refused.keys.sorted(), ["count"])
        XCTAssertTrue(migration.refused["count"]?.contains("9 is more than 5") == true, "\(migration.refused)")
    }

    func testGivenAnswersUnderBothNamesWhenMigratedThenTheCurrentNameWins() throws {
        let template = try memoryTemplate(files: [], manifestJSON: #"""
        {"id": "t", "name": "T", "variables": [{"name": "name", "type": "string", "renamedFrom": ["project"]}]}
        """#)
        let migration = template.migrateAnswers(["project": .string("old"), "name": .string("new")])
        XCTAssertEqual(migration.answers, ["name": .string("new")])
        XCTAssertEqual(migration.renamed, [:])
        XCTAssertEqual(migration.removed, ["project"])
    }
}
