import Foundation
import XCTest
import FolioCore
import FolioTemplates
import FolioCLITestSupport

/// `folio new … --dry-run`: the plan of every file, and nothing on disk.
final class TemplatePlanTests: XCTestCase {
    private func folderListing(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func testGivenTemplateWhenPlannedThenEveryFileIsListedWithSizeModeAndSourceAndNothingIsWritten() throws {
        // Given a template with a rendered path, an executable, a link and a copied file
        let template = try memoryTemplate(files: [
            file("{{name}}.md", "# {{name}}\n"),
            file("bin/run", "#!/bin/sh\n", mode: 0o100755),
            file("latest", "demo.md", mode: 0o120000),
            file("raw.txt", "{{kept}}"),
        ], manifestJSON: #"{"id": "t", "name": "T", "version": "1.0.0", "copyOnly": ["raw.txt"], "variables": [{"name": "name", "type": "string", "default": "demo"}]}"#)
        let temp = TemporaryDirectory()
        let store = try DocumentStore(environment: temp.environment())
        let before = try folderListing(temp.url)
        // When planned
        let plan = try template.plan(at: temp.path("Doc"), answers: ["name": .string("demo")], store: store)
        // Then each file is there with its size, mode and template file, and Folio's metadata too
        XCTAssertEqual(plan.files.map(\.path), [".folio/document.json", "bin/run", "demo.md", "latest", "raw.txt"])
        let byPath = Dictionary(uniqueKeysWithValues: plan.files.map { ($0.path, $0) })
        XCTAssertEqual(byPath["demo.md"], PlannedFile(path: "demo.md", size: 7, mode: "100644", source: "files/{{name}}.md"))
        XCTAssertEqual(byPath["bin/run"]?.mode, "100755")
        XCTAssertEqual(byPath["latest"], PlannedFile(path: "latest", size: 7, mode: "120000", source: "files/latest"))
        XCTAssertEqual(byPath["raw.txt"]?.size, 8)
        XCTAssertNil(byPath[".folio/document.json"]?.source)
        XCTAssertEqual(plan.message, "Create from t 1.0.0 (aaaaaaa)")
        // And nothing appeared on disk, not even a temporary folder
        XCTAssertEqual(try folderListing(temp.url), before)
    }

    func testGivenFilesClashingOrAnExistingDestinationWhenPlannedThenRefusedLikeInstantiation() throws {
        let temp = TemporaryDirectory()
        let store = try DocumentStore(environment: temp.environment())
        let clash = try memoryTemplate(files: [file("{{name}}.txt", "a"), file("demo.txt", "b")])
        XCTAssertThrowsError(try clash.plan(at: temp.path("Doc"), answers: ["name": .string("demo")], store: store))
        try FileManager.default.createDirectory(at: temp.path("Taken"), withIntermediateDirectories: true)
        let fine = try memoryTemplate(files: [file("a.txt", "a")])
        assertThrows(try fine.plan(at: temp.path("Taken"), answers: ["name": .string("demo")], store: store), containing: ["Taken"])
        XCTAssertEqual(try folderListing(temp.url), ["Taken", "home"])
    }

    func testGivenSourceWhenNewDryRunThenThePlanIsPrintedAndNoFolderAppears() throws {
        // Given a template repository
        let temp = TemporaryDirectory()
        let env = temp.environment()
        let repo = TemplateRepoBuilder(root: temp.path("src"), environment: env)
        try FileManager.default.createDirectory(at: repo.root, withIntermediateDirectories: true)
        try repo.initRepository()
        try repo.template("t", id: "t")
        try repo.commitAll("one", tag: "v1.0.0")
        let before = try folderListing(temp.url)
        // When `folio new --dry-run` runs (text, then JSON)
        let text = runFolio(["new", "Doc", "--template", "t", "--source", repo.root.path, "--set", "who=Ada", "--dry-run"], environment: env, cwd: temp.url)
        let json = runFolio(["new", "Doc", "--template", "t", "--source", repo.root.path, "--dry-run", "--json"], environment: env, cwd: temp.url)
        // Then it lists the files with size, mode and source, and says nothing was written
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("Would create \(temp.path("Doc").path) from t 1.0.0 (2 files):"), text.stdout)
        XCTAssertTrue(text.stdout.contains("100644  10  hello.txt  ← files/hello.txt"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Nothing was written"), text.stdout)
        XCTAssertEqual(json.status, 0, json.stderr)
        let plan = try JSONDecoder().decode(Plan.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(plan.files.map(\.path), [".folio/document.json", "hello.txt"])
        // And no document, temporary folder or recent-documents entry appeared
        XCTAssertEqual(try folderListing(temp.url), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("home/.local/state/folio/recent.json").path))
        // And a blank `new --dry-run` is refused rather than creating anything
        let blank = runFolio(["new", "Blank", "--dry-run"], environment: env, cwd: temp.url)
        XCTAssertEqual(blank.status, 2, blank.stderr)
        XCTAssertEqual(try folderListing(temp.url), before)
    }

    private struct Plan: Decodable { struct File: Decodable { let path: String }; let files: [File] }
}
