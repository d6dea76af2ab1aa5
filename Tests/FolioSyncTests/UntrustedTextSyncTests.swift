import Foundation
import FolioCLITestSupport
import XCTest

/// What a collaborator pushes is shown as text: commit messages and file names from a remote reach `folio clone`,
/// `log`, `pull`, `conflicts`, `status`, `show` and `diff` with their control characters (an OSC 52 clipboard write,
/// CSI, BEL, CR, C1, bidi overrides) as visible escapes; `--json` keeps the exact text.
final class UntrustedTextSyncTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    /// A subject that writes the clipboard (OSC 52), clears the screen with an 8-bit CSI, reverses the line (RLO),
    /// colours it, returns the cursor and holds a C1 NEL and a tab; then a body with its own escape.
    static let subject = "Fix\u{1B}]52;c;cHduZWQ=\u{07} typo\u{9B}2J\u{202E}gpj.exe\u{1B}[31m\r\u{85}\tend"
    static let message = subject + "\n\nBody\u{1B}[2J"
    /// How the subject's dangerous part reads on the terminal.
    static let shownSubject = "Fix\\e]52;c;cHduZWQ=\\x07 typo\\u{9B}2J\\u{202E}gpj.exe\\e[31m\\r\\u{85}"
    /// Content with an escape sequence of its own.
    static let content = "from A \u{1B}]52;c;cHduZWQ=\u{07}\n"

    /// A pushes a commit with the hostile message to a bare remote; returns the remote's path.
    private func pushHostileCommit() throws -> String {
        let remote = try ws.bareRepository("doc.git").path
        ws.folio(["new", "A"])
        ws.folio(["remote", "A", "add", "origin", remote])
        ws.folio(["push", "A"])
        let written = runFolio(["write", "A", "document.txt", "-m", Self.message], environment: ws.env, cwd: ws.dir.url, stdin: Data(Self.content.utf8))
        XCTAssertEqual(written.status, 0, written.stderr)
        ws.folio(["push", "A"])
        return remote
    }

    func testGivenARemoteCommitWithEscapesInItsMessageWhenClonedAndLoggedThenTheEscapesAreShownAndJSONKeepsTheExactText() throws {
        // Given a remote whose newest commit's message holds terminal escapes
        let remote = try pushHostileCommit()
        // When it is cloned
        let cloned = ws.folio(["clone", remote, "C"])
        // Then the clone's line shows the subject as text
        assertShownAsText(cloned.stdout, [Self.shownSubject], "clone")
        // When its log is listed
        let log = ws.folio(["log", "C"])
        // Then each version is one line, the subject's escapes visible, nothing sent to the terminal
        assertShownAsText(log.stdout, [Self.shownSubject], "log")
        XCTAssertEqual(log.stdout.split(separator: "\n").count, 2, log.stdout)
        // And --json keeps the exact message, JSON-escaped (no raw control character in the JSON text either)
        let json = ws.folio(["log", "C", "--json"]).stdout
        assertShownAsText(json, [], "log --json")
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.first?["message"] as? String, Self.message)
    }

    func testGivenAConflictWithAHostileRemoteCommitWhenPulledAndListedThenItsSubjectIsShownAsText() throws {
        // Given B cloned before A pushed the hostile commit, and B's own change to the same file
        let remote = try ws.bareRepository("doc.git").path
        ws.folio(["new", "A"])
        ws.folio(["remote", "A", "add", "origin", remote])
        ws.folio(["push", "A"])
        ws.folio(["clone", remote, "B"])
        let written = runFolio(["write", "A", "document.txt", "-m", Self.message], environment: ws.env, cwd: ws.dir.url, stdin: Data(Self.content.utf8))
        XCTAssertEqual(written.status, 0, written.stderr)
        ws.folio(["push", "A"])
        _ = runFolio(["write", "B", "document.txt", "-m", "B"], environment: ws.env, cwd: ws.dir.url, stdin: Data("from B\n".utf8))
        // When B pulls and the remote version is kept as a conflict
        let pulled = ws.folio(["pull", "B"], expect: 1)
        // Then the one-line advice shows no control character
        assertShownAsText(pulled.stderr, [], "pull")
        XCTAssertEqual(pulled.stderr.split(separator: "\n").count, 1, pulled.stderr)
        // When the kept conflicts are listed
        let listed = ws.folio(["conflicts", "B"])
        // Then the kept version's subject is shown as text on one line, followed by its conflicting file
        assertShownAsText(listed.stdout, [Self.shownSubject], "conflicts")
        XCTAssertEqual(listed.stdout.split(separator: "\n").count, 2, listed.stdout)
        XCTAssertEqual(listed.stdout.split(separator: "\n").last, "  document.txt  (whole file: mine or theirs)")
        // And --json keeps the exact summary
        let kept = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ws.folio(["conflicts", "B", "--json"]).stdout.utf8)) as? [[String: String]])
        XCTAssertEqual(kept.first?["summary"], Self.subject)
    }

    func testGivenAFileNameWithControlCharactersWhenStatusListsItThenItIsOneLineShownAsTextAndJSONKeepsTheName() throws {
        // Given a document with a new file whose name clears the screen, breaks the line and reverses it
        ws.folio(["new", "D"])
        let name = "evil\u{1B}[2J\n\u{202E}txt.exe\u{9B}"
        XCTAssertTrue(FileManager.default.createFile(atPath: ws.dir.path("D").appendingPathComponent(name).path, contents: Data("x".utf8)))
        // When status lists the unrecorded change
        let status = ws.folio(["status", "D"])
        // Then the name is shown with visible escapes, on the status line itself
        assertShownAsText(status.stdout, ["evil\\e[2J\\n\\u{202E}txt.exe\\u{9B}"], "status")
        XCTAssertEqual(status.stdout.split(separator: "\n").count, 1, status.stdout)
        // And --json keeps the exact name
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ws.folio(["status", "D", "--json"]).stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["unrecordedChanges"] as? [String], [name])
    }

    func testGivenContentWithEscapesWhenShownOrDiffedOnATerminalThenItIsShownAsTextAndToAPipeExactly() throws {
        // Given a clone of a remote whose content holds an OSC 52 sequence
        let remote = try pushHostileCommit()
        ws.folio(["clone", remote, "C"])
        // When the content and the last change's diff are printed on a terminal
        let shown = runFolio(["show", "C"], environment: ws.env, cwd: ws.dir.url, interactive: true)
        let diffed = runFolio(["diff", "C", "HEAD~1", "HEAD"], environment: ws.env, cwd: ws.dir.url, interactive: true)
        // Then the escapes are visible and lines are kept
        XCTAssertEqual(shown.status, 0, shown.stderr)
        assertShownAsText(shown.stdout, ["from A \\e]52;c;cHduZWQ=\\x07\n"], "show")
        assertShownAsText(diffed.stdout, ["+from A \\e]52;c;cHduZWQ=\\x07\n"], "diff")
        // And to a pipe the content is exactly what was committed
        XCTAssertEqual(ws.folio(["show", "C"]).stdout, Self.content)
    }
}
