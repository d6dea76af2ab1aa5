import FolioCLITestSupport
import FolioCore
import Foundation
import XCTest

/// `folio update` on a project copier or cruft made: the project becomes a Folio document made from the template
/// at the revision its file records, then the newer template is merged in three ways — the user's edits kept, no
/// `.rej` files — as for any document.
final class ForeignProjectUpdateTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]

    override func setUp() {
        temp = TemporaryDirectory()
        env = temp.environment()
    }
    override func tearDown() { temp = nil }

    private func git(_ arguments: [String], in folder: URL) throws {
        let result = try FolioTestSupport.git(arguments, in: folder, environment: env)
        XCTAssertEqual(result.status, 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    private func write(_ files: [String: String], in folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    private func read(_ path: String) throws -> String { try String(contentsOf: temp.path(path), encoding: .utf8) }

    /// A git repository at `name` with `files` committed and tagged `tag`.
    private func repository(_ name: String, _ files: [String: String], tag: String) throws -> URL {
        let folder = temp.path(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: folder)
        try write(files, in: folder)
        try git(["add", "-A"], in: folder)
        try git(["commit", "-q", "-m", "template \(tag)"], in: folder)
        try git(["tag", tag], in: folder)
        return folder
    }

    private func release(_ template: URL, _ files: [String: String], tag: String) throws {
        try write(files, in: template)
        try git(["add", "-A"], in: template)
        try git(["commit", "-q", "-m", "template \(tag)"], in: template)
        try git(["tag", tag], in: template)
    }

    /// `files` as the project's first commit, then `edit` as the user's own commit.
    private func project(_ files: [String: String], edit: [String: String]) throws -> URL {
        let folder = temp.path("project")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: folder)
        try write(files, in: folder)
        try git(["add", "-A"], in: folder)
        try git(["commit", "-q", "-m", "made by the tool"], in: folder)
        try write(edit, in: folder)
        try git(["commit", "-q", "-am", "my edit"], in: folder)
        return folder
    }

    func testGivenAProjectCopierMadeWithALocalEditWhenFolioUpdatesItToANewTemplateVersionThenBothChangesAreKept() throws {
        // Given a copier template at v1.0.0, and the project copier made from it (the files as copier 9 writes them)
        let template = try repository("template", [
            "copier.yml": "name:\n  type: str\n  default: demo\n",
            "{{_copier_conf.answers_file}}.jinja": "# Changes here will be overwritten by Copier\n{{ _copier_answers|to_nice_yaml -}}\n",
            "README.md.jinja": "# {{ name }}\n\nline one\nline two\nline three\n",
        ], tag: "v1.0.0")
        let project = try project([
            ".copier-answers.yml": "# Changes here will be overwritten by Copier\n_commit: v1.0.0\n_src_path: \(template.path)\nname: tool\n",
            "README.md": "# tool\n\nline one\nline two\nline three\n",
        ], edit: ["README.md": "# tool\n\nline one\nline two\nline three\nmy own notes\n"])
        // And the template's next version changes the first line and adds a file
        try release(template, ["README.md.jinja": "# {{ name }}, the project\n\nline one\nline two\nline three\n",
                               "CHANGES.md.jinja": "{{ name }} changes\n"], tag: "v1.1.0")
        // When folio updates the project, naming its source
        let updated = runFolio(["update", project.path, "--source", template.path], environment: env, cwd: temp.url)
        XCTAssertEqual(updated.status, 0, updated.stdout + updated.stderr)
        // Then the template's change and the user's edit are both there, no .rej file, the answers file moved on
        XCTAssertEqual(try read("project/README.md"), "# tool, the project\n\nline one\nline two\nline three\nmy own notes\n")
        XCTAssertEqual(try read("project/CHANGES.md"), "tool changes\n")
        XCTAssertEqual(try read("project/.copier-answers.yml"),
                       "# Changes here will be overwritten by Copier\n_commit: v1.1.0\n_src_path: \(template.path)\nname: tool\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: project.path)
        XCTAssertFalse(files.contains { $0.hasSuffix(".rej") || $0.hasSuffix(".orig") }, "\(files)")
        // And the project's history keeps the user's commits, then Folio's adoption and the update, which git reads
        let log = try FolioTestSupport.git(["log", "--format=%s"], in: project, environment: env).stdout
        let subjects = log.split(separator: "\n").map(String.init)
        XCTAssertEqual(subjects.count, 4, log)
        XCTAssertTrue(subjects[0].hasPrefix("Update from template v1.0.0 → v1.1.0"), log)
        XCTAssertTrue(subjects[1].hasPrefix("Keep this copier project with Folio"), log)
        XCTAssertEqual(Array(subjects[2...]), ["my edit", "made by the tool"])
        XCTAssertEqual(try FolioTestSupport.git(["fsck", "--strict"], in: project, environment: env).status, 0)
        // And a second update finds nothing newer
        let again = runFolio(["update", project.path], environment: env, cwd: temp.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("Already up to date"), again.stdout)
    }

    func testGivenAProjectCruftMadeWhenFolioUpdatesItThenTheNewTemplateIsMergedWithTheLocalEdit() throws {
        let template = try repository("cookie", [
            "cookiecutter.json": #"{"project_name": "demo"}"#,
            "{{cookiecutter.project_name}}/app.txt": "app {{ cookiecutter.project_name }}\nsetting = 1\n",
        ], tag: "1.0.0")
        let commit = try FolioTestSupport.git(["rev-parse", "HEAD"], in: template, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let cruft = """
            {"template": "\(template.path)", "commit": "\(commit)", "checkout": null,
             "context": {"cookiecutter": {"project_name": "tool", "_template": "\(template.path)"}}, "directory": null}
            """
        let project = try project([".cruft.json": cruft, "app.txt": "app tool\nsetting = 1\n"],
                                  edit: ["app.txt": "app tool\nsetting = 1\nlocal = yes\n"])
        try release(template, ["{{cookiecutter.project_name}}/app.txt": "app {{ cookiecutter.project_name }} v2\nsetting = 1\n"], tag: "2.0.0")
        let updated = runFolio(["update", project.path, "--source", template.path], environment: env, cwd: temp.url)
        XCTAssertEqual(updated.status, 0, updated.stdout + updated.stderr)
        XCTAssertEqual(try read("project/app.txt"), "app tool v2\nsetting = 1\nlocal = yes\n")
        XCTAssertTrue(updated.stderr.contains("was made by cruft"), updated.stderr)
        // And .cruft.json names the new commit (so cruft check agrees), the rest of it as cruft wrote it
        let newCommit = try FolioTestSupport.git(["rev-parse", "HEAD"], in: template, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try read("project/.cruft.json"), cruft.replacingOccurrences(of: commit, with: newCommit))
        XCTAssertEqual(try FolioTestSupport.git(["status", "--porcelain"], in: project, environment: env).stdout, "", "recorded in the update commit")
    }

    func testGivenACopierProjectNamingASourceNobodyTrustedWhenUpdatedWithoutATerminalThenNothingIsReadOrChanged() throws {
        let elsewhere = temp.path("somewhere-else")
        let project = try project([".copier-answers.yml": "_commit: v1\n_src_path: \(elsewhere.path)\nname: x\n", "a.txt": "a\n"], edit: ["a.txt": "b\n"])
        let refused = runFolio(["update", project.path], environment: env, cwd: temp.url)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("is not trusted here"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.appendingPathComponent(".folio").path))
        XCTAssertEqual(try FolioTestSupport.git(["rev-list", "--count", "HEAD"], in: project, environment: env).stdout, "2\n")
    }

    func testGivenUncommittedChangesInACopierProjectWhenUpdatedThenItIsRefusedAndNothingChanges() throws {
        let template = try repository("template", ["copier.yml": "name: demo\n", "a.txt.jinja": "{{ name }}\n"], tag: "v1.0.0")
        let project = try project([".copier-answers.yml": "_commit: v1.0.0\n_src_path: \(template.path)\nname: x\n", "a.txt": "x\n"],
                                  edit: ["a.txt": "x!\n"])
        try "unsaved\n".write(to: project.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        let refused = runFolio(["update", project.path, "--source", template.path], environment: env, cwd: temp.url)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("a.txt"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.appendingPathComponent(".folio").path))
        XCTAssertEqual(try read("project/a.txt"), "unsaved\n")
    }
}
