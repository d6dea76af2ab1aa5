import Foundation
import XCTest
import FolioCore
import FolioTemplates
import FolioCLITestSupport

final class TemplateCLITests: XCTestCase {
    func testEveryBundledTemplateInstantiatesWithDefaultsIntoAValidDocument() throws {
        // Given the bundled templates and no setup
        let temp = TemporaryDirectory()
        let env = bundledEnvironment(temp)
        let list = runFolio(["templates", "list", "--json"], environment: env, cwd: temp.url)
        XCTAssertEqual(list.status, 0, list.stderr)
        struct Listing: Decodable { struct T: Decodable { let id: String; let contentType: String?; let version: String? }; let templates: [T] }
        let listing = try JSONDecoder().decode(Listing.self, from: Data(list.stdout.utf8))
        XCTAssertEqual(listing.templates.map(\.id), ["story/three-act", "checklist/groceries", "shapes/blank", "swift/package", "plugin/swift", "plugin/c"])
        for (index, template) in listing.templates.enumerated() {
            // When each is instantiated with defaults
            let result = runFolio(["new", "doc\(index)", "--template", template.id, "--defaults"], environment: env, cwd: temp.url)
            XCTAssertEqual(result.status, 0, result.stderr)
            // Then the document opens, records its origin, has one commit named after the template, and passes git fsck --strict
            let document = try DocumentStore(environment: env).open(at: temp.path("doc\(index)"))
            XCTAssertEqual(document.metadata.contentType.identifier, template.contentType)
            XCTAssertEqual(document.metadata.origin.template?.id, template.id)
            XCTAssertEqual(document.metadata.origin.template?.source, TemplateSource.bundledLocation)
            let log = try document.log()
            XCTAssertEqual(log.count, 1)
            XCTAssertTrue(log[0].summary.hasPrefix("Create from \(template.id) \(template.version ?? "") ("), log[0].summary)
            XCTAssertNoThrow(try document.read(path: document.metadata.primaryFile))
            XCTAssertEqual(try git(["fsck", "--strict"], in: document.url, environment: env).status, 0)
            if template.contentType?.hasSuffix("checklist") == true || template.contentType?.hasSuffix("shapes") == true {
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: document.read(path: document.metadata.primaryFile)))
            }
        }
        let storyDocument = try DocumentStore(environment: env).open(at: temp.path("doc0"))
        let story = String(decoding: try storyDocument.read(path: storyDocument.metadata.primaryFile), as: UTF8.self)
        XCTAssertTrue(story.hasPrefix("# \(storyDocument.metadata.title)\n") && story.contains("## Act I: Setup") && story.contains("### The inciting incident"), story)
        let package = temp.path("doc3")
        XCTAssertTrue(FileManager.default.fileExists(atPath: package.appendingPathComponent(".github/workflows/ci.yml").path))
        XCTAssertTrue(try String(contentsOf: package.appendingPathComponent("LICENSE"), encoding: .utf8).hasPrefix("MIT License"))
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: package.appendingPathComponent("scripts/check.sh").path))
    }

    func testTheSwiftPackageTemplateHonoursLicenseAndConditionalFolders() throws {
        let temp = TemporaryDirectory()
        let env = bundledEnvironment(temp)
        let result = runFolio(["new", "Pkg", "--template", "swift/package", "--set", "license=Apache-2.0", "--set", "ci=no", "--set", "docs=false",
                               "--set", "executable=no", "--set", "name=Widget"], environment: env, cwd: temp.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let root = temp.path("Pkg")
        XCTAssertTrue(try String(contentsOf: root.appendingPathComponent("LICENSE"), encoding: .utf8).contains("Apache License"))
        for absent in [".github", "docs", "Sources/WidgetTool", "Sources/Widget/Widget.docc"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(absent).path), absent)
        }
        let none = runFolio(["new", "Pkg2", "--template", "swift/package", "--set", "license=none", "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("Pkg2/LICENSE").path))
    }

    func testAMissingAnswerOnAPipeFailsClearlyAndWritesNothing() throws {
        // Given a template with a required variable without default
        let temp = TemporaryDirectory()
        let repo = TemplateRepoBuilder(root: temp.path("src"), environment: temp.environment())
        try repo.write("t/template.json", #"{"id": "x/req", "name": "R", "variables": [{"name": "code", "type": "string", "pattern": "[A-Z]{3}"}]}"#)
        try repo.write("t/files/code.txt", "{{code}}")
        // When instantiated on a pipe without it
        let missing = runFolio(["new", "out", "--template", "x/req", "--source", repo.root.path], environment: temp.environment(), cwd: temp.url)
        // Then it fails with one line and nothing is written
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no answer for 'code'"), missing.stderr)
        // And the command line adds how to give it
        XCTAssertTrue(missing.stderr.contains("give --set code=VALUE"), missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("out").path))
        // And an answer failing its pattern is refused too
        let bad = runFolio(["new", "out", "--template", "x/req", "--source", repo.root.path, "--set", "code=abc"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("does not match the pattern"), bad.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.url.path).sorted(), ["home", "src"])
    }

    func testPromptsOnATerminalShowDefaultsAndReAskOnInvalidInput() throws {
        let temp = TemporaryDirectory()
        let repo = TemplateRepoBuilder(root: temp.path("src"), environment: temp.environment())
        try repo.write("t/template.json", """
        {"id": "x/ask", "name": "A", "variables": [
          {"name": "count", "type": "int", "prompt": "How many", "default": 3, "min": 1, "max": 9},
          {"name": "color", "type": "choice", "choices": ["red", "blue"], "default": "red"},
          {"name": "token", "type": "string", "secret": true, "default": "s3cret"},
          {"name": "more", "type": "bool", "default": false},
          {"name": "detail", "type": "string", "when": "more", "default": "d"}]}
        """)
        try repo.write("t/files/out.txt", "{{count}} {{color}} {{token}} {{detail}}")
        // When answering 42 (invalid), then 7, then green (invalid), blue, and defaults for the rest
        let result = runFolio(["new", "doc", "--template", "x/ask", "--source", repo.root.path], environment: temp.environment(), cwd: temp.url,
                              stdin: Data("42\n7\ngreen\nblue\n\n\n".utf8), interactive: true)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("How many [3]: "), result.stdout)
        XCTAssertTrue(result.stdout.contains("42 is more than 9"), result.stdout)
        XCTAssertTrue(result.stdout.contains("'green' is not one of red, blue"), result.stdout)
        let document = try DocumentStore(environment: temp.environment()).open(at: temp.path("doc"))
        XCTAssertEqual(String(decoding: try document.read(path: "out.txt"), as: UTF8.self), "7 blue s3cret ")
        // Then the secret is not recorded and the skipped variable is absent
        let answers = document.metadata.origin.template?.answers ?? [:]
        XCTAssertNil(answers["token"])
        XCTAssertNil(answers["detail"])
        XCTAssertEqual(answers["count"], .number(7))
    }

    func testReplayMakesTheSameDocumentFromTheRecordedCommitAndAnswers() throws {
        // Given a document made from a git source at v1, and the source later changed
        let temp = TemporaryDirectory()
        let env = temp.environment()
        let repo = TemplateRepoBuilder(root: temp.path("src"), environment: env)
        try FileManager.default.createDirectory(at: repo.root, withIntermediateDirectories: true)
        try repo.initRepository()
        try repo.template("t", id: "r/t", body: "v1 {{who}}\n")
        try repo.commitAll("one", tag: "v1.0.0")
        XCTAssertEqual(runFolio(["templates", "add", "mine", repo.root.path], environment: env, cwd: temp.url).status, 0)
        let made = runFolio(["new", "a", "--template", "r/t", "--set", "who=Ada", "--json"], environment: env, cwd: temp.url)
        XCTAssertEqual(made.status, 0, made.stderr)
        try repo.template("t", id: "r/t", version: "1.1.0", body: "v2 {{who}}\n")
        try repo.commitAll("two", tag: "v1.1.0")
        // When replayed
        let replay = runFolio(["new", "b", "--replay", "a"], environment: env, cwd: temp.url)
        XCTAssertEqual(replay.status, 0, replay.stderr)
        // Then the new document has the same content and origin
        let store = try DocumentStore(environment: env)
        let a = try store.open(at: temp.path("a")), b = try store.open(at: temp.path("b"))
        XCTAssertEqual(try b.read(path: "hello.txt"), Data("v1 Ada\n".utf8))
        XCTAssertEqual(a.metadata.origin, b.metadata.origin)
        XCTAssertEqual(try a.head().summary, try b.head().summary)
        // And templates remove forgets the source
        XCTAssertEqual(runFolio(["templates", "remove", "mine"], environment: env, cwd: temp.url).status, 0)
        XCTAssertEqual(try Settings.load(environment: env).templateSources, [])
    }

    func testShowListsVariablesAndFilesAndErrorsAreOneLine() throws {
        let temp = TemporaryDirectory()
        let env = bundledEnvironment(temp)
        let shown = runFolio(["templates", "show", "swift/package", "--json"], environment: env, cwd: temp.url)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("\"license\"") && shown.stdout.contains("Package.swift"), shown.stdout)
        let unknown = runFolio(["templates", "show", "no/such"], environment: env, cwd: temp.url)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no/such: no such template"), unknown.stderr)
        let badSource = runFolio(["new", "x", "--template", "a/b", "--source", temp.path("nowhere").path], environment: env, cwd: temp.url)
        XCTAssertEqual(badSource.status, 1)
        XCTAssertTrue(badSource.stderr.contains("no such folder"), badSource.stderr)
    }

    func testATemplateNeedingANewerFolioIsRefusedAndAMalformedManifestNamesLineAndColumn() throws {
        let temp = TemporaryDirectory()
        let repo = TemplateRepoBuilder(root: temp.path("src"), environment: temp.environment())
        try repo.template("new", id: "x/new", extra: #", "minFolioVersion": "99.0.0""#)
        try repo.write("bad/template.json", "{\"id\": \"x/bad\", \"name\": \"B\",\n  \"variables\": [{\"name\": \"a\", \"type\": \"string\", \"colour\": 1}]}")
        let tooNew = runFolio(["new", "d", "--template", "x/new", "--source", repo.root.path, "--defaults"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(tooNew.status, 1)
        XCTAssertTrue(tooNew.stderr.contains("needs Folio 99.0.0 or newer"), tooNew.stderr)
        let bad = runFolio(["new", "d", "--template", "x/bad", "--source", repo.root.path], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("bad/template.json: line 2, column 49: unknown key 'colour'"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("d").path))
    }

    func testRenderPrintsOneFileExactly() throws {
        let temp = TemporaryDirectory()
        try temp.write("t.mustache", "Hi {{name}}{{>p}}")
        try temp.write("d.json", #"{"name": "Ada"}"#)
        try temp.write("parts/p.mustache", "!")
        let result = runFolio(["render", "t.mustache", "--data", "d.json", "--partials", "parts"], environment: temp.environment(), cwd: temp.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "Hi Ada!")
    }

    func testListingTheBundledTemplatesWarmIsFast() throws {
        let temp = TemporaryDirectory()
        let env = bundledEnvironment(temp)
        _ = runFolio(["templates", "list"], environment: env, cwd: temp.url)
        let start = Date()
        let warm = runFolio(["templates", "list"], environment: env, cwd: temp.url)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(warm.status, 0)
        print("warm listing of the bundled templates: \(Int(elapsed * 1000)) ms (debug build)")
        XCTAssertLessThan(elapsed, 0.5)
    }
}
