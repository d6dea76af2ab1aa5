import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The history browser in the real `folio` program, in tmux: the diff pane follows the selected commit.
final class HistoryEndToEndTests: TmuxTestCase {
    override var session: String { "h" }
    override var defaultTimeout: TimeInterval { 10 }
    override var paneShowsTerminalSettings: Bool { false }

    /// The diff pane: what is right of the divider on each row (the list names every commit's message too).
    func diffPane(_ screen: String) -> String {
        screen.split(separator: "\n").compactMap { line in line.firstIndex(of: "│").map { String(line[line.index(after: $0)...]) } }.joined(separator: "\n")
    }

    func testGivenAChecklistWithThreeVersionsWhenTheHistorySelectionMovesThenTheDiffPaneShowsEachCommitsOwnSemanticDiff() throws {
        // Given a checklist with a toggle and an addition after its creation
        let created = runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("list")
        edit(document, "toggle", "1")
        edit(document, "add", "Saffron")
        try start(["open", document.path, "--scene", "history-e2e"], width: 160, height: 45)
        waitFor("the editor") { $0.contains("Saffron") }
        // When the history opens, the newest commit's semantic diff is shown
        try keys("C-g")
        waitFor("the newest commit's diff") { diffPane($0).contains("semantic diff") && diffPane($0).contains("added 'Saffron'") }
        // When the selection moves down, the pane follows: the toggle's diff, and never the addition under it
        try keys("Down")
        let second = diffPane(waitFor("the toggle's diff") { diffPane($0).contains("checked 'Milk'") })
        XCTAssertFalse(second.contains("added 'Saffron'"), "the previous commit's diff stayed under the new header:\n\(second)")
        // And back up: the addition again
        try keys("Up")
        let first = diffPane(waitFor("the addition's diff again") { diffPane($0).contains("added 'Saffron'") })
        XCTAssertFalse(first.contains("checked 'Milk'"), first)
        // And after keys in quick succession, the header and the diff both belong to the commit the selection ended on
        try keys("Down", "Down", "Up")
        let settled = waitFor("the toggle's diff after quick keys") { screen in
            let rows = diffPane(screen).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            return rows.first == "checked 'Milk'" && rows.dropFirst(3).contains("checked 'Milk'")
        }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(diffPane(capture()), diffPane(settled), "a late answer for another commit replaced the diff")
        try keys("C-q")
        waitFor("folio to exit") { $0.contains("FOLIO-EXIT=0") }
    }

    /// The list part of a row: what is left of the divider.
    func listPane(_ screen: String) -> String {
        screen.split(separator: "\n").map { line in line.firstIndex(of: "│").map { String(line[..<$0]) } ?? String(line) }.joined(separator: "\n")
    }

    func gitLine(_ document: URL, _ arguments: String...) throws -> String {
        try git(arguments, in: document, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testGivenVersionsOverSeveralDaysWhenFilteredJumpedToAndRestoredWithConfirmationThenTheRestoreIsOneCommitThatUUndoes() throws {
        // Given a checklist made on Fri 1 March 2024, changed on the 3rd and 4th (one of them named), and today (UTC)
        env["TZ"] = "UTC"
        func dated(_ seconds: Int) -> [String: String] { env.merging(["GIT_AUTHOR_DATE": "\(seconds) +0000", "GIT_COMMITTER_DATE": "\(seconds) +0000"]) { $1 } }
        let created = runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: dated(1_709_287_200), cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let document = docs.appendingPathComponent("list")
        XCTAssertEqual(runFolio(["edit", document.path, "toggle", "1"], environment: dated(1_709_460_000), cwd: docs).status, 0)
        XCTAssertEqual(runFolio(["edit", document.path, "add", "Saffron"], environment: dated(1_709_546_400), cwd: docs).status, 0)
        XCTAssertEqual(runFolio(["tag", document.path, "first-draft", "@3"], environment: env, cwd: docs).status, 0)
        edit(document, "add", "Cardamom")
        let treeOf2 = try gitLine(document, "rev-parse", "HEAD~2^{tree}"), treeOf4 = try gitLine(document, "rev-parse", "HEAD^{tree}")
        try start(["open", document.path, "--scene", "timeline-e2e"], width: 160, height: 45)
        waitFor("the editor") { $0.contains("Cardamom") }
        // When the history opens: a heading for each day, the named version's tag on it
        try keys("C-g")
        let timeline = listPane(waitFor("the timeline") { listPane($0).contains("── Fri 1 Mar 2024 ──") })
        for expected in ["── Today ──", "── Mon 4 Mar 2024 ──", "── Sun 3 Mar 2024 ──", "⚑ first-draft added 'Saffron'"] {
            XCTAssertTrue(timeline.contains(expected), "\(expected) missing:\n\(timeline)")
        }
        // When "/saffron" is typed: the list narrows to it, the header line counting it
        try keys("/", "s", "a", "f", "f")
        let filtered = listPane(waitFor("the filter") { listPane($0).contains("1 of 4 versions") })
        XCTAssertTrue(filtered.contains("/ saff") && filtered.contains("added 'Saffron'"), filtered)
        XCTAssertFalse(filtered.contains("Cardamom"), filtered)
        // And Esc clears it
        try keys("Escape")
        waitFor("the whole list again") { listPane($0).contains("Cardamom") && !listPane($0).contains("of 4 versions") }
        // When g jumps to 3 March 2024: that day's version is selected, its diff shown
        try keys("g")
        waitFor("the jump field") { $0.contains("Go to:") }
        try keys("-l", "2024-03-03")
        try keys("Enter")
        waitFor("the 3 March version") { screen in
            diffPane(screen).split(separator: "\n").first?.trimmingCharacters(in: .whitespaces) == "checked 'Milk'"
                && screen.contains("Sun 3 Mar 2024: the last version that day")
        }
        // When r is pressed: a confirmation line, and nothing restored yet
        try keys("r")
        waitFor("the confirmation line") { $0.contains("r again restores @2 “checked 'Milk'” as a new version") }
        XCTAssertEqual(try gitLine(document, "rev-list", "--count", "HEAD"), "4")
        // When r again: one new version, whose content is @2's, selected at the top with the status line
        try keys("r")
        let restored = waitFor("the restore's status line") { $0.contains("Restored @2 as @5 — u to undo") }
        XCTAssertTrue(diffPane(restored).contains("Restore to "), "the restore's own version is selected:\n\(restored)")
        XCTAssertEqual(try gitLine(document, "rev-list", "--count", "HEAD"), "5")
        XCTAssertEqual(try gitLine(document, "rev-parse", "HEAD^{tree}"), treeOf2)
        XCTAssertTrue(try gitLine(document, "log", "-1", "--format=%s").hasPrefix("Restore to "))
        // When u is pressed: one more version takes the restore back, and the status line says so
        try keys("u")
        waitFor("the undo's status line") { $0.contains("Undone: “Restore to ") && $0.contains("as @6") }
        XCTAssertEqual(try gitLine(document, "rev-list", "--count", "HEAD"), "6")
        XCTAssertEqual(try gitLine(document, "rev-parse", "HEAD^{tree}"), treeOf4, "the document is as it was before the restore")
        XCTAssertTrue(try gitLine(document, "log", "-1", "--format=%s").hasPrefix("Undo: Restore to "))
        try keys("C-q")
        waitFor("folio to exit") { $0.contains("FOLIO-EXIT=0") }
    }
}
