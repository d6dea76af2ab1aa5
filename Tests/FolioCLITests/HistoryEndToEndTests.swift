import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The history browser in the real `folio` program, in tmux: the diff pane follows the selected commit.
final class HistoryEndToEndTests: XCTestCase {
    var tmuxPath = ""
    var socket = ""
    var dir: TemporaryDirectory!
    var env: [String: String] = [:]
    var docs: URL { dir.path("docs") }

    override func setUpWithError() throws {
        guard let path = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("tmux is not installed (Debian package tmux)")
        }
        guard FileManager.default.isExecutableFile(atPath: folioExecutable.path) else { throw XCTSkip("folio is not built at \(folioExecutable.path)") }
        tmuxPath = path
        socket = "folio-history-\(getpid())-\(UUID().uuidString.prefix(8))"
        dir = TemporaryDirectory("folio-history-e2e")
        env = dir.environment(["TERM": "xterm-256color"])
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if !socket.isEmpty { _ = try? tmux(["kill-server"]) }
        super.tearDown()
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> TmuxResult {
        try runTmux(tmuxPath, socket: socket, environment: env, scratch: dir.url, arguments)
    }

    func capture() -> String { (try? tmux(["capture-pane", "-p", "-t", "h:0"]))?.stdout ?? "" }

    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line, _ predicate: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        repeat {
            screen = capture()
            if predicate(screen) { return screen }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        XCTFail("timed out waiting for \(what); the pane shows:\n\(screen)", file: file, line: line)
        return screen
    }

    /// The diff pane: what is right of the divider on each row (the list names every commit's message too).
    func diffPane(_ screen: String) -> String {
        screen.split(separator: "\n").compactMap { line in line.firstIndex(of: "│").map { String(line[line.index(after: $0)...]) } }.joined(separator: "\n")
    }

    func edit(_ document: URL, _ arguments: String...) {
        let result = runFolio(["edit", document.path] + arguments, environment: env, cwd: docs)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testGivenAChecklistWithThreeVersionsWhenTheHistorySelectionMovesThenTheDiffPaneShowsEachCommitsOwnSemanticDiff() throws {
        // Given a checklist with a toggle and an addition after its creation
        let created = runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("list")
        edit(document, "toggle", "1")
        edit(document, "add", "Saffron")
        let quoted = ([folioExecutable.path, "open", document.path, "--scene", "history-e2e"]).map { "'" + $0 + "'" }.joined(separator: " ")
        let flags = env.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        let started = try tmux(["new-session", "-d", "-s", "h", "-x", "160", "-y", "45", "-c", docs.path] + flags + [quoted + "; echo FOLIO-EXIT=$?; sleep 30"])
        XCTAssertEqual(started.status, 0, started.stderr)
        waitFor("the editor") { $0.contains("Saffron") }
        // When the history opens, the newest commit's semantic diff is shown
        try tmux(["send-keys", "-t", "h:0", "C-g"])
        waitFor("the newest commit's diff") { diffPane($0).contains("semantic diff") && diffPane($0).contains("added 'Saffron'") }
        // When the selection moves down, the pane follows: the toggle's diff, and never the addition under it
        try tmux(["send-keys", "-t", "h:0", "Down"])
        let second = diffPane(waitFor("the toggle's diff") { diffPane($0).contains("checked 'Milk'") })
        XCTAssertFalse(second.contains("added 'Saffron'"), "the previous commit's diff stayed under the new header:\n\(second)")
        // And back up: the addition again
        try tmux(["send-keys", "-t", "h:0", "Up"])
        let first = diffPane(waitFor("the addition's diff again") { diffPane($0).contains("added 'Saffron'") })
        XCTAssertFalse(first.contains("checked 'Milk'"), first)
        // And after keys in quick succession, the header and the diff both belong to the commit the selection ended on
        try tmux(["send-keys", "-t", "h:0", "Down", "Down", "Up"])
        let settled = waitFor("the toggle's diff after quick keys") { screen in
            let rows = diffPane(screen).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            return rows.first == "checked 'Milk'" && rows.dropFirst(3).contains("checked 'Milk'")
        }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(diffPane(capture()), diffPane(settled), "a late answer for another commit replaced the diff")
        try tmux(["send-keys", "-t", "h:0", "C-q"])
        waitFor("folio to exit") { $0.contains("FOLIO-EXIT=0") }
    }
}
