import Foundation
import XCTest
import FolioCLITestSupport

/// `folio templates lint` and `folio templates test` as a user runs them.
final class TemplateAuthoringCLITests: XCTestCase {
    func testGivenTheBundledTemplatesWhenLintedAndTestedThenTheyAreCleanAndEveryOneHasPassingFixtures() throws {
        let temp = TemporaryDirectory()
        let env = bundledEnvironment(temp)
        let lint = runFolio(["templates", "lint"], environment: env, cwd: temp.url)
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
        XCTAssertTrue(lint.stdout.hasSuffix("templates: 0 errors, 0 warnings\n"), lint.stdout)
        let test = runFolio(["templates", "test", "--json"], environment: env, cwd: temp.url)
        XCTAssertEqual(test.status, 0, test.stdout + test.stderr)
        struct Output: Decodable { struct T: Decodable { let template: String; let fixtures: [F] }; struct F: Decodable { let name: String; let kind: String; let passed: Bool }
            let templates: [T] }
        let output = try JSONDecoder().decode(Output.self, from: Data(test.stdout.utf8))
        XCTAssertFalse(output.templates.isEmpty)
        for template in output.templates {
            XCTAssertFalse(template.fixtures.isEmpty, "\(template.template) has no fixtures")
            XCTAssertTrue(template.fixtures.allSatisfy(\.passed), template.template)
        }
        let package = output.templates.first { $0.template.hasSuffix("swift/package") }
        XCTAssertTrue(package?.fixtures.contains { $0.kind == "update" } ?? false, "swift/package needs an update-path fixture")
    }

    func testGivenABrokenTemplateFolderWhenLintedThenEachFindingIsOneLineWithPositionAndTheExitIsOne() throws {
        let temp = TemporaryDirectory()
        let folder = temp.path("broken")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Data("{\"id\": \"t/b\", \"name\": \"B\", \"version\": \"1.0.0\",\n \"variables\": [{\"name\": \"who\", \"type\": \"string\", \"default\": \"w\"}]}".utf8)
            .write(to: folder.appendingPathComponent("template.json"))
        try Data("Hello {{who}}\nBye {{whom}}\n".utf8).write(to: folder.appendingPathComponent("files/a.txt"))
        let result = runFolio(["templates", "lint", "broken"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("broken/files/a.txt:2:5: error T202: 'whom' is not a declared variable"), result.stdout)
        XCTAssertTrue(result.stdout.contains("broken/tests: warning T501"), result.stdout)
        XCTAssertTrue(result.stderr.contains("1 template: 1 error, 1 warning"), result.stderr)
        let json = runFolio(["templates", "lint", "broken", "--json"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(json.status, 1)
        XCTAssertTrue(json.stdout.contains("\"code\" : \"T202\"") || json.stdout.contains("\"code\":\"T202\""), json.stdout)
    }

    func testGivenAMissingFolderOrIDWhenLintedThenOneLineAndExitOne() {
        let temp = TemporaryDirectory()
        let result = runFolio(["templates", "lint", "no/such"], environment: bundledEnvironment(temp), cwd: temp.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no/such: no such template"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
}
