import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The one harness for driving the real `folio` program in tmux panes: keys in with `send-keys`, screens out with
/// `capture-pane`. Each test gets its own tmux server (a private socket), scratch folder and environment; the server
/// is killed in tearDown. A pane runs `folio …; echo FOLIO-EXIT=$?; stty -a; sleep 30`, so the exit status and the
/// terminal settings after folio has gone can be read from it. Every wait polls a condition and is bounded: no test
/// sleeps for a fixed time to let something happen.
class TmuxTestCase: XCTestCase {
    var tmuxPath = ""
    var socket = ""
    var dir: TemporaryDirectory!
    var env: [String: String] = [:]
    var docs: URL { dir.path("docs") }

    /// The tmux session the panes run in; `target` defaults to its window 0.
    var session: String { "e2e" }
    /// How long a wait may take before the test fails with the screen it saw.
    var defaultTimeout: TimeInterval { 8 }
    var target: String { session + ":0" }
    /// Whether a pane runs `stty -a` after folio exits (for `assertRestored`); off where a test reads the shell's
    /// screen after exit, which `stty`'s listing (`susp = ^Z`…) would fill.
    var paneShowsTerminalSettings: Bool { true }
    /// Whether `capture` joins wrapped lines (`capture-pane -J`), for a test that reads long lines whole.
    var capturesJoinedLines: Bool { false }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard let path = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("tmux is not installed (Debian package tmux)")
        }
        guard FileManager.default.isExecutableFile(atPath: folioExecutable.path) else { throw XCTSkip("folio is not built at \(folioExecutable.path)") }
        tmuxPath = path
        socket = "folio-\(session)-\(getpid())-\(UUID().uuidString.prefix(8))"
        dir = TemporaryDirectory("folio-\(session)-e2e")
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

    /// `arguments` quoted for the pane's shell.
    static func shellQuoted(_ arguments: [String]) -> String {
        arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    /// The shell command a pane runs: folio, then its exit status and the terminal settings.
    func paneCommand(_ folioArguments: [String]) -> String {
        Self.shellQuoted([folioExecutable.path] + folioArguments) + "; echo FOLIO-EXIT=$?; " + (paneShowsTerminalSettings ? "stty -a; " : "") + "sleep 30"
    }

    var environmentFlags: [String] {
        env.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
    }

    /// Starts `folio ARGUMENTS` in a new session (window 0) of `width`×`height` cells, in `cwd` (the docs folder).
    func start(_ folioArguments: [String], width: Int = 100, height: Int = 30, cwd: URL? = nil) throws {
        try startShell(paneCommand(folioArguments), width: width, height: height, cwd: cwd)
    }

    /// Starts a shell command of the test's own in a new session (window 0).
    func startShell(_ command: String, width: Int = 100, height: Int = 30, cwd: URL? = nil) throws {
        let result = try tmux(["new-session", "-d", "-s", session, "-x", String(width), "-y", String(height), "-c", (cwd ?? docs).path]
                              + environmentFlags + [command])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Starts folio in another window of the session; returns its target.
    func startWindow(_ folioArguments: [String]) throws -> String {
        let result = try tmux(["new-window", "-d", "-P", "-F", "#{window_index}", "-t", session, "-c", docs.path] + environmentFlags + [paneCommand(folioArguments)])
        XCTAssertEqual(result.status, 0, result.stderr)
        return session + ":" + result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func capture(_ target: String? = nil) -> String {
        (try? tmux(["capture-pane", "-p"] + (capturesJoinedLines ? ["-J"] : []) + ["-t", target ?? self.target]))?.stdout ?? ""
    }

    /// A pane's tmux format value (`#{alternate_on}`, `#{pane_tty}`…), trimmed.
    func display(_ format: String, target: String? = nil) -> String {
        ((try? tmux(["display-message", "-p", "-t", target ?? self.target, format]))?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func keys(_ keys: String..., target: String? = nil) throws {
        try tmux(["send-keys", "-t", target ?? self.target] + keys)
    }

    func type(_ text: String, target: String? = nil) throws {
        try tmux(["send-keys", "-t", target ?? self.target, "-l", text])
    }

    /// Types each of `values` as it is, each followed by `key` (by default Tab, on to the next field).
    func fill(_ values: String..., each key: String = "Tab", target: String? = nil) throws {
        for value in values {
            try type(value, target: target)
            try keys(key, target: target)
        }
    }

    /// Starts `folio ARGS` in the session's window and waits until it shows `text`; returns the screen.
    @discardableResult
    func start(_ folioArguments: [String], until text: String, width: Int = 100, height: Int = 30,
               file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try start(folioArguments, width: width, height: height)
        return waitFor(text: text, file: file, line: line)
    }

    /// Opens `document` in the session's window (scene `first`) and in a second window (scene `second`), waits until
    /// both show `text`, and returns the second window's target.
    func openInTwoWindows(_ document: URL, scenes first: String, _ second: String, until text: String,
                          file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try start(["open", document.path, "--scene", first])
        let two = try startWindow(["open", document.path, "--scene", second])
        waitFor(text: text, file: file, line: line)
        waitFor(text: text, target: two, file: file, line: line)
        return two
    }

    /// Sends `keys` (tmux key names) and waits until the pane shows `text`; returns the screen.
    @discardableResult
    func press(_ keys: String..., until text: String, target: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try tmux(["send-keys", "-t", target ?? self.target] + keys)
        return waitFor(text: text, target: target, file: file, line: line)
    }

    /// Types `text` as it is and waits until the pane shows `shown`; returns the screen.
    @discardableResult
    func type(_ text: String, until shown: String, target: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try type(text, target: target)
        return waitFor(text: shown, target: target, file: file, line: line)
    }

    /// Polls the pane until `predicate` holds on a whole frame; fails with the last screen after `timeout` seconds.
    @discardableResult
    func waitFor(_ what: String, target: String? = nil, timeout: TimeInterval? = nil, file: StaticString = #filePath, line: UInt = #line,
                 _ predicate: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(timeout ?? defaultTimeout)
        var screen = ""
        repeat {
            screen = capture(target)
            if predicate(screen), let whole = wholeFrame(after: screen, target: target, predicate) { return whole }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        XCTFail("timed out waiting for \(what); the pane shows:\n\(screen)", file: file, line: line)
        return screen
    }

    /// The screen `first` once the frame it belongs to is whole: a capture can catch folio halfway through writing a
    /// frame (the top rows new, the rest old), so the screen counts when a capture 30 ms later is the same; a screen
    /// still changing (a spinner) counts after five captures that all hold. Nil when the predicate stops holding.
    private func wholeFrame(after first: String, target: String?, _ predicate: (String) -> Bool) -> String? {
        var last = first
        for _ in 0..<5 {
            Thread.sleep(forTimeInterval: 0.03)
            let now = capture(target)
            if now == last { return now }
            guard predicate(now) else { return nil }
            last = now
        }
        return last
    }

    @discardableResult
    func waitFor(text: String, target: String? = nil, timeout: TimeInterval? = nil, file: StaticString = #filePath, line: UInt = #line) -> String {
        waitFor("“\(text)”", target: target, timeout: timeout, file: file, line: line) { $0.contains(text) }
    }

    /// The screen once the frame has settled: the same twice, 150 ms apart (at most 6 s).
    func settled(_ target: String? = nil) -> String {
        var last = capture(target)
        for _ in 0..<40 {
            Thread.sleep(forTimeInterval: 0.15)
            let now = capture(target)
            if now == last { return now }
            last = now
        }
        return last
    }

    /// Checks that folio has exited with `status` and left the terminal as it found it: the alternate screen is off
    /// and `stty -a` in the pane shows canonical mode and echo back on.
    func assertRestored(status: Int32, target: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let screen = waitFor("folio to exit", target: target, file: file, line: line) { $0.contains("FOLIO-EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(screen.contains("FOLIO-EXIT=\(status)"), screen, file: file, line: line)
        let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        XCTAssertTrue(words.contains("icanon") && words.contains("echo"), "stty shows raw mode left on:\n\(screen)", file: file, line: line)
        XCTAssertFalse(words.contains("-icanon") || words.contains("-echo"), screen, file: file, line: line)
        XCTAssertEqual(display("#{alternate_on}", target: target), "0", "the alternate screen is still on", file: file, line: line)
    }

    /// `folio new NAME --template TEMPLATE --defaults` in the docs folder; the new document's folder.
    @discardableResult
    func createDocument(_ name: String, template: String = "checklist/groceries", file: StaticString = #filePath, line: UInt = #line) -> URL {
        let result = runFolio(["new", name, "--template", template, "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return docs.appendingPathComponent(name)
    }

    /// `folio edit DOCUMENT ARGUMENTS…`, which must succeed.
    func edit(_ document: URL, _ arguments: String..., file: StaticString = #filePath, line: UInt = #line) {
        let result = runFolio(["edit", document.path] + arguments, environment: env, cwd: docs)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
    }
}
