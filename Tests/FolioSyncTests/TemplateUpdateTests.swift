import Foundation
import FolioCore
import FolioGit
import FolioSync
import FolioTestSupport
import XCTest

final class TemplateUpdateTests: TemplateRepoTestCase {
    private func put(_ path: String, _ text: String) throws { try ws.dir.write("tpl/note/" + path, text) }
    private func putData(_ path: String, _ data: Data) throws {
        let url = template.appendingPathComponent("note/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
    private func remove(_ path: String) throws { try FileManager.default.removeItem(at: template.appendingPathComponent("note/" + path)) }
    private func release(_ tag: String) throws {
        try tplGit(["add", "-A"])
        try tplGit(["commit", "-q", "-m", tag])
        try tplGit(["tag", "-a", tag, "-m", tag])
    }

    private func lines(_ changes: [Int: String] = [:]) -> String {
        (1...10).map { changes[$0] ?? "line \($0)" }.joined(separator: "\n") + "\n"
    }
    private let long = (1...20).map { "paragraph \($0) of a long file" }.joined(separator: "\n") + "\n"

    /// v1.0.0 of a small template, and a document made from it with `folio new`.
    private func makeV1AndDocument() throws -> Document {
        try put("template.json", """
        {"id": "note", "name": "Note", "version": "1.0.0", "contentType": "public.plain-text", "primaryFile": "notes.md",
         "variables": [{"name": "who", "type": "string", "default": "world"}]}
        """)
        try put("files/notes.md", "# Notes for {{who}}\n" + lines())
        try put("files/keep.txt", "keep v1\n")
        try put("files/old.txt", "old\n")
        try put("files/deleted-by-user.txt", "x\n")
        try put("files/deleted-changed.txt", "y\n")
        try put("files/rename-me.txt", long)
        try putData("files/logo.bin", Data([0, 1, 2, 3, 0, 9]))
        try release("v1.0.0")
        ws.folio(["new", "Doc", "--template", "note", "--source", template.path, "--set", "who=Ada", "--defaults"])
        return try ws.store.open(at: ws.dir.path("Doc"))
    }

    /// v2.0.0: a changed file, a new file with a new question, a removed file, a rename, a changed binary.
    private func makeV2() throws {
        try put("template.json", """
        {"id": "note", "name": "Note", "version": "2.0.0", "contentType": "public.plain-text", "primaryFile": "notes.md",
         "variables": [{"name": "who", "type": "string", "default": "world"},
                       {"name": "audience", "type": "string", "default": "everyone"}]}
        """)
        try put("files/notes.md", "# Notes for {{who}}\n" + lines([5: "line 5 (template v2)", 9: "line 9 from the template"]))
        try put("files/keep.txt", "keep v2\n")
        try remove("files/old.txt")
        try put("files/deleted-changed.txt", "y changed\n")
        try remove("files/rename-me.txt")
        try put("files/renamed.txt", long)
        try put("files/new.txt", "Hello {{audience}}\n")
        try putData("files/logo.bin", Data([0, 1, 2, 3, 0, 42]))
        try release("v2.0.0")
    }

    /// The user's edits: two lines of the primary file (one overlapping the template's), two deletions, an edit
    /// to the file the template renames, and a changed binary.
    private func userEdits(_ doc: Document) throws {
        try doc.write(Data(("# Notes for Ada\n" + lines([2: "line 2 (user)", 9: "line 9 from the user"])).utf8), to: "notes.md", message: "My notes")
        try doc.apply([.delete(path: "deleted-by-user.txt"), .delete(path: "deleted-changed.txt")], message: "Tidy")
        try doc.write(Data(long.replacingOccurrences(of: "paragraph 20", with: "PARAGRAPH TWENTY").utf8), to: "rename-me.txt", message: "Edit")
        try doc.write(Data([0, 7, 7, 7]), to: "logo.bin", message: "My logo")
    }

    func testUpdateKeepsUserEditsBringsTemplateChangesAndReportsConflicts() throws {
        // Given a document made from v1 that the user edited, and a v2 of the template
        let doc = try makeV1AndDocument()
        XCTAssertEqual(doc.metadata.origin.template?.version, "1.0.0")
        try userEdits(doc)
        try makeV2()
        // When --check runs, it says a newer version exists (exit 1)
        let check = ws.folio(["update", "--check", "Doc", "--json"], expect: 1)
        XCTAssertTrue(check.stdout.contains("\"outdated\" : true"), check.stdout)
        // When the document is updated with an answer to the new question
        let result = ws.folio(["update", "Doc", "--set", "audience=friends"])
        // Then it is one commit with the expected message, and the conflicts are listed
        let reopened = try ws.store.open(at: doc.url)
        let head = try reopened.head()
        XCTAssertEqual(head.summary, "Update from note 1.0.0 → 2.0.0")
        XCTAssertEqual(head.parents.count, 1)
        XCTAssertTrue(result.stdout.contains("conflict: notes.md"), result.stdout)
        XCTAssertTrue(result.stdout.contains("conflict: deleted-changed.txt"), result.stdout)
        XCTAssertTrue(result.stdout.contains("conflict: logo.bin"), result.stdout)
        // And the user's edits are kept, the template's changes are in, with standard markers where they overlap
        let notes = try XCTUnwrap(ws.text(reopened, "notes.md"))
        XCTAssertTrue(notes.contains("line 2 (user)"), notes)
        XCTAssertTrue(notes.contains("line 5 (template v2)"), notes)
        XCTAssertTrue(notes.contains("<<<<<<< document\nline 9 from the user\n=======\nline 9 from the template\n>>>>>>> template 2.0.0\n"), notes)
        XCTAssertEqual(ws.text(reopened, "keep.txt"), "keep v2\n")
        XCTAssertEqual(ws.text(reopened, "new.txt"), "Hello friends\n")
        XCTAssertNil(ws.text(reopened, "old.txt"))
        // And a deleted file stays deleted unless the template changed it (then it is back, as a conflict)
        XCTAssertNil(ws.text(reopened, "deleted-by-user.txt"))
        XCTAssertEqual(ws.text(reopened, "deleted-changed.txt"), "y changed\n")
        // And the renamed file follows the rename with the user's edit; binaries are never merged as text
        XCTAssertNil(ws.text(reopened, "rename-me.txt"))
        XCTAssertTrue(ws.text(reopened, "renamed.txt")?.contains("PARAGRAPH TWENTY") == true)
        XCTAssertEqual(FileManager.default.contents(atPath: reopened.url.appendingPathComponent("logo.bin").path), Data([0, 7, 7, 7]))
        // And no stray files: only the template's and the user's files
        XCTAssertEqual(Set(try reopened.files().map(\.path)),
                       ["notes.md", "keep.txt", "new.txt", "deleted-changed.txt", "renamed.txt", "logo.bin"])
        // And the origin records the new version, its commit and the new answer
        let origin = try XCTUnwrap(reopened.metadata.origin.template)
        XCTAssertEqual(origin.version, "2.0.0")
        XCTAssertEqual(origin.answers["audience"], .string("friends"))
        XCTAssertEqual(origin.answers["who"], .string("Ada"))
        let v2 = try git(["rev-parse", "v2.0.0^{commit}"], in: template, environment: ws.env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(origin.commit, v2)
        try ws.assertClean(reopened.url)
        try ws.assertFsck(reopened.url)
        // And --check is now satisfied
        ws.folio(["update", "--check", "Doc"], expect: 0)
        XCTAssertTrue(ws.folio(["update", "Doc"]).stdout.contains("Already up to date"))
    }

    func testConflictAbortChangesNothing() throws {
        // Given overlapping edits
        let doc = try makeV1AndDocument()
        try userEdits(doc)
        try makeV2()
        let before = try doc.head().id
        // When updating with --conflict=abort
        let result = ws.folio(["update", "Doc", "--conflict=abort"], expect: 1)
        // Then it fails in one line naming the conflicts, and nothing changed
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("notes.md"), result.stderr)
        let reopened = try ws.store.open(at: doc.url)
        XCTAssertEqual(try reopened.head().id, before)
        XCTAssertEqual(reopened.metadata.origin.template?.version, "1.0.0")
        try ws.assertClean(doc.url)
    }

    func testNonOverlappingUpdateMergesCleanlyWithDefaultsForNewQuestions() throws {
        // Given a user edit that does not overlap v2's changes
        let doc = try makeV1AndDocument()
        try doc.write(Data(("# Notes for Ada\n" + lines([2: "line 2 (user)"])).utf8), to: "notes.md", message: "Mine")
        try makeV2()
        // When updating without answering the new question (not a terminal: its default is used)
        let result = ws.folio(["update", "Doc", "--conflict=abort"])
        // Then there are no conflicts, both changes are in, and the new question took its default
        XCTAssertFalse(result.stdout.contains("conflict"), result.stdout)
        let reopened = try ws.store.open(at: doc.url)
        XCTAssertEqual(ws.text(reopened, "notes.md"), "# Notes for Ada\n" + lines([2: "line 2 (user)", 5: "line 5 (template v2)", 9: "line 9 from the template"]))
        XCTAssertEqual(ws.text(reopened, "new.txt"), "Hello everyone\n")
        XCTAssertEqual(ws.text(reopened, "deleted-changed.txt"), "y changed\n")
        try ws.assertClean(doc.url)
    }

    func testUpdateToAnExplicitRefAndCheckOnAnUpToDateDocument() throws {
        let doc = try makeV1AndDocument()
        try makeV2()
        // When updating --to v1.0.0 (the recorded version), nothing happens
        XCTAssertTrue(ws.folio(["update", "Doc", "--to", "v1.0.0"]).stdout.contains("Already up to date"))
        // And a document not made from a template is refused in one line
        ws.folio(["new", "Blank"])
        let refused = ws.folio(["update", "Blank"], expect: 1)
        XCTAssertTrue(refused.stderr.contains("not made from a template"), refused.stderr)
        _ = doc
    }

    func testGivenEditsAndV2WhenDryRunThenEveryPathIsClassifiedAndNothingChanges() throws {
        // Given user edits and a v2 that changes, adds, removes, renames and changes a binary
        let doc = try makeV1AndDocument()
        try userEdits(doc)
        try makeV2()
        let head = try doc.head().id
        let index = FileManager.default.contents(atPath: doc.url.appendingPathComponent(".git/index").path)
        let objects = try git(["count-objects", "-v"], in: doc.url, environment: ws.env).stdout
        let files = try FileManager.default.subpathsOfDirectory(atPath: doc.url.path).sorted()
        // When the update runs with --dry-run --json
        let result = ws.folio(["update", "Doc", "--dry-run", "--json"])
        // Then every path is classified as the update would treat it
        struct Plan: Decodable { struct File: Decodable { let path: String; let change: String; let from: String? }; let files: [File]; let from: String; let to: String }
        let plan = try JSONDecoder().decode(Plan.self, from: Data(result.stdout.utf8))
        XCTAssertEqual([plan.from, plan.to], ["1.0.0", "2.0.0"])
        let changes = Dictionary(uniqueKeysWithValues: plan.files.map { ($0.path, $0.change) })
        XCTAssertEqual(changes, ["notes.md": "conflict", "keep.txt": "template", "new.txt": "added", "old.txt": "deleted",
                                 "deleted-by-user.txt": "yours", "deleted-changed.txt": "conflict", "renamed.txt": "renamed",
                                 "logo.bin": "binary"])
        XCTAssertEqual(plan.files.first { $0.path == "renamed.txt" }?.from, "rename-me.txt")
        // And the document's HEAD, index, objects and files are unchanged
        XCTAssertEqual(try ws.store.open(at: doc.url).head().id, head)
        XCTAssertEqual(FileManager.default.contents(atPath: doc.url.appendingPathComponent(".git/index").path), index)
        XCTAssertEqual(try git(["count-objects", "-v"], in: doc.url, environment: ws.env).stdout, objects)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: doc.url.path).sorted(), files)
        try ws.assertClean(doc.url)
        // And the text form says the same, one path a line, and that nothing was changed
        let text = ws.folio(["update", "Doc", "--dry-run"]).stdout
        XCTAssertTrue(text.contains("renamed   rename-me.txt → renamed.txt"), text)
        XCTAssertTrue(text.contains("Nothing was changed"), text)
    }

    func testGivenNonOverlappingEditWhenDryRunThenBothChangedTextIsAMergeAndUntouchedIsUnchanged() throws {
        let doc = try makeV1AndDocument()
        try doc.write(Data(("# Notes for Ada\n" + lines([2: "line 2 (user)"])).utf8), to: "notes.md", message: "Mine")
        try makeV2()
        let result = ws.folio(["update", "Doc", "--dry-run", "--json"])
        XCTAssertTrue(result.stdout.contains(#""path" : "notes.md""#), result.stdout)
        struct Plan: Decodable { struct File: Decodable { let path: String; let change: String }; let files: [File] }
        let plan = try JSONDecoder().decode(Plan.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(plan.files.first { $0.path == "notes.md" }?.change, "merge")
        XCTAssertEqual(plan.files.first { $0.path == "deleted-by-user.txt" }?.change, "unchanged")
    }
}
