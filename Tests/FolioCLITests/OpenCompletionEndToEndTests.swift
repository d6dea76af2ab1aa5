import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The real `folio` in tmux (issue 23): the launcher's Open… completes paths with Tab and, given a folder of
/// documents, lists them to choose from. Every wait is bounded; the tmux server is killed in tearDown.
final class OpenCompletionEndToEndTests: XCTestCase {
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
        socket = "folio-open-\(getpid())-\(UUID().uuidString.prefix(8))"
        dir = TemporaryDirectory("folio-open")
        env = dir.environment(["TERM": "xterm-256color"])
        try FileManager.default.createDirectory(at: docs.appendingPathComponent("notes"), withIntermediateDirectories: true)
        for name in ["groceries", "garden"] {
            let created = runFolio(["new", "notes/\(name)", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
            XCTAssertEqual(created.status, 0, created.stderr)
        }
    }

    override func tearDown() {
        if !socket.isEmpty { _ = try? tmux(["kill-server"]) }
        super.tearDown()
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> TmuxResult {
        try runTmux(tmuxPath, socket: socket, environment: env, scratch: dir.url, arguments)
    }

    func startLauncher(width: Int = 100, height: Int = 30) throws {
        let command = "'\(folioExecutable.path)'; echo FOLIO-EXIT=$?; sleep 30"
        let flags = env.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        let result = try tmux(["new-session", "-d", "-s", "open", "-x", String(width), "-y", String(height), "-c", docs.path] + flags + [command])
        XCTAssertEqual(result.status, 0, result.stderr)
        waitFor(text: "Update Templates")
    }

    func capture() -> String { (try? tmux(["capture-pane", "-p", "-t", "open:0"]))?.stdout ?? "" }
    func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", "open:0"] + keys) }
    func type(_ text: String) throws { try tmux(["send-keys", "-t", "open:0", "-l", text]) }

    @discardableResult
    func waitFor(text: String, timeout: TimeInterval = 8, file: StaticString = #filePath, line: UInt = #line) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        repeat {
            screen = capture()
            if screen.contains(text) { return screen }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        XCTFail("timed out waiting for “\(text)”; the pane shows:\n\(screen)", file: file, line: line)
        return screen
    }

    func testTabCompletesThePathAndEnterOpensTheDocument() throws {
        // Given the launcher in a folder holding notes/groceries and notes/garden
        try startLauncher()
        // When Open… is chosen, "no" typed and Tab pressed, then "gr" and Tab
        try keys("o")
        waitFor(text: "Path")
        try type("no")
        try keys("Tab")
        waitFor(text: "notes/")
        try type("gr")
        try keys("Tab")
        // Then the path is completed to the document
        waitFor(text: "notes/groceries")
        // And ⏎ opens it in the editor
        try keys("Enter")
        waitFor(text: "(0/13 done)")
        try keys("C-q")
        waitFor(text: "FOLIO-EXIT=0")
    }

    func testEnterOnAFolderOfDocumentsListsThemToChooseFrom() throws {
        // Given the launcher
        try startLauncher()
        // When Open… is given the folder "notes" and ⏎
        try keys("o")
        waitFor(text: "Path")
        try type("notes")
        try keys("Enter")
        // Then its documents are listed, nothing refused
        let listed = waitFor(text: "Documents in notes/")
        XCTAssertTrue(listed.contains("garden") && listed.contains("groceries"), listed)
        XCTAssertFalse(listed.contains("✗"), listed)
        // And ↓ ⏎ opens the second one (names sorted: garden, groceries)
        try keys("Down")
        try keys("Enter")
        waitFor(text: "(0/13 done)")
        XCTAssertTrue(capture().contains("groceries"), capture())
        try keys("C-q")
        waitFor(text: "FOLIO-EXIT=0")
    }
}
