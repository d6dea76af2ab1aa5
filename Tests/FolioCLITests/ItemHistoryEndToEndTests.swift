import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The history of one item in the real `folio` program, in tmux: H on an item lists the versions that changed it,
/// and i brings it back as it was in the selected one.
final class ItemHistoryEndToEndTests: XCTestCase {
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
        socket = "folio-items-\(getpid())-\(UUID().uuidString.prefix(8))"
        dir = TemporaryDirectory("folio-items-e2e")
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

    func testGivenAChecklistItemCheckedThenRenamedWhenHIsPressedOnItThenItsVersionsAreListedAndIBringsItBackFromOne() throws {
        // Given a grocery list whose second item (Eggs) was checked, then renamed, and another item checked after
        let created = runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("list")
        for arguments in [["toggle", "2"], ["rename", "2", "Free-range eggs"], ["toggle", "5"]] {
            let edited = runFolio(["edit", document.path] + arguments, environment: env, cwd: docs)
            XCTAssertEqual(edited.status, 0, edited.stderr)
        }
        let quoted = ([folioExecutable.path, "open", document.path, "--scene", "items-e2e"]).map { "'" + $0 + "'" }.joined(separator: " ")
        let flags = env.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        let started = try tmux(["new-session", "-d", "-s", "h", "-x", "160", "-y", "45", "-c", docs.path] + flags + [quoted + "; echo FOLIO-EXIT=$?; sleep 30"])
        XCTAssertEqual(started.status, 0, started.stderr)
        waitFor("the editor") { $0.contains("Free-range eggs") }
        // When the cursor is on item 2 and H is pressed
        try tmux(["send-keys", "-t", "h:0", "Down"])
        try tmux(["send-keys", "-t", "h:0", "H"])
        // Then the browser lists the rename, the check and the creation, and not the other item's check
        let listed = waitFor("the item's history") { $0.contains("History of item 2") && $0.contains("Create from checklist/groceries") }
        XCTAssertTrue(listed.contains("[x] Eggs → [x] Free-range eggs"), "the selected version's header says what changed:\n\(listed)")
        XCTAssertTrue(listed.contains("[ ] Eggs → [x] Eggs"), listed)
        XCTAssertFalse(listed.contains("Cheese"), "the other item's version is not listed:\n\(listed)")
        // When the check's version is selected and i pressed, the item is back as it was then, one new version
        try tmux(["send-keys", "-t", "h:0", "Down"])
        try tmux(["send-keys", "-t", "h:0", "i"])
        waitFor("the editor with the item back") { $0.contains("Brought back item 2") && $0.contains("[x] Eggs") }
        let shown = runFolio(["show", document.path], environment: env, cwd: docs).stdout
        XCTAssertTrue(shown.contains(#"{"title": "Eggs", "checked": true}"#), shown)
        XCTAssertTrue(shown.contains(#"{"title": "Cheese", "checked": true}"#), "the later change to another item is kept:\n\(shown)")
        let log = runFolio(["log", document.path, "--limit", "1"], environment: env, cwd: docs).stdout
        XCTAssertTrue(log.contains("Restore item 2 from "), log)
    }
}
