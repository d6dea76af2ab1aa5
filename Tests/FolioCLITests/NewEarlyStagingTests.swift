import FolioCLITestSupport
import Foundation
import XCTest

/// `folio new` with nothing to ask begins the document's repository before it has found the template; whatever ends
/// the command early, nothing of it is left beside the destination.
final class NewEarlyStagingTests: XCTestCase {
    private let dir = TemporaryDirectory()

    /// Runs `folio new out/doc --template TEMPLATE --source … --defaults` plus `extra`, from a template whose one
    /// answer must be 1–9, into an empty folder `out`.
    private func new(template: String = "note", _ extra: [String] = []) throws -> RunResult {
        try dir.write("templates/note/template.json", #"""
        { "id": "note", "name": "Note", "version": "1.0.0",
          "variables": [ { "name": "size", "type": "int", "default": 3, "min": 1, "max": 9 } ] }
        """#)
        try dir.write("templates/note/files/note.txt", "size {{size}}\n")
        return try run(template, extra)
    }

    /// `folio new out/doc --template TEMPLATE --source templates --defaults` plus `extra`, into an empty folder `out`.
    private func run(_ template: String, _ extra: [String] = []) throws -> RunResult {
        try FileManager.default.createDirectory(at: dir.path("out"), withIntermediateDirectories: true)
        return runFolio(["new", dir.path("out/doc").path, "--template", template, "--source", dir.path("templates").path, "--defaults"] + extra,
                        environment: dir.environment(), cwd: dir.url)
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path("out").path).sorted()
    }

    func testGivenAMissingTemplateWhenANewDocumentIsAskedForThenNothingIsLeftInTheFolder() throws {
        // Given templates without the one asked for, When a document is asked for from it
        let result = try new(template: "missing")
        // Then it fails naming the template, and the folder is as it was (no staging folder, no document)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("missing"), result.stderr)
        XCTAssertEqual(try leftovers(), [])
    }

    func testGivenAnAnswerOutOfRangeWhenANewDocumentIsAskedForThenNothingIsLeftInTheFolder() throws {
        // Given a template whose answer must be 1–9, When a document is asked for with 12
        let result = try new(["--set", "size=12"])
        // Then the answer is refused, and nothing is left in the folder
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try leftovers(), [])
    }

    func testGivenADryRunWhenPlannedThenNoStagingFolderIsEverMade() throws {
        // Given a template, When the creation is planned
        let result = try new(["--dry-run"])
        // Then the plan lists the file, and nothing was written in the folder
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("note.txt"), result.stdout)
        XCTAssertEqual(try leftovers(), [])
    }

    func testGivenDefaultsWhenCreatedThenTheDocumentIsWholeAndAloneInTheFolder() throws {
        // Given a template, When a document is made with defaults
        let result = try new()
        // Then it holds the rendered file, git finds it whole, and it is the only thing in the folder
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOf: dir.path("out/doc/note.txt"), encoding: .utf8), "size 3\n")
        XCTAssertEqual(try git(["fsck", "--strict"], in: dir.path("out/doc"), environment: dir.environment()).status, 0)
        XCTAssertEqual(try leftovers(), ["doc"])
    }

    /// A template of 300 files, so they reach the early writer in several batches; file `broken` (if any) fails to render.
    private func manyFiles(broken: Int? = nil) throws -> RunResult {
        try dir.write("templates/many/template.json", #"{ "id": "many", "name": "Many", "version": "1.0.0", "variables": [ { "name": "who", "type": "string", "default": "Ada" } ] }"#)
        for index in 0..<300 {
            let name = String(format: "templates/many/files/d%d/f%03d.txt", index % 3, index)
            try dir.write(name, index == broken ? "{{#who}} never closed\n" : "file \(index) by {{who}}\n")
        }
        return try run("many")
    }

    func testGivenAFileThatFailsToRenderAfterOthersWereWrittenWhenCreatedThenNothingIsLeftInTheFolder() throws {
        // Given 300 files of which the last one rendered has an unclosed section
        // When a document is made (the first batches are already being written when it fails)
        let result = try manyFiles(broken: 299)
        // Then the error names that file, and the folder holds nothing at all
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("f299.txt"), result.stderr)
        XCTAssertEqual(try leftovers(), [])
    }

    func testGivenManyFilesWrittenAsTheyRenderWhenCreatedThenGitFindsTheWorkTreeCleanAndWhole() throws {
        // Given 300 files in three folders, When a document is made
        let result = try manyFiles()
        // Then every file holds its text, the index agrees with every file's stat (nothing stat-dirty), and fsck is clean
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOf: dir.path("out/doc/d2/f299.txt"), encoding: .utf8), "file 299 by Ada\n")
        let env = dir.environment()
        XCTAssertEqual(try git(["diff-files", "--name-only"], in: dir.path("out/doc"), environment: env).stdout, "")
        XCTAssertEqual(try git(["status", "--porcelain"], in: dir.path("out/doc"), environment: env).stdout, "")
        XCTAssertEqual(try git(["ls-files"], in: dir.path("out/doc"), environment: env).stdout.split(separator: "\n").count, 301)
        XCTAssertEqual(try git(["fsck", "--strict"], in: dir.path("out/doc"), environment: env).status, 0)
        XCTAssertEqual(try leftovers(), ["doc"])
    }
}
