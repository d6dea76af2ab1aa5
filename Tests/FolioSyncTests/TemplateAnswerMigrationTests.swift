import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTemplates
import FolioCLITestSupport
import Synchronization
import XCTest

/// Answer migrations on update: v1 asks `project`; v2 renames it `name` (`renamedFrom`) and adds `license`.
final class TemplateAnswerMigrationTests: TemplateRepoTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try put("template.json", """
        {"id": "pkg", "name": "Package", "version": "1.0.0", "contentType": "public.plain-text", "primaryFile": "README.md",
         "variables": [{"name": "project", "type": "string", "default": "demo"},
                       {"name": "flavour", "type": "string", "default": "plain"}]}
        """)
        try put("files/README.md", "# {{project}}\n\nline 2\nline 3\n")
        try release("v1.0.0")
        ws.folio(["new", "Doc", "--template", "pkg", "--source", template.path, "--set", "project=Ada", "--defaults"])
    }

    private func put(_ path: String, _ text: String) throws { try ws.dir.write("tpl/pkg/" + path, text) }
    private func release(_ tag: String) throws {
        try tplGit(["add", "-A"])
        try tplGit(["commit", "-q", "-m", tag])
        try tplGit(["tag", "-a", tag, "-m", tag])
    }

    /// v2.0.0: `project` is now `name`, `flavour` is gone, `license` is new.
    private func makeV2() throws {
        try put("template.json", """
        {"id": "pkg", "name": "Package", "version": "2.0.0", "contentType": "public.plain-text", "primaryFile": "README.md",
         "variables": [{"name": "name", "type": "string", "renamedFrom": ["project"], "default": "demo"},
                       {"name": "license", "type": "choice", "choices": ["MIT", "Apache-2.0"], "default": "MIT"}]}
        """)
        try put("files/README.md", "# {{name}}\n\nline 2\nline 3\n")
        try put("files/LICENSE", "{{license}}\n")
        try release("v2.0.0")
    }

    private func doc() throws -> Document { try ws.store.open(at: ws.dir.path("Doc")) }

    func testGivenV2RenamingProjectWhenPlanAnswersAreCollectedThenTheAnswerFollowsAndOnlyLicenseIsNew() throws {
        try makeV2()
        let document = try doc()
        let origin = try document.templateOrigin()
        let env = ws.env, trusted = TrustedTemplateSource(location: origin.source)
        let plan = try awaitResult { try await TemplateUpdatePlan.load(origin, to: nil, trusted: trusted, environment: env) }
        // When the answers are collected, asking through a closure that records what it was asked
        let asked = AskedNames()
        let collected = try plan.answers(recorded: origin.answers, given: [:], mode: .ask { variable, _, _ in asked.add(variable.name); return "Apache-2.0" })
        // Then only license was asked; project's answer is name's; flavour is gone; the base keeps v1's answers
        XCTAssertEqual(asked.names, ["license"])
        XCTAssertEqual(collected.answers, ["name": .string("Ada"), "license": .string("Apache-2.0")])
        XCTAssertEqual(collected.migration.renamed, ["project": "name"])
        XCTAssertEqual(collected.migration.removed, ["flavour"])
        XCTAssertEqual(collected.fresh, ["license"])
        XCTAssertEqual(collected.baseAnswers, ["project": .string("Ada"), "flavour": .string("plain")])
        // And the update renders with them and records exactly the new version's answers
        let result = try document.updateFromTemplate(plan, baseAnswers: collected.baseAnswers, answers: collected.answers, conflictMode: .abort)
        XCTAssertFalse(result.aborted)
        let reopened = try doc()
        XCTAssertEqual(ws.text(reopened, "README.md"), "# Ada\n\nline 2\nline 3\n")
        XCTAssertEqual(ws.text(reopened, "LICENSE"), "Apache-2.0\n")
        XCTAssertEqual(reopened.metadata.origin.template?.answers, ["name": .string("Ada"), "license": .string("Apache-2.0")])
    }

    func testGivenV2WhenUpdatedWithDefaultsThenRenameAndDefaultAreSaidOneLineEach() throws {
        // Given a user edit and v2
        try doc().write(Data("# Ada\n\nline 2 (mine)\nline 3\n".utf8), to: "README.md", message: "Mine")
        try makeV2()
        // When updating with --defaults
        let result = ws.folio(["update", "Doc", "--defaults"])
        // Then it says the rename, the dropped answer and the default taken, one line each
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("answer 'project' is now 'name'"), result.stdout)
        XCTAssertTrue(lines.contains("answer 'flavour' dropped: the template no longer asks it"), result.stdout)
        XCTAssertTrue(lines.contains("new question 'license': took the default 'MIT'"), result.stdout)
        // And the document has the renamed answer rendered, the user's edit, and the new file
        let reopened = try doc()
        XCTAssertEqual(ws.text(reopened, "README.md"), "# Ada\n\nline 2 (mine)\nline 3\n")
        XCTAssertEqual(ws.text(reopened, "LICENSE"), "MIT\n")
        XCTAssertEqual(reopened.metadata.origin.template?.answers, ["name": .string("Ada"), "license": .string("MIT")])
        try ws.assertClean(reopened.url)
    }

    func testGivenTerminalWhenUpdatedThenOnlyTheNewQuestionIsAsked() throws {
        try makeV2()
        let result = runFolio(["update", "Doc"], environment: ws.env, cwd: ws.dir.url, stdin: Data("Apache-2.0\n".utf8), interactive: true)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("license (MIT / Apache-2.0) [MIT]: "), result.stdout)
        XCTAssertFalse(result.stdout.contains("name ["), result.stdout)
        XCTAssertFalse(result.stdout.contains("took the default"), result.stdout)
        XCTAssertEqual(ws.text(try doc(), "LICENSE"), "Apache-2.0\n")
    }

    func testGivenUpToDateDocumentWhenSetChangesAnAnswerThenItIsMergedAsOneCommitKeepingEdits() throws {
        // Given an up-to-date document (v2) with a user edit
        try makeV2()
        ws.folio(["update", "Doc", "--defaults"])
        try doc().write(Data("# Ada\n\nline 2 (mine)\nline 3\n".utf8), to: "README.md", message: "Mine")
        let before = try doc().head().id
        // When an answer is changed with --set (under its old name too)
        let result = ws.folio(["update", "Doc", "--set", "project=Grace"])
        // Then one commit names the changed answer, the file is re-rendered and the edit kept
        let reopened = try doc()
        let head = try reopened.head()
        XCTAssertEqual(head.parents, [before])
        XCTAssertEqual(head.summary, "Change answers of pkg 2.0.0: name")
        XCTAssertTrue(result.stdout.contains(head.summary), result.stdout)
        XCTAssertEqual(ws.text(reopened, "README.md"), "# Grace\n\nline 2 (mine)\nline 3\n")
        XCTAssertEqual(reopened.metadata.origin.template?.answers["name"], .string("Grace"))
        try ws.assertClean(reopened.url)
        try ws.assertFsck(reopened.url)
        // And the same answer again changes nothing
        XCTAssertTrue(ws.folio(["update", "Doc", "--set", "name=Grace"]).stdout.contains("Already up to date"))
        XCTAssertEqual(try doc().head().id, head.id)
    }

    func testGivenBadSetValueOrUnknownNameWhenUpdatingThenOneLineNamesTheVariableAndNothingIsWritten() throws {
        try makeV2()
        let before = try doc().head().id
        let bad = ws.folio(["update", "Doc", "--set", "license=GPL"], expect: 1)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("variable 'license'") && bad.stderr.contains("'GPL' is not one of MIT, Apache-2.0"), bad.stderr)
        let unknown = ws.folio(["update", "Doc", "--set", "colour=red"], expect: 1)
        XCTAssertEqual(unknown.stderr.split(separator: "\n").count, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("unknown variable 'colour'"), unknown.stderr)
        let reopened = try doc()
        XCTAssertEqual(try reopened.head().id, before)
        XCTAssertEqual(reopened.metadata.origin.template?.version, "1.0.0")
        XCTAssertNil(ws.text(reopened, "LICENSE"))
        try ws.assertClean(reopened.url)
    }
}

/// Names a prompt closure was asked, in order (the closure runs on the calling thread; the Mutex makes it Sendable).
final class AskedNames: Sendable {
    private let storage = Mutex<[String]>([])
    func add(_ name: String) { storage.withLock { $0.append(name) } }
    var names: [String] { storage.withLock { $0 } }
}

/// Waits for async work in a test.
func awaitResult<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        box.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try XCTUnwrap(box.withLock { $0 }).get()
}
