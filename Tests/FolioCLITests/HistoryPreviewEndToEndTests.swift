import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The history browser's rendered preview in the real `folio` program, in tmux: `v` draws the selected version as
/// its editor does beside the current one, following the selection, at 60×16, 100×30 and 160×45; `c … c` compares
/// two versions, a story scene's old words readable beside the new ones.
final class HistoryPreviewEndToEndTests: TmuxTestCase {
    override var session: String { "h" }
    override var defaultTimeout: TimeInterval { 15 }
    override var paneShowsTerminalSettings: Bool { false }

    func edit(_ name: String, _ arguments: String...) {
        let result = runFolio(["edit", docs.appendingPathComponent(name).path] + arguments, environment: env, cwd: docs)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Opens `name` in folio in a tmux window of `width`×`height`, waiting for its editor to show `shown`.
    func open(_ name: String, width: Int, height: Int, showing shown: String) throws {
        let document = docs.appendingPathComponent(name)
        try start(["open", document.path, "--scene", "preview-e2e"], width: width, height: height)
        waitFor("the editor") { $0.contains(shown) }
    }

    func quit() throws {
        try keys("C-q")
        waitFor("folio to exit") { $0.contains("FOLIO-EXIT=0") }
    }

    /// The preview pane's rows: what is right of the list's divider (the list names every commit's message too).
    /// A pane that fills a narrow terminal is every row.
    static func pane(_ screen: String) -> [String] {
        let rows = screen.split(separator: "\n")
        guard rows.contains(where: { $0.contains("│") }) else { return rows.map(String.init) }
        return rows.compactMap { line in line.firstIndex(of: "│").map { String(line[line.index(after: $0)...]) } }
    }

    /// A frame without what changes from run to run: commit ids and times.
    static func normalized(_ screen: String) -> String {
        var text = screen.replacingOccurrences(of: #"\b[0-9a-f]{7}\b"#, with: "#######", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\d{4}-\d{2}-\d{2} \d{2}:\d{2}"#, with: "YYYY-MM-DD hh:mm", options: .regularExpression)
        // The list shows each version's local time of day under its day's heading
        text = text.replacingOccurrences(of: #"\b\d{2}:\d{2}\b"#, with: "hh:mm", options: .regularExpression)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }

    /// Compares a tmux frame (normalized) with a golden file beside the screen goldens; `FOLIO_UPDATE_GOLDEN=1` rewrites it.
    func assertGoldenFrame(_ screen: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FolioLaunchTests/Golden/\(name).txt")
        let actual = Self.normalized(screen).trimmingCharacters(in: .newlines) + "\n"
        if ProcessInfo.processInfo.environment["FOLIO_UPDATE_GOLDEN"] == "1" {
            XCTAssertNoThrow(try Data(actual.utf8).write(to: url), file: file, line: line)
            return
        }
        let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? "<missing \(url.path)>"
        XCTAssertEqual(actual, expected, "\(name) differs from its golden frame", file: file, line: line)
    }

    /// A checklist in four versions: created, 'Milk' checked, 'Saffron' added, 'Bread' renamed 'Sourdough'.
    func makeChecklist() {
        let created = runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        edit("list", "toggle", "1")
        edit("list", "add", "Saffron")
        edit("list", "rename", "3", "Sourdough")
    }

    func previewFollowsSelection(width: Int, height: Int) throws {
        // Given the checklist open in the history browser
        makeChecklist()
        try open("list", width: width, height: height, showing: "Sourdough")
        try keys("C-g")
        waitFor("the history") { $0.contains("History — ") && !$0.contains("loading older commits") }
        // When the second newest version is selected and v pressed (a narrow terminal opens the pane with Enter)
        try keys("Down")
        if width < 70 { try keys("Enter") }
        try keys("v")
        // Then the pane shows that version as the checklist editor draws it: 'Bread', not yet 'Sourdough'
        let first = waitFor("the version before the rename, drawn") { screen in
            screen.contains("then: ") && screen.contains("[ ] Bread") && !screen.contains("loading…")
        }
        assertGoldenFrame(first, "tmux-history-preview-\(width)x\(height)-1")
        // When the selection moves to the version before it
        if width < 70 { try keys("Escape") }
        try keys("Down")
        if width < 70 { try keys("Enter") }
        // Then the pane follows: that version has no 'Saffron' (at 120 columns the current one beside it has)
        let second = waitFor("the version before 'Saffron', drawn") { screen in
            let pane = Self.pane(screen).joined(separator: "\n")
            return pane.contains("checked 'Milk'") && pane.contains("then: ") && !pane.contains("loading…") && pane.contains("[x] Milk")
                && (width >= 120 ? pane.contains("+  14 [ ] Saffron") : !pane.contains("[ ] Saffron"))
        }
        XCTAssertTrue(second.contains("[ ] Bread"), second)
        assertGoldenFrame(second, "tmux-history-preview-\(width)x\(height)-2")
        // And below 120 columns o switches to the current version
        if width < 120 {
            try keys("o")
            let current = waitFor("the current version") { $0.contains("now: current") && $0.contains("Sourdough") }
            XCTAssertFalse(current.contains("[ ] Bread"), current)
        }
        try quit()
    }

    func testGivenAChecklistWhenThePreviewIsShownAt60x16ThenItFollowsTheSelection() throws { try previewFollowsSelection(width: 60, height: 16) }
    func testGivenAChecklistWhenThePreviewIsShownAt100x30ThenItFollowsTheSelection() throws { try previewFollowsSelection(width: 100, height: 30) }
    func testGivenAChecklistWhenThePreviewIsShownAt160x45ThenItFollowsTheSelection() throws { try previewFollowsSelection(width: 160, height: 45) }

    func testGivenA160x45TerminalWhenThePreviewIsShownThenTheOldAndTheCurrentVersionStandSideBySideScrolledTogether() throws {
        // Given a checklist with 40 more items, so the versions are longer than the pane
        makeChecklist()
        for index in 1...40 { edit("list", "add", "Item \(index)") }
        edit("list", "toggle", "2")
        try open("list", width: 160, height: 45, showing: "Sourdough")
        try keys("C-g")
        waitFor("the history") { $0.contains("History — ") && !$0.contains("loading older commits") }
        // When the version before the last change is shown
        try keys("Down", "v")
        let screen = waitFor("both versions") { $0.contains("then: ") && $0.contains("now: current") && !$0.contains("loading…") }
        // Then one row holds the old 'Eggs' unchecked on the left and the current one checked on the right, marked
        let eggs = Self.pane(screen).first { $0.contains("Eggs") } ?? ""
        XCTAssertTrue(eggs.contains("2 [ ] Eggs") && eggs.contains("2 [x] Eggs") && eggs.components(separatedBy: "~ ").count == 3, screen)
        XCTAssertLessThan(try XCTUnwrap(eggs.range(of: "[ ] Eggs")).lowerBound, try XCTUnwrap(eggs.range(of: "[x] Eggs")).lowerBound)
        // When the pane is scrolled a page down (Tab gives it the keys; PgDn on the list pages the list)
        try keys("Tab", "PageDown")
        let scrolled = waitFor("the versions scrolled") { !$0.contains("[ ] Eggs") && Self.pane($0).contains { $0.contains("Item 30") } }
        // Then both columns moved together: each row still shows the same item on both sides
        let rows = Self.pane(scrolled).filter { $0.contains("[ ] Item ") }
        XCTAssertGreaterThan(rows.count, 20, scrolled)
        for row in rows {
            let items = row.matches(of: /Item \d+/).map { String($0.output) }
            XCTAssertEqual(items.count, 2, String(row))
            XCTAssertEqual(Set(items).count, 1, "the two sides scrolled apart: \(row)")
        }
        try quit()
    }

    func testGivenAStorySceneRewrittenWhenTwoVersionsAreComparedThenTheOldWordsAreReadableBesideTheNewOnes() throws {
        // Given a story whose first scene's text was set, then rewritten, then another scene added
        let created = runFolio(["new", "tale", "--template", "story/three-act", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        edit("tale", "set-text", "1", "1", "The keeper never slept at all, and watched the sea.")
        edit("tale", "set-text", "1", "1", "The keeper slept all day long, and dreamt of the sea.")
        edit("tale", "add-scene", "1", "The storm")
        try open("tale", width: 160, height: 45, showing: "The storm")
        try keys("C-g")
        waitFor("the history") { $0.contains("History — ") && !$0.contains("loading older commits") }
        // When the first rewrite is marked with c, the second one compared with it, and the versions shown
        try keys("Down", "Down", "c", "Up", "c", "v")
        // Then the scene is marked changed and its text reads word by word, the old words and the new ones
        let screen = waitFor("the comparison with the scene's words") { $0.contains("text of 1.1 The ordinary world") && !$0.contains("loading…") }
        XCTAssertTrue(screen.contains("Versions "), screen)
        XCTAssertTrue(screen.contains("[-never-]"), screen)
        XCTAssertTrue(screen.contains("{+"), screen)
        let words = screen.split(separator: "\n").first { $0.contains("[-never-]") }.map(String.init) ?? ""
        XCTAssertTrue(words.contains("The keeper"), words)
        XCTAssertTrue(words.contains("watched") && words.contains("dreamt"), "both the old and the new words: \(words)")
        XCTAssertTrue(screen.split(separator: "\n").contains { $0.contains("~    1.1 The ordinary world") }, screen)
        try quit()
    }
}
