import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// The help overlay (`?`): long lines wrap instead of being cut, typing filters it, and footers drop whole entries
/// rather than cutting a key's name; goldens of the help and the tab list at 80×24, 60×16 and 200×50.
final class HelpOverlayTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let sizes = [(80, 24), (60, 16), (200, 50)]

    /// The history browser over a checklist, two documents open, at `columns`×`rows`.
    func historyApp(columns: Int, rows: Int) -> AppState {
        var state = AppState()
        let editor = EditorState(path: "/d/groceries", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1",
                                 commands: NumberedEditor().commands())
        state.screen = .history(HistoryState(), editor)
        state.tabs = TabBar(titles: ["Groceries", "Story"], current: 0)
        state.columns = columns; state.rows = rows
        return state
    }

    func run(_ keys: [Key], from state: AppState) -> AppState {
        var state = state
        for key in keys { state = state.handling(key, scene: scene).0 }
        return state
    }

    func drawnHelp(_ state: AppState, width: Int, height: Int) -> String {
        var grid = CellGrid(width: width, height: height)
        Screens.decorate(&grid, state: state, scene: scene)
        return grid.plainText()
    }

    func testGivenHelpAt80And60ColumnsThenNoLineEndsInAnEllipsisAndEveryWordOfALongLineIsShown() {
        for (w, h) in [(80, 24), (60, 16)] {
            // Given the history browser's help, whose lines are long (g's dates, v's view)
            var state = run([.character("?")], from: historyApp(columns: w, rows: h))
            XCTAssertTrue(state.helpOpen)
            // When every row is drawn, scrolled a page at a time
            var text = ""
            for _ in 0..<12 { text += drawnHelp(state, width: w, height: h); state = run([.pageDown], from: state) }
            // Then no row of the box is cut with "…", and the long lines' last words are there
            XCTAssertFalse(text.split(separator: "\n").contains { $0.contains("│") && $0.contains("…│") }, text)
            let words = text.replacingOccurrences(of: "│", with: " ").split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            XCTAssertTrue(words.contains("3 days ago, 2 weeks ago, @N"), words)
            XCTAssertTrue(words.contains("(v again: the diff)"), words)
        }
    }

    func testGivenHelpOpenWhenTypingThenOnlyMatchingKeysAreListedUnderTheirSectionsAndEscClearsThenCloses() {
        // Given help open over the history browser
        let open = run([.character("?")], from: historyApp(columns: 80, rows: 24))
        // When "restore" is typed (the slash too: it no longer closes the help)
        let filtered = run([.character("/")] + "restore".map(Key.character), from: open)
        XCTAssertTrue(filtered.helpOpen)
        XCTAssertEqual(filtered.helpFilter.text, "/restore")
        let typed = run([.backspace] + [.home], from: run([.character("?")], from: historyApp(columns: 80, rows: 24)))
        XCTAssertTrue(typed.helpOpen)
        let restore = run("restore".map(Key.character), from: open)
        let lines = restore.shownHelpLines(scene: scene)
        // Then only the lines naming it are listed, each under its heading
        XCTAssertEqual(lines.first, HelpLine.heading("History"))
        XCTAssertTrue(lines.filter { !$0.heading }.allSatisfy { "\($0.keys) \($0.text)".lowercased().contains("restore") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.keys == "r" }, "\(lines)")
        let text = drawnHelp(restore, width: 80, height: 24)
        XCTAssertTrue(text.contains("Keys matching “restore”"), text)
        XCTAssertFalse(text.contains("tag this version"), text)
        // And nothing matching says so
        XCTAssertTrue(run("zzzq".map(Key.character), from: open).shownHelpLines(scene: scene).first?.text.hasPrefix("No key matches") == true)
        // And esc clears the filter first, then closes
        let cleared = run([.escape], from: restore)
        XCTAssertTrue(cleared.helpOpen)
        XCTAssertEqual(cleared.helpFilter.text, "")
        XCTAssertFalse(run([.escape], from: cleared).helpOpen)
    }

    func testGivenFootersTooLongForTheScreenThenWholeEntriesGiveWayAndEscAndHelpStay() {
        let hints = "↑↓ PgUp/PgDn select · / filter · g go to date · tab/⏎ diff · v view · i bring this item back · r restore all · u undo · esc back · ? help"
        for width in [20, 40, 58, 78, 200] {
            let fitted = Screens.fittedHints(hints, width: width)
            XCTAssertLessThanOrEqual(DisplayWidth.width(of: fitted), width, fitted)
            // Every entry shown is whole
            let entries = Set(hints.components(separatedBy: " · "))
            XCTAssertTrue(fitted.isEmpty || fitted.components(separatedBy: " · ").allSatisfy(entries.contains), "\(width): \(fitted)")
            if width >= 40 { XCTAssertTrue(fitted.contains("esc back") && fitted.contains("? help"), "\(width): \(fitted)") }
        }
        // And the history browser's footer at 60 columns cuts no key's name
        let footer = Screens.history(HistoryState(), title: "Groceries", width: 60, height: 16).plainText().split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertFalse(footer.contains("…"), footer)
    }

    func testGoldenHelpAndTabListAt80x24And60x16And200x50() {
        let services = LaunchServices(recent: HelpNoRecent(), templates: HelpNoTemplates())
        for (w, h) in sizes {
            let help = run([.character("?")], from: historyApp(columns: w, rows: h))
            assertGolden(LaunchApp.frame(help, scene: scene, services: services, width: w, height: h).plainText(), "sizes/help-history-\(w)x\(h)")
            let filtered = run("tag".map(Key.character), from: help)
            assertGolden(LaunchApp.frame(filtered, scene: scene, services: services, width: w, height: h).plainText(), "sizes/help-filtered-\(w)x\(h)")
            var tabs = historyApp(columns: w, rows: h)
            tabs.tabs.titles.append("A rather long title for a third document that does not fit")
            let listed = run([.ctrl("t"), .down], from: tabs)
            assertGolden(LaunchApp.frame(listed, scene: scene, services: services, width: w, height: h).plainText(), "sizes/tab-list-\(w)x\(h)")
        }
    }
}

private struct HelpNoRecent: RecentDocumentsProvider {
    func recentDocuments(limit: Int) -> [RecentDocument] { [] }
}

private struct HelpNoTemplates: TemplateCatalog {
    func sourceNames() -> [String] { [] }
    func templates(in source: String) async throws -> [TemplateSummary] { [] }
}
