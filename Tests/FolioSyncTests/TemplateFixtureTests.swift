import Foundation
import XCTest
import FolioCore
import FolioSync
import FolioTemplates
import FolioTestSupport

/// `folio templates test`: render and update-path fixtures, their failure reports, and `--update-golden`.
final class TemplateFixtureTests: XCTestCase {
    /// A template folder `greet` (one greeting file and a note) under a fresh temporary folder.
    func makeTemplate(_ temp: TemporaryDirectory, greeting: String = "Hello {{who}}!\n", version: String = "1.1.0") throws -> URL {
        let folder = temp.path("greet")
        try write(folder, "template.json", #"{"id": "t/greet", "name": "Greet", "version": "\#(version)", "variables": [{"name": "who", "type": "string", "default": "world"}]}"#)
        try write(folder, "files/hello.txt", greeting)
        try write(folder, "files/note.txt", "first line\nsecond line\n")
        return folder
    }

    func write(_ folder: URL, _ path: String, _ text: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func run(_ folder: URL, updateGolden: Bool = false) throws -> TemplateTestReport {
        try TemplateTester.run(try TemplateAuthoringTree.read(folder: folder), updateGolden: updateGolden)
    }

    func testGivenARenderFixtureMatchingTheTemplateWhenTestedThenItPasses() throws {
        let temp = TemporaryDirectory()
        let folder = try makeTemplate(temp)
        try write(folder, "tests/ada/fixture.json", #"{"answers": {"who": "Ada"}}"#)
        try write(folder, "tests/ada/expected/hello.txt", "Hello Ada!\n")
        try write(folder, "tests/ada/expected/note.txt", "first line\nsecond line\n")
        let report = try run(folder)
        XCTAssertEqual(report.fixtures.map(\.name), ["ada"])
        XCTAssertTrue(report.passed, "\(report.fixtures.flatMap(\.differences))")
    }

    func testGivenAFixtureThatNoLongerMatchesWhenTestedThenItFailsWithALineDiff() throws {
        let temp = TemporaryDirectory()
        let folder = try makeTemplate(temp, greeting: "Hi {{who}}.\n")
        try write(folder, "tests/ada/fixture.json", #"{"answers": {"who": "Ada"}}"#)
        try write(folder, "tests/ada/expected/hello.txt", "Hello Ada!\n")
        try write(folder, "tests/ada/expected/gone.txt", "x")
        let fixture = try XCTUnwrap(try run(folder).fixtures.first)
        XCTAssertFalse(fixture.passed)
        XCTAssertEqual(fixture.differences, ["missing file: gone.txt", "hello.txt: content differs", "  -1: Hello Ada!", "  +1: Hi Ada.",
                                             "unexpected file: note.txt"])
    }

    func testGivenAFailingFixtureWhenTestedWithUpdateGoldenThenExpectedIsRewrittenAndTheNextRunPasses() throws {
        let temp = TemporaryDirectory()
        let folder = try makeTemplate(temp)
        try write(folder, "tests/ada/fixture.json", #"{"answers": {"who": "Ada"}}"#)
        try write(folder, "tests/ada/expected/stale.txt", "old")
        let rewritten = try run(folder, updateGolden: true)
        XCTAssertEqual(rewritten.fixtures.map(\.updated), [true])
        let expected = folder.appendingPathComponent("tests/ada/expected")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: expected.path).sorted(), ["hello.txt", "note.txt"])
        XCTAssertEqual(try String(contentsOf: expected.appendingPathComponent("hello.txt"), encoding: .utf8), "Hello Ada!\n")
        let again = try run(folder)
        XCTAssertTrue(again.passed)
        XCTAssertEqual(again.fixtures.map(\.updated), [false])
    }

    func testGivenAMalformedFixtureWhenTestedThenItFailsNamingTheFile() throws {
        let temp = TemporaryDirectory()
        let folder = try makeTemplate(temp)
        try write(folder, "tests/bad/fixture.json", #"{"answers": {"who": "Ada"}, "answer": 1}"#)
        let fixture = try XCTUnwrap(try run(folder).fixtures.first)
        XCTAssertFalse(fixture.passed)
        XCTAssertTrue(fixture.differences.first?.contains("tests/bad/fixture.json") ?? false, "\(fixture.differences)")
        XCTAssertTrue(fixture.differences.first?.contains("unknown key 'answer'") ?? false, "\(fixture.differences)")
    }

    /// An update fixture: version 1.0.0 in `older/`, the user's edit of note.txt, and a template change to hello.txt.
    func makeUpdateFixture(_ temp: TemporaryDirectory, userEdit: String) throws -> URL {
        let folder = try makeTemplate(temp, greeting: "Hello, {{who}}!\n")
        let fixture = "tests/upgrade"
        try write(folder, "\(fixture)/fixture.json", #"{"answers": {"who": "Ada"}, "update": {}}"#)
        try write(folder, "\(fixture)/older/template.json", #"{"id": "t/greet", "name": "Greet", "version": "1.0.0", "variables": [{"name": "who", "type": "string", "default": "world"}]}"#)
        try write(folder, "\(fixture)/older/files/hello.txt", "Hello {{who}}!\n")
        try write(folder, "\(fixture)/older/files/note.txt", "first line\nsecond line\n")
        try write(folder, "\(fixture)/edits/\(userEdit == "hello" ? "hello.txt" : "note.txt")", userEdit == "hello" ? "Hello there, Ada!\n" : "first line\nsecond line, mine\n")
        return folder
    }

    func testGivenAnUpdateFixtureWhenTestedThenTheUsersEditAndTheTemplatesChangeAreBothInTheMergedTree() throws {
        let temp = TemporaryDirectory()
        let folder = try makeUpdateFixture(temp, userEdit: "note")
        try write(folder, "tests/upgrade/expected/hello.txt", "Hello, Ada!\n")
        try write(folder, "tests/upgrade/expected/note.txt", "first line\nsecond line, mine\n")
        let report = try run(folder)
        XCTAssertEqual(report.fixtures.map(\.kind), ["update"])
        XCTAssertTrue(report.passed, "\(report.fixtures.flatMap(\.differences))")
    }

    func testGivenAnUpdateFixtureWhoseCurrentVersionWasNotBumpedWhenTestedThenItFails() throws {
        let temp = TemporaryDirectory()
        let folder = try makeUpdateFixture(temp, userEdit: "note")
        try write(folder, "template.json", #"{"id": "t/greet", "name": "Greet", "version": "1.0.0", "variables": [{"name": "who", "type": "string", "default": "world"}]}"#)
        try write(folder, "tests/upgrade/expected/hello.txt", "Hello, Ada!\n")
        try write(folder, "tests/upgrade/expected/note.txt", "first line\nsecond line, mine\n")
        let fixture = try XCTUnwrap(try run(folder).fixtures.first)
        XCTAssertFalse(fixture.passed)
        XCTAssertEqual(fixture.differences, [#"version: the current version 1.0.0 is not newer than the older version 1.0.0 (bump "version" in template.json)"#])
    }

    func testGivenAnUpdateThatConflictsUnexpectedlyWhenTestedThenTheConflictListDiffers() throws {
        let temp = TemporaryDirectory()
        let folder = try makeUpdateFixture(temp, userEdit: "hello")
        try write(folder, "tests/upgrade/expected/hello.txt", "Hello, Ada!\n")
        try write(folder, "tests/upgrade/expected/note.txt", "first line\nsecond line\n")
        let fixture = try XCTUnwrap(try run(folder).fixtures.first)
        XCTAssertFalse(fixture.passed)
        XCTAssertEqual(fixture.differences.last, "conflicts: expected none, got hello.txt (markers)")
        XCTAssertTrue(fixture.differences.contains("  +1: <<<<<<< document"), "\(fixture.differences)")

        // When the golden files are rewritten, the conflict list is recorded and the fixture then passes
        XCTAssertEqual(try run(folder, updateGolden: true).fixtures.map(\.updated), [true])
        let conflicts = try String(contentsOf: folder.appendingPathComponent("tests/upgrade/conflicts.json"), encoding: .utf8)
        XCTAssertTrue(conflicts.contains(#""path" : "hello.txt""#) && conflicts.contains(#""resolution" : "markers""#), conflicts)
        XCTAssertTrue(try run(folder).passed)
    }

    func testGivenAnUpdateFixtureFromATagOfTheTemplatesRepositoryWhenTestedThenTheTaggedVersionIsTheBase() throws {
        // Given a template repository where v1.0.0 greets "Hello Ada!" and the work tree (1.1.0) "Hello, Ada!"
        let temp = TemporaryDirectory()
        let env = temp.environment()
        let folder = try makeTemplate(temp, greeting: "Hello {{who}}!\n", version: "1.0.0")
        func git(_ args: [String]) throws { XCTAssertEqual(try FolioTestSupport.git(args, in: temp.url, environment: env).status, 0, args.joined(separator: " ")) }
        try git(["init", "-q", "-b", "main"])
        try git(["add", "-A"])
        try git(["commit", "-q", "-m", "1.0.0"])
        try git(["tag", "-a", "v1.0.0", "-m", "v1.0.0"])
        _ = try makeTemplate(temp, greeting: "Hello, {{who}}!\n", version: "1.1.0")
        try write(folder, "tests/upgrade/fixture.json", #"{"answers": {"who": "Ada"}, "update": {"from": "v1.0.0"}}"#)
        try write(folder, "tests/upgrade/edits/note.txt", "first line\nsecond line, mine\n")
        try write(folder, "tests/upgrade/expected/hello.txt", "Hello, Ada!\n")
        try write(folder, "tests/upgrade/expected/note.txt", "first line\nsecond line, mine\n")
        // When its fixtures run, Then the update from the tag merges the template's change with the user's edit
        let report = try run(folder)
        XCTAssertTrue(report.passed, "\(report.fixtures.flatMap(\.differences))")
        // And a ref the repository lacks fails the fixture, naming it
        try write(folder, "tests/upgrade/fixture.json", #"{"answers": {"who": "Ada"}, "update": {"from": "v9.9.9"}}"#)
        let missing = try XCTUnwrap(try run(folder).fixtures.first)
        XCTAssertFalse(missing.passed)
        XCTAssertTrue(missing.differences.first?.contains("unknown ref 'v9.9.9'") ?? false, "\(missing.differences)")
    }

    func testGivenAnUpdateFromARefOutsideAnyRepositoryWhenTestedThenTheFixtureSaysToUseOlder() throws {
        let temp = TemporaryDirectory()
        let folder = try makeTemplate(temp)
        try write(folder, "tests/upgrade/fixture.json", #"{"update": {"from": "v1.0.0"}}"#)
        let fixture = try XCTUnwrap(try run(folder).fixtures.first)
        XCTAssertFalse(fixture.passed)
        XCTAssertTrue(fixture.differences.first?.contains("in no git repository") ?? false, "\(fixture.differences)")
    }

    func testGivenATemplateFromAGitSourceWhenTestedWithUpdateGoldenThenItRefusesToWrite() throws {
        let tree = TemplateAuthoringTree(name: "remote: t", manifest: Data(#"{"id": "t/x", "name": "X"}"#.utf8), files: [])
        XCTAssertThrowsError(try TemplateTester.run(tree, updateGolden: true)) { error in
            XCTAssertTrue("\(error)".contains("only in a template folder on disk"), "\(error)")
        }
    }
}
