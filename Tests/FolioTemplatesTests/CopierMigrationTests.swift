import FolioCLITestSupport
import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// `folio update` of a project copier made runs the template's `_migrations` as `copier update` runs them: the
/// ones whose version the update crosses, before the merge and after, with copier's variables; its `_tasks` on both
/// renderings it compares; all confined, and only when trusted. The reference is what copier 9.19.1 left
/// (`Fixtures/copier/migrations`, made by its `make.sh`).
final class CopierMigrationTests: XCTestCase {
    private var temp: TemporaryDirectory!
    private var env: [String: String] = [:]
    private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/copier/migrations")

    override func setUp() {
        temp = TemporaryDirectory()
        env = temp.environment()
    }
    override func tearDown() { temp = nil }

    private func git(_ arguments: [String], in folder: URL) throws {
        let result = try FolioTestSupport.git(arguments, in: folder, environment: env)
        XCTAssertEqual(result.status, 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    private func copy(_ fixture: String, into folder: URL) throws {
        for (path, (data, executable)) in try fileTree(fixtures.appendingPathComponent(fixture)) {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
            if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        }
    }

    /// The template's git repository, v1.0.0 then v2.0.0 (with its migrations); the project copier made from v1.0.0
    /// with the user's edit, committed; its answers file naming the template's path.
    private func given() throws -> (template: URL, project: URL) {
        let template = temp.path("tpl"), project = temp.path("proj")
        try FileManager.default.createDirectory(at: template, withIntermediateDirectories: true)
        try copy("template-v1", into: template)
        try git(["init", "-q", "-b", "main"], in: template)
        try git(["add", "-A"], in: template)
        try git(["commit", "-q", "-m", "v1"], in: template)
        try git(["tag", "v1.0.0"], in: template)
        try copy("template-v2", into: template)
        try git(["add", "-A"], in: template)
        try git(["commit", "-q", "-m", "v2"], in: template)
        try git(["tag", "v2.0.0"], in: template)
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try copy("made", into: project)
        let answers = project.appendingPathComponent(".copier-answers.yml")
        let text = try String(contentsOf: answers, encoding: .utf8)
        try text.replacingOccurrences(of: #"_src_path: [^\n]*"#, with: "_src_path: \(template.path)", options: .regularExpression)
            .write(to: answers, atomically: true, encoding: .utf8)
        try git(["init", "-q", "-b", "main"], in: project)
        try git(["add", "-A"], in: project)
        try git(["commit", "-q", "-m", "made by copier, then edited"], in: project)
        return (template, project)
    }

    private func tree(_ folder: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for (path, (data, _)) in try fileTree(folder) where !path.hasPrefix(".git/") && !path.hasPrefix(".folio/") {
            out[path] = String(decoding: data, as: UTF8.self)
        }
        return out
    }

    func testGivenACopierProjectAndANewVersionWithMigrationsWhenUpdatedTrustedThenTheProjectIsWhatCopierUpdateLeft() throws {
        let (template, project) = try given()
        // When the project is updated with the template's programs trusted
        let updated = runFolio(["update", project.path, "--source", template.path, "--trust"], environment: env, cwd: temp.url)
        XCTAssertEqual(updated.status, 0, updated.stdout + updated.stderr)
        // Then every file is what copier update left: the migrations crossed ran before and after, the tasks'
        // effect was merged (tasks.log unchanged), the user's edit kept
        var expected = try tree(fixtures.appendingPathComponent("updated"))
        expected[".copier-answers.yml"] = expected[".copier-answers.yml"]?.replacingOccurrences(of: #"_src_path: [^\n]*"#, with: "_src_path: \(template.path)",
                                                                                                  options: .regularExpression)
        let got = try tree(project)
        XCTAssertEqual(Set(got.keys), Set(expected.keys))
        for (path, text) in expected.sorted(by: { $0.key < $1.key }) { XCTAssertEqual(got[path], text, path) }
        // And history shows what the migrations did, each stage its own commit around the update
        let log = try FolioTestSupport.git(["log", "--format=%s"], in: project, environment: env).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(log.count, 5, "\(log)")
        XCTAssertEqual(log[0], "Run the template's migrations after updating to v2.0.0: migration 3, migration 4, migration 5, migration 6.1")
        XCTAssertTrue(log[1].hasPrefix("Update from "), log[1])
        XCTAssertEqual(log[2], "Run the template's migrations before updating to v2.0.0: migration 2, migration 6.1")
        XCTAssertEqual(try FolioTestSupport.git(["fsck", "--strict"], in: project, environment: env).status, 0)
    }

    func testGivenACopierProjectAndANewVersionWithMigrationsWhenUpdatedWithoutTrustThenNoneRunsAndTheNoteNamesThem() throws {
        let (template, project) = try given()
        let updated = runFolio(["update", project.path, "--source", template.path], environment: env, cwd: temp.url)
        XCTAssertEqual(updated.status, 0, updated.stdout + updated.stderr)
        XCTAssertTrue(updated.stderr.contains("migrations and tasks were not run"), updated.stderr)
        XCTAssertTrue(updated.stderr.contains("sed -i"), updated.stderr)
        let got = try tree(project)
        XCTAssertEqual(got["settings.cfg"], "old_key = 1\n")
        XCTAssertNil(got["migrations.log"])
        XCTAssertEqual(got["README.md"], "# tool v2\n\nline one\nmine\n")
    }

    func testGivenAMigrationThatFailsWhenUpdatedTrustedThenTheUpdateStopsWithItsLastLineAndNothingChanges() throws {
        let (template, project) = try given()
        let config = template.appendingPathComponent("copier.yml")
        try (String(contentsOf: config, encoding: .utf8) + "  - version: v2.0.1\n    command: \"echo cannot migrate >&2; exit 3\"\n    when: \"{{ _stage == 'before' }}\"\n")
            .write(to: config, atomically: true, encoding: .utf8)
        try git(["commit", "-q", "-am", "v2.0.1"], in: template)
        try git(["tag", "v2.0.1"], in: template)
        let head = try FolioTestSupport.git(["rev-parse", "HEAD"], in: project, environment: env).stdout
        let updated = runFolio(["update", project.path, "--source", template.path, "--trust"], environment: env, cwd: temp.url)
        XCTAssertEqual(updated.status, 1, updated.stdout + updated.stderr)
        XCTAssertTrue(updated.stderr.contains("cannot migrate"), updated.stderr)
        XCTAssertEqual(try tree(project)["settings.cfg"], "old_key = 1\n")
        // Only the adoption commit was added (the project is Folio's now); no migration or update commit
        let log = try FolioTestSupport.git(["log", "--format=%s", "\(head.trimmingCharacters(in: .whitespacesAndNewlines))..HEAD"], in: project, environment: env).stdout
        XCTAssertFalse(log.contains("migrations") || log.contains("Update from"), log)
    }

    func testGivenATemplateCommitPastItsLastTagWhenAProjectIsMadeThenCommitIsWhatGitDescribeSaysAsCopierRecordsIt() throws {
        // Given the template at v1.0.0 and one commit after it (no tag)
        let (template, _) = try given()
        try "more\n".write(to: template.appendingPathComponent("MORE.md"), atomically: true, encoding: .utf8)
        try git(["add", "-A"], in: template)
        try git(["commit", "-q", "-m", "after v2"], in: template)
        let described = try FolioTestSupport.git(["describe", "--tags", "--always"], in: template, environment: env).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(described.hasPrefix("v2.0.0-1-g"), described)
        // When a project is made from the branch's newest commit (copier copy --vcs-ref main)
        let made = runFolio(["new", temp.path("made").path, "--template", template.path, "--ref", "main", "--defaults"], environment: env, cwd: temp.url)
        XCTAssertEqual(made.status, 0, made.stdout + made.stderr)
        // Then its answers file records the commit as copier does: `git describe --tags --always`
        let answers = try String(contentsOf: temp.path("made/.copier-answers.yml"), encoding: .utf8)
        XCTAssertTrue(answers.contains("_commit: \(described)\n"), answers)
    }
}
