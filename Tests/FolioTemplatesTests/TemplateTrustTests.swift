import Foundation
import XCTest
import FolioCore
import FolioTemplates
import FolioCLITestSupport

/// A document's `.folio/document.json` may come from anyone: the template source it names is read (fetched or
/// snapshotted) only when the user made the document here, configured the source, names it with `--source`, or
/// confirms it on a terminal; a confirmation is recorded in `.git/folio`, never in the document's history.
final class TemplateTrustTests: XCTestCase {
    private var temp: TemporaryDirectory!
    /// The author's environment, where the document is made.
    private var authorEnv: [String: String] = [:]
    /// Another user's environment, who clones the document.
    private var otherEnv: [String: String] = [:]
    private var source: URL!

    override func setUpWithError() throws {
        temp = TemporaryDirectory()
        authorEnv = temp.environment()
        otherEnv = temp.environment(["HOME": temp.path("other").path, "XDG_CONFIG_HOME": temp.path("other/.config").path,
                                     "XDG_CACHE_HOME": temp.path("other/.cache").path, "XDG_STATE_HOME": temp.path("other/.state").path,
                                     "XDG_DATA_HOME": temp.path("other/.data").path])
        try FileManager.default.createDirectory(at: temp.path("other"), withIntermediateDirectories: true)
        // A git repository (a plain folder's snapshot commit would differ between the two users' caches)
        source = temp.path("tpl")
        let builder = TemplateRepoBuilder(root: source, environment: authorEnv)
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try builder.initRepository()
        try builder.template("t", id: "t")
        try builder.commitAll("one", tag: "v1.0.0")
        let made = runFolio(["new", "doc", "--template", "t", "--source", source.path, "--defaults"], environment: authorEnv, cwd: temp.url)
        XCTAssertEqual(made.status, 0, made.stderr)
        let cloned = runFolio(["clone", temp.path("doc").path, "copy"], environment: otherEnv, cwd: temp.url)
        XCTAssertEqual(cloned.status, 0, cloned.stderr)
    }

    private var otherCache: URL { temp.path("other/.cache/folio/sources") }

    private func cachedRepositories() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: otherCache.path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    private func check(_ document: String, _ extra: [String] = [], env: [String: String]? = nil, stdin: String = "", interactive: Bool = false) -> RunResult {
        runFolio(["update", "--check", document] + extra, environment: env ?? otherEnv, cwd: temp.url, stdin: Data(stdin.utf8), interactive: interactive)
    }

    func testGivenDocumentMadeHereWhenCheckedThenItsSourceIsUsedWithoutAsking() {
        let result = check("doc", env: authorEnv)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("up to date"), result.stdout)
    }

    func testGivenClonedDocumentWhenCheckedWithoutTerminalThenRefusedAndNothingSnapshotted() {
        // When the other user checks the clone for updates, not on a terminal
        let result = check("copy")
        // Then it is refused in one line naming the document and the source, and the folder was not read into the cache
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains(temp.path("copy").path) && result.stderr.contains(source.path), result.stderr)
        XCTAssertTrue(result.stderr.contains("not trusted") && result.stderr.contains("--source"), result.stderr)
        // And so is replaying it into a new document
        let replay = runFolio(["new", "again", "--replay", "copy", "--defaults"], environment: otherEnv, cwd: temp.url)
        XCTAssertNotEqual(replay.status, 0)
        XCTAssertTrue(replay.stderr.contains("not trusted"), replay.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("again").path))
    }

    func testGivenClonedDocumentWhenSourceIsNamedExplicitlyThenUsedOnceWithoutRecording() {
        let result = check("copy", ["--source", source.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("up to date"), result.stdout)
        // Naming it is not remembered
        XCTAssertNotEqual(check("copy").status, 0)
        // And naming another source is a usage error
        let other = check("copy", ["--source", temp.path("elsewhere").path])
        XCTAssertNotEqual(other.status, 0)
        XCTAssertTrue(other.stderr.contains("is not the document's template source"), other.stderr)
    }

    func testGivenClonedDocumentWhenUserConfirmsOnTerminalThenTrustIsRecordedOutsideHistory() throws {
        // When the user answers yes on a terminal
        let confirmed = check("copy", stdin: "y\n", interactive: true)
        XCTAssertEqual(confirmed.status, 0, confirmed.stderr)
        XCTAssertTrue(confirmed.stdout.contains(source.path) && confirmed.stdout.contains("[y/N]"), confirmed.stdout)
        // Then later checks need no question
        let later = check("copy")
        XCTAssertEqual(later.status, 0, later.stderr)
        // And the record is in .git/folio, not in the document's files or history
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp.path("copy/.git/folio/trusted-template-sources.json").path))
        let status = try git(["status", "--porcelain"], in: temp.path("copy"), environment: otherEnv)
        XCTAssertEqual(status.stdout, "")
        let log = try git(["log", "--oneline"], in: temp.path("copy"), environment: otherEnv)
        XCTAssertEqual(log.stdout.split(separator: "\n").count, 1)
    }

    func testGivenClonedDocumentWhenUserDeclinesOnTerminalThenRefusedAndNotRecorded() {
        let declined = check("copy", stdin: "n\n", interactive: true)
        XCTAssertNotEqual(declined.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("copy/.git/folio/trusted-template-sources.json").path))
    }

    func testGivenSourceConfiguredInSettingsWhenClonedDocumentNamesItThenTrusted() {
        let added = runFolio(["templates", "add", "mine", source.path], environment: otherEnv, cwd: temp.url)
        XCTAssertEqual(added.status, 0, added.stderr)
        let result = check("copy")
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testGivenClonedDocumentNamingSystemFolderWhenCheckedThenNothingIsRead() throws {
        // Given a clone whose document.json was rewritten upstream to name /usr as its template source
        let doc = temp.path("doc")
        let metadataURL = doc.appendingPathComponent(".folio/document.json")
        let text = try String(contentsOf: metadataURL, encoding: .utf8).replacingOccurrences(of: source.path, with: "/usr")
        try Data(text.utf8).write(to: metadataURL)
        XCTAssertEqual(runFolio(["commit", doc.path], environment: authorEnv, cwd: temp.url).status, 0)
        let pulled = runFolio(["clone", doc.path, "evil"], environment: otherEnv, cwd: temp.url)
        XCTAssertEqual(pulled.status, 0, pulled.stderr)
        // When checked without a terminal, or declined on one, then nothing under /usr is read into the cache
        let result = check("evil")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("'/usr'"), result.stderr)
        XCTAssertNotEqual(check("evil", stdin: "no\n", interactive: true).status, 0)
        XCTAssertEqual(cachedRepositories(), [])
        // And even when the user trusts it, the snapshot stops at the folder limits instead of copying /usr
        try temp.write("other/.config/folio/settings.json", #"{"templateFolders": {"maxFiles": 50}}"#)
        let trusted = check("evil", ["--source", "/usr"])
        XCTAssertNotEqual(trusted.status, 0)
        XCTAssertTrue(trusted.stderr.contains("/usr holds more than 50 files"), trusted.stderr)
        XCTAssertEqual(cachedRepositories(), [])
    }
}

extension TemplateTrustTests {
    func testGivenSourceWithTerminalEscapesWhenRefusedThenTheyAreShownEscaped() throws {
        // Given a clone whose document.json names a source holding an escape sequence
        let doc = temp.path("doc")
        let metadataURL = doc.appendingPathComponent(".folio/document.json")
        let text = try String(contentsOf: metadataURL, encoding: .utf8).replacingOccurrences(of: source.path, with: "/tmp/x\\u001b[2Jy")
        try Data(text.utf8).write(to: metadataURL)
        XCTAssertEqual(runFolio(["commit", doc.path], environment: authorEnv, cwd: temp.url).status, 0)
        XCTAssertEqual(runFolio(["clone", doc.path, "escaped"], environment: otherEnv, cwd: temp.url).status, 0)
        // When refused, then the message carries no raw escape character
        let result = check("escaped")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stderr.contains("\u{1b}"), result.stderr)
        XCTAssertTrue(result.stderr.contains("/tmp/x\\e[2Jy"), result.stderr)
    }
}
