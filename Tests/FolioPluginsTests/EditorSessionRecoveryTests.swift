import FolioCore
@testable import FolioCLI
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// The editor host's document session over an isolated plugin: a crash costs one frame's error line, then the
/// editor is back (a fresh host, the document reopened) without the user doing anything.
final class EditorSessionRecoveryTests: XCTestCase {
    func testGivenAnOpenEditorWhenItsHostDiesThenOneFrameReportsItAndTheNextIsBack() throws {
        let temp = TemporaryDirectory("folio-session")
        let env = temp.environment(["FOLIO_PLUGIN_PATH": temp.path("plugins").path])
        try MisbehavingPlugin.build(in: temp.path("plugins"))
        XCTAssertEqual(runFolio(["new", "count", "--type", "org.test.tally"], environment: env, cwd: temp.url).status, 0)
        XCTAssertEqual(runFolio(["edit", "count", "inc"], environment: env, cwd: temp.url).status, 0)
        let session = try DocumentSessionAdapter(url: temp.path("count"), environment: env)
        XCTAssertEqual(session.render(RenderRequest(width: 40, height: 5, selection: .items(cursor: 0))).shown, ["tally \\e[31m1"])
        let pid = try XCTUnwrap(session.host.hostProcessIDs.first)
        kill(pid, SIGSEGV)
        XCTAssertEqual(session.render(RenderRequest(width: 40, height: 5, selection: .items(cursor: 1))).shown,
                       ["✗ editor 'tally' crashed (SIGSEGV) in 'render'; nothing was changed"])
        XCTAssertEqual(session.render(RenderRequest(width: 40, height: 5, selection: .items(cursor: 1))).shown, ["tally \\e[31m1"])
        XCTAssertNotEqual(session.host.hostProcessIDs.first, pid, "a fresh host")
    }

    func testGivenAnEditorCommandThatCrashesWhenRunInTheSessionThenItFailsInOneLineAndTheNextCommandCommits() async throws {
        let temp = TemporaryDirectory("folio-session")
        let env = temp.environment(["FOLIO_PLUGIN_PATH": temp.path("plugins").path])
        try MisbehavingPlugin.build(in: temp.path("plugins"))
        XCTAssertEqual(runFolio(["new", "count", "--type", "org.test.tally"], environment: env, cwd: temp.url).status, 0)
        let session = try DocumentSessionAdapter(url: temp.path("count"), environment: env)
        let before = session.latestCommit()
        do {
            try await session.perform(.runEditorCommand("crash", arguments: []))
            XCTFail("the crash should be reported")
        } catch {
            XCTAssertEqual("\(error)", "editor 'tally' crashed (SIGSEGV) in 'crash'; nothing was changed")
        }
        XCTAssertEqual(session.latestCommit().id, before.id)
        try await session.perform(.runEditorCommand("inc", arguments: []))
        XCTAssertEqual(session.latestCommit().message, "counted 1")
    }
}
