import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The tmux harness for the end-to-end tests: `TmuxTestCase` (the real `folio`, `FOLIO_TEST_BINARY` pointing it
/// at another build) with form helpers; the pane runs `echo SHELL-BEFORE; folio …; echo FOLIO-EXIT=$?; sleep 30`, so
/// the shell's screen after folio can be read. Waits are generous (CI runs on two busy cores).
class EndToEndTmuxTestCase: TmuxTestCase {
    override var session: String { "i23" }
    override var paneShowsTerminalSettings: Bool { false }
    /// How long a wait lasts: generous for CI's busy cores; short when checking that the tests fail on an older
    /// build (`FOLIO_TEST_BINARY`), where most waits time out.
    override var defaultTimeout: TimeInterval {
        ProcessInfo.processInfo.environment["FOLIO_TEST_BINARY"].map { $0.isEmpty ? 15 : 4 } ?? 15
    }
    var main: String { target }

    /// Starts `folio ARGUMENTS` in window 0 after a marker line on the shell's screen.
    override func start(_ folioArguments: [String], width: Int = 100, height: Int = 30, cwd: URL? = nil) throws {
        try startShell("echo SHELL-BEFORE; " + paneCommand(folioArguments), width: width, height: height, cwd: cwd)
    }

    /// Moves an open form's focus to the field labelled `label`, one field at a time (each move waited for): Tab
    /// when the field is below the focused one, ⇧Tab when above (a form may open on another field when some are
    /// prefilled, and Tab stops at the last field). Where to go is read again after every move, from one capture
    /// holding both rows, so a capture taken while a frame was half drawn only costs a step back.
    func focusField(_ label: String, target: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        for _ in 0..<12 {
            let screen = waitFor("the form's rows", target: target, file: file, line: line) { Self.formRows($0, label: label) != nil }
            guard let (focused, wanted) = Self.formRows(screen, label: label) else { continue }
            if focused == wanted { return }
            try keys(wanted > focused ? "Tab" : "BTab", target: target)
            let before = rows(screen)[focused]
            waitFor("the focus to leave \(before)", target: target, file: file, line: line) { screen in
                Self.formRows(screen, label: label).map { self.rows(screen)[$0.focused] != before || $0.focused != focused } ?? false
            }
        }
        XCTFail("the focus never reached \(label):\n\(capture(target))", file: file, line: line)
    }

    /// The rows (indices in `screen`) of the form's focused field ("│ ▸ Label …") and of the field labelled `label`
    /// ("│ ▸ Label" or "│   Label", the label followed by a space or the row's end); nil unless both show.
    static func formRows(_ screen: String, label: String) -> (focused: Int, wanted: Int)? {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func isField(_ row: String, marker: String) -> Bool {
            guard let range = row.range(of: "│ \(marker) \(label)") else { return false }
            return range.upperBound == row.endIndex || row[range.upperBound] == " "
        }
        guard let focused = rows.firstIndex(where: { $0.contains("│ ▸ ") }),
              let wanted = rows.firstIndex(where: { isField($0, marker: "▸") || isField($0, marker: " ") }) else { return nil }
        return (focused, wanted)
    }

    /// Sets the form field labelled `label` to `value`: focused, emptied, typed, and typed again if the shown value is
    /// not exactly `value` (an editor's current values may arrive just after the form opens and fill the field).
    func setField(_ label: String, _ value: String, target: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        try focusField(label, target: target, file: file, line: line)
        let shown = try NSRegularExpression(pattern: "▸ " + NSRegularExpression.escapedPattern(for: label) + #"\s+"#
                                            + NSRegularExpression.escapedPattern(for: value) + #"(\s|$)"#, options: .anchorsMatchLines)
        func holds(_ screen: String) -> Bool { shown.firstMatch(in: screen, range: NSRange(screen.startIndex..., in: screen)) != nil }
        for _ in 0..<3 {
            try keys("C-u", target: target)
            try type(value, target: target)
            if poll(target: target, timeout: 3, holds) { return }
        }
        XCTFail("\(label) does not show \(value):\n\(capture(target))", file: file, line: line)
    }

    /// Sets each field of the open form, in order, to its value (as `setField` does) and submits the form with ⏎.
    func submit(_ fields: KeyValuePairs<String, String>, file: StaticString = #filePath, line: UInt = #line) throws {
        for (label, value) in fields { try setField(label, value, file: file, line: line) }
        try keys("Enter")
    }

    /// Whether `predicate` comes to hold on the pane within `timeout` seconds (no failure when it does not).
    func poll(target: String? = nil, timeout: TimeInterval, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if predicate(capture(target)) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    /// The pane's rows, trailing blanks trimmed.
    func rows(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    /// ^Q (twice when asked), then waits for folio to exit 0 and the alternate screen to be off.
    func quit(target: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        try keys("C-q", target: target)
        let screen = waitFor("folio to exit", target: target, file: file, line: line) { $0.contains("FOLIO-EXIT=") || $0.contains("^Q again quits") }
        if !screen.contains("FOLIO-EXIT=") { try keys("C-q", target: target) }
        let exited = waitFor("folio to exit", target: target, file: file, line: line) { $0.contains("FOLIO-EXIT=") }
        XCTAssertTrue(exited.contains("FOLIO-EXIT=0"), exited, file: file, line: line)
    }

    // MARK: Documents

    /// `folio ARGUMENTS` run in-process, checked to succeed.
    @discardableResult
    func folio(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = runFolio(arguments, environment: env, cwd: docs)
        XCTAssertEqual(result.status, 0, "folio \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    /// A new document `name` from `template` with its defaults.
    func create(_ name: String, template: String, file: StaticString = #filePath, line: UInt = #line) -> URL {
        folio(["new", name, "--template", template, "--defaults"], file: file, line: line)
        return docs.appendingPathComponent(name)
    }

    func log(_ document: URL) -> [String] {
        runFolio(["log", document.path], environment: env, cwd: docs).stdout.split(separator: "\n").map(String.init)
    }

    /// What `folio view` prints for the document at `width` (the CLI's own rendering, for checking what was saved).
    func view(_ document: URL, width: Int = 100) -> String {
        runFolio(["view", document.path, "--width", String(width), "--height", "60"], environment: env, cwd: docs).stdout
    }
}
