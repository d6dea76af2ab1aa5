import FolioCLITestSupport
import FolioCore
import Foundation
import XCTest

/// `folio` commands against a server that accepts the connection and never answers: each gives up after `--timeout`
/// (or the `networkTimeout` setting) with one line naming the remote and what it waited for, exit 1, nothing changed.
final class SilentRemoteCommandTests: XCTestCase {
    var ws: SyncWorkspace!
    var server: SilentServer!

    override func setUpWithError() throws {
        ws = try SyncWorkspace()
        server = try SilentServer()
    }
    override func tearDown() { ws = nil; server = nil }

    /// Runs `folio` expecting failure; checks it took under 5 s and printed one line; returns that line.
    func failsQuickly(_ args: [String], file: StaticString = #filePath, line: UInt = #line) -> String {
        let start = Date()
        let workspace = ws!
        guard case let .success(result)? = runBounded(seconds: 10, { workspace.folio(args, expect: 1, file: file, line: line) }) else {
            XCTFail("folio \(args.joined(separator: " ")) still waits after 10 s", file: file, line: line)
            return ""
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "folio \(args.joined(separator: " ")) waited", file: file, line: line)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr, file: file, line: line)
        return lines.first.map(String.init) ?? ""
    }

    func testPullFromASilentGitServerGivesUpAfterTheTimeoutOption() throws {
        // Given a document whose remote is a git:// server that never answers
        ws.folio(["new", "A"])
        let url = "git://\(server.address)/doc.git"
        ws.folio(["remote", "A", "add", "origin", url])
        let head = ws.folio(["log", "A"]).stdout
        // When it pulls with --timeout 1
        let message = failsQuickly(["pull", "A", "--timeout", "1"])
        // Then one line names the remote and what it waited for, and the document is as it was
        XCTAssertEqual(message, "folio pull: \(url): no answer from the server for 1 s while waiting for its reply; gave up")
        XCTAssertEqual(ws.folio(["log", "A"]).stdout, head)
    }

    func testPushToASilentHTTPServerGivesUpAfterTheSettingsTimeout() throws {
        // Given networkTimeout 1 in the settings and a document whose remote is an http:// server that never answers
        try Settings(author: nil).withNetworkTimeout(1).save(environment: ws.env)
        ws.folio(["new", "A"])
        let url = "http://\(server.address)/doc.git"
        ws.folio(["remote", "A", "add", "origin", url])
        // When it pushes (no option)
        let message = failsQuickly(["push", "A"])
        // Then it gives up after the setting's second
        XCTAssertEqual(message, "folio push: \(url): no answer from the server for 1 s while waiting for its reply; gave up")
    }

    func testSyncAndCloneFromASilentServerGiveUpAndCloneLeavesNothing() throws {
        // Given a git:// server that never answers
        let url = "git://\(server.address)/doc.git"
        ws.folio(["new", "A"])
        ws.folio(["remote", "A", "add", "origin", url])
        // When a document syncs with it, and another is cloned from it, with --timeout 1.5
        XCTAssertEqual(failsQuickly(["sync", "A", "--timeout", "1.5"]),
                       "folio sync: \(url): no answer from the server for 1.5 s while waiting for its reply; gave up")
        XCTAssertTrue(failsQuickly(["clone", url, "B", "--timeout", "1"])
            .hasSuffix("\(url): no answer from the server for 1 s while waiting for its reply; gave up"))
        // Then the clone left no folder behind
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.dir.path("B").path))
    }

    func testTemplatesUpdateFromASilentSourceGivesUpNamingIt() throws {
        // Given a template source at a git:// server that never answers
        let url = "git://\(server.address)/templates.git"
        ws.folio(["templates", "add", "team", url])
        // When the sources are updated with --timeout 1
        let start = Date()
        let workspace = ws!
        guard case let .success(result)? = runBounded(seconds: 10, { workspace.folio(["templates", "update", "--source", "team", "--timeout", "1"], expect: 1) }) else {
            return XCTFail("folio templates update still waits after 10 s")
        }
        // Then it fails within seconds, naming the source and the URL
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertTrue(result.stderr.contains("team: \(url): no answer from the server for 1 s while waiting for its reply; gave up"), result.stderr)
    }

    func testNewFromATemplateOfASilentSourceGivesUp() throws {
        // Given a template source at an ssh:// server that never answers (the handshake never completes)
        let url = "ssh://git@\(server.address)/templates.git"
        ws.folio(["templates", "add", "team", url])
        // When a document is made from one of its templates with --timeout 1
        let message = failsQuickly(["new", "Doc", "--template", "notes", "--source", "team", "--timeout", "1"])
        // Then it gives up in the ssh handshake, and no document was made
        XCTAssertTrue(message.contains("\(url): no answer from the server for 1 s during the ssh handshake; gave up"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws.dir.path("Doc").path))
    }

    func testABadTimeoutIsAUsageErrorAndABadSettingNamesTheFile() throws {
        // Given a document with a remote
        ws.folio(["new", "A"])
        ws.folio(["remote", "A", "add", "origin", "git://\(server.address)/doc.git"])
        // When --timeout is not a number of seconds in range
        for bad in ["abc", "0", "nan", "99999"] {
            let result = ws.folio(["pull", "A", "--timeout", bad], expect: 2)
            // Then it is a usage error naming the option
            XCTAssertTrue(result.stderr.hasPrefix("folio pull: --timeout takes seconds from 0.1 to 3600, got '\(bad)'"), result.stderr)
        }
        // When the setting is out of range
        let settings = Settings.fileURL(environment: ws.env)
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"networkTimeout": 0}"#.utf8).write(to: settings)
        let result = ws.folio(["pull", "A"], expect: 1)
        // Then the settings file is named with the problem
        XCTAssertTrue(result.stderr.contains(settings.path) && result.stderr.contains("networkTimeout"), result.stderr)
    }
}

private extension Settings {
    func withNetworkTimeout(_ seconds: Double) -> Settings {
        var settings = self
        settings.networkTimeout = seconds
        return settings
    }
}
