import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// A view that numbers its items like the checklist plugin.
struct NumberedEditor: EditorViewProvider {
    let items = ["Milk", "Eggs", "Bread"]
    var lines: [String] { ["Groceries  (0/3 done)"] + items.enumerated().map { "  \($0.offset + 1) [ ] \($0.element)" } }
    func render(_ request: RenderRequest) -> PluginView { .lines(Array(lines.prefix(request.height))) }
    func commands() -> [EditorCommand] {
        [EditorCommand(id: "add", title: "Add item", shortcut: "a", usage: "add TITLE"),
         EditorCommand(id: "toggle", title: "Check or uncheck item", shortcut: "space", needsSelection: true, usage: "toggle N"),
         EditorCommand(id: "rename", title: "Rename item", shortcut: "r", needsSelection: true, usage: "rename N TITLE"),
         EditorCommand(id: "check-all", title: "Check all", shortcut: "ctrl+a", usage: "check-all")]
    }
    func itemLayout() -> ItemLayout? { ViewLines.layout(lines) }
}

final class EditorHostTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func app(items: ItemLayout? = ItemLayout(count: 3, headerLines: 1)) -> AppState {
        .showing(EditorState(path: "g", title: "Groceries", contentType: "org.folio.checklist", commands: NumberedEditor().commands()), items: items)
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func testItemArgumentsComeFromTheCursorOrTheSelection() {
        XCTAssertEqual(run([.character(" ")], from: app()).1, [.runEditorCommand("toggle", arguments: ["1"], selection: ViewSelection.items(cursor: 0))])
        XCTAssertEqual(run([.down, .down, .character(" ")], from: app()).1, [.runEditorCommand("toggle", arguments: ["3"], selection: ViewSelection.items(cursor: 2))])
        XCTAssertEqual(run([.down, .down, .down, .down, .character(" ")], from: app()).1, [.runEditorCommand("toggle", arguments: ["3"], selection: ViewSelection.items(cursor: 2))],
                       "the cursor stops at the last item")
        XCTAssertEqual(run([.down, .character("v"), .down, .character(" ")], from: app()).1, [.runEditorCommand("toggle", arguments: ["2-3"], selection: ViewSelection.items(cursor: 2, anchor: 1))],
                       "a range is given whole")
        XCTAssertEqual(run([.ctrl("a")], from: app()).1, [.runEditorCommand("check-all", arguments: [], selection: ViewSelection.items(cursor: 0))])
    }

    func testCommandsNeedingASelectionAreDisabledWithoutItems() {
        let (state, effects) = run([.character(" ")], from: app(items: ItemLayout(count: 0, headerLines: 1)))
        XCTAssertEqual(effects, [])
        guard case let .editor(editor) = state.screen else { return XCTFail() }
        XCTAssertNotNil(editor.message)
    }

    func testTextArgumentsAreAskedInAPrompt() {
        let (asking, none) = run([.down, .character("r")] + "Oat".map(Key.character), from: app())
        XCTAssertEqual(none, [])
        guard case let .editor(editor) = asking.screen else { return XCTFail() }
        XCTAssertEqual(editor.prompt?.text, "Oat")
        XCTAssertTrue(Screens.editor(editor, view: NumberedEditor(), width: 60, height: 10).plainText().contains("Rename item — Title: Oat"))
        XCTAssertEqual(run([.enter], from: asking).1, [.runEditorCommand("rename", arguments: ["2", "Oat"], selection: ViewSelection.items(cursor: 1))])
        let (cancelled, effects) = run([.escape], from: asking)
        XCTAssertEqual(effects, [], "Esc cancels with nothing run")
        guard case let .editor(after) = cancelled.screen else { return XCTFail("Esc closes the prompt, not the editor") }
        XCTAssertNil(after.prompt)
        XCTAssertEqual(run([.character("a"), .enter], from: app()).1, [], "an empty answer is not sent")
    }

    func testHostCommands() {
        XCTAssertEqual(run([.ctrl("z")], from: app()).1, [.runEditorCommand("folio.undo")])
        XCTAssertEqual(run([.ctrl("y")], from: app()).1, [.runEditorCommand("folio.redo")])
        XCTAssertEqual(run([.ctrl("w")], from: app()).0.screen, .launch)
        guard case let .settings(settings) = run([.character(",")], from: app()).0.screen else { return XCTFail("settings") }
        XCTAssertNotNil(settings.returnTo)
        guard case .editor = run([.character(","), .escape], from: app()).0.screen else { return XCTFail("Esc goes back to the editor") }
    }

    func testSettingsEditAuthorAndSyncMode() {
        var state = AppState()
        state.screen = .settings(SettingsState(settings: Settings()))
        let keys: [Key] = "Ada".map(Key.character) + [.down] + "ada@example.com".map(Key.character) + [.down, .right, .enter]
        let (_, effects) = run(keys, from: state)
        XCTAssertEqual(effects, [.saveSettings(Settings(author: .init(name: "Ada", email: "ada@example.com"), sync: .none))])
    }

    func testGivenTheSettingsScreenWhenASyncIntervalIsTypedThenItIsSavedAndOneOutOfRangeIsRefusedOnItsField() {
        // Given the settings screen, the sync interval field below Durability
        var state = AppState()
        state.screen = .settings(SettingsState(settings: Settings()))
        // When 5 is typed there and saved, then the saved settings look at a remote every 5 s
        let (after, effects) = run([.down, .down, .down] + "5".map(Key.character) + [.enter], from: state)
        var expected = Settings()
        expected.syncInterval = 5
        XCTAssertEqual(effects, [.saveSettings(expected)])
        // And 0 (or a word) is refused on its field, nothing saved
        for bad in ["0", "often", "99999999999999999999"] {
            let (refused, none) = run([.backspace] + bad.map(Key.character) + [.enter], from: after)
            XCTAssertEqual(none, [], bad)
            guard case let .settings(screen) = refused.screen else { return XCTFail("still on settings") }
            XCTAssertEqual(screen.problems[.syncInterval], "'\(bad)' is not a number of seconds from 1 to 86400")
        }
    }

    func testSettingsEditColorsTemplateSourcesAndEditorAssociations() {
        // Given the settings screen with one source already configured
        var state = AppState()
        state.settings = Settings(templateSources: [TemplateSourceSetting(name: "old", url: "https://example.org/old.git")])
        state.screen = .settings(SettingsState(settings: state.settings))
        func typing(_ text: String) -> [Key] { text.map(Key.character) }
        // When a color, a new source and an association are typed on their fields and saved
        let keys: [Key] = [.down, .down, .down, .down] + typing("accent=#89b4fa") + [.down] + typing("team git://127.0.0.1/t.git v2")
            + [.down] + typing("org.folio.story=plain-text")
        let (typed, checks) = run(keys, from: state)
        // (the new source is checked in the background when its field is left: here it is found)
        guard case var .checkTemplateSource(check)? = checks.first else { return XCTFail("the source is checked") }
        check.state = .found("2 templates")
        var found = typed
        found.receiveSourceCheck(check)
        let (after, effects) = run([.enter], from: found)
        // Then the saved settings hold all three, and the old source is kept
        let expected = Settings(colors: ["accent": "#89b4fa"],
                                templateSources: [TemplateSourceSetting(name: "old", url: "https://example.org/old.git"),
                                                  TemplateSourceSetting(name: "team", url: "git://127.0.0.1/t.git", ref: "v2")],
                                editorAssociations: ["org.folio.story": "plain-text"])
        XCTAssertEqual(effects, [.saveSettings(expected)])
        // And "-NAME" removes a source, while a malformed entry is refused with a message and nothing saved
        // (after saving, the focus is still on the last field)
        let (_, removed) = run([.up] + typing("-old") + [.enter], from: after)
        guard case let .saveSettings(saved)? = removed.first else { return XCTFail("saved") }
        XCTAssertEqual(saved.templateSources.map(\.name), ["team"])
        let (bad, none) = run([.up, .up] + typing("accent") + [.enter], from: after)
        XCTAssertEqual(none, [])
        guard case let .settings(screen) = bad.screen else { return XCTFail("still on settings") }
        XCTAssertEqual(screen.problems[.color], "write PART=COLOR, such as key=cyan (or PART= to remove)")
        XCTAssertEqual(screen.focus, .color, "the focus goes to the field with the problem")
        XCTAssertEqual(screen.colorEntry, "accent", "the value is kept")
    }

    func testItemLayoutAndShortcuts() {
        XCTAssertEqual(NumberedEditor().itemLayout(), ItemLayout(count: 3, headerLines: 1))
        XCTAssertEqual(ViewLines.itemNumber("> 12 [x] Milk"), 12)
        XCTAssertNil(ViewLines.itemNumber("Groceries  (0/3 done)"))
        XCTAssertEqual(AppState.displayShortcut("ctrl+a"), "^A")
        XCTAssertTrue(AppState.matches(.character(" "), "space"))
        XCTAssertTrue(AppState.matches(.ctrl("u"), "ctrl+u"))
    }

    func testRefreshPicksUpANewHeadAndKeepsTheCursorInRange() {
        struct Session: DocumentSession {
            var path = "g", title = "Groceries", contentType: ContentType = "org.folio.checklist"
            func latestCommit() -> (id: String, message: String) { ("abc1234", "deleted 'Bread'") }
            var editor: any EditorViewProvider { OneItem() }
            var history: any HistoryPageProvider { NoHistory() }
            func perform(_ effect: AppEffect) async throws {}
        }
        struct NoHistory: HistoryPageProvider {
            func page(after cursor: String?, limit: Int) async throws -> HistoryPage { HistoryPage(entries: [], next: nil) }
            func diff(of commitID: String) async throws -> [String] { [] }
        }
        struct OneItem: EditorViewProvider {
            func render(_ request: RenderRequest) -> PluginView { ["T", "  1 [ ] Milk"] }
            func commands() -> [EditorCommand] { [] }
            func itemLayout() -> ItemLayout? { ItemLayout(count: 1, headerLines: 1) }
        }
        var state = run([.down, .down], from: app()).0
        state.refreshDocument(Session())
        guard case let .editor(editor) = state.screen else { return XCTFail() }
        XCTAssertEqual(editor.commitID, "abc1234")
        XCTAssertEqual(editor.cursor, 0)
    }
}
