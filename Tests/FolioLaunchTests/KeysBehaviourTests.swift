import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// Esc, ^W, ^Q and q; help; the palette filter; fields that scroll; recent pins; settings checks; paste at the cursor.
final class KeysBehaviourTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func run(_ keys: [Key], from start: AppState) -> (AppState, [AppEffect]) { start.pressing(keys, scene: scene) }

    func typing(_ text: String) -> [Key] { text.map(Key.character) }

    func editorApp(columns: Int = 80, rows: Int = 24) -> AppState {
        var state = AppState(recent: Fixtures.recent, templates: Fixtures.loaded)
        var editor = EditorState(path: "list", title: "Groceries", contentType: "org.folio.checklist", commands: NumberedEditor().commands())
        editor.items = NumberedEditor().itemLayout()
        editor.columns = columns
        state.columns = columns; state.rows = rows
        state.screen = .editor(editor)
        return state
    }

    func editor(_ state: AppState) -> EditorState? { if case let .editor(editor) = state.screen { return editor } else { return nil } }

    // MARK: Esc, ^W, ^Q, q

    func testGivenTheEditorWhenEscIsPressedWithNothingOpenThenTheDocumentStaysOpenAndAHintSaysHowToClose() {
        let (state, effects) = run([.escape, .escape], from: editorApp())
        XCTAssertEqual(effects, [])
        XCTAssertEqual(editor(state)?.hint, AppState.escapeHint(editor: true))
        XCTAssertNil(editor(state)?.message, "a hint, not an error")
        guard let shown = editor(state) else { return XCTFail("editor") }
        XCTAssertEqual(Screens.editor(shown, view: NumberedEditor(), width: 80, height: 10).line(9), " " + AppState.escapeHint(editor: true))
        XCTAssertNil(editor(run([.down], from: state).0)?.hint, "the next key clears it")
    }

    func testGivenAPromptPaletteAndSelectionWhenEscIsPressedThenOnlyTheInnermostIsCancelled() {
        // A prompt: Esc closes it, the editor stays.
        let prompt = run([.character("a")] + typing("Figs") + [.escape], from: editorApp()).0
        XCTAssertNil(editor(prompt)?.prompt)
        XCTAssertNotNil(editor(prompt))
        // The palette with a filter: Esc clears the filter, Esc again closes the palette, Esc again does nothing more.
        let filtered = run([.ctrl("p")] + typing("undo") + [.escape], from: editorApp()).0
        XCTAssertEqual(editor(filtered)?.paletteOpen, true)
        XCTAssertEqual(editor(filtered)?.paletteFilter.text, "")
        let closed = run([.escape], from: filtered).0
        XCTAssertEqual(editor(closed)?.paletteOpen, false)
        // A selection: Esc clears it and the cursor stays.
        let selected = run([.character("v"), .down, .escape], from: editorApp()).0
        XCTAssertNil(editor(selected)?.selectionAnchor)
        XCTAssertEqual(editor(selected)?.cursor, 1)
    }

    func testGivenAPromptWithTextWhenCtrlWIsPressedThenItDeletesAWordAndDoesNotClose() {
        let (state, _) = run([.character("a")] + typing("Greek yoghurt") + [.ctrl("w")], from: editorApp())
        XCTAssertEqual(editor(state)?.prompt?.text, "Greek ")
        XCTAssertEqual(run([.ctrl("w")], from: editorApp()).0.screen, .launch, "without a prompt ^W closes the document")
    }

    func testGivenAPromptWithTextWhenCtrlQThenItAsksOnceAndTheTextIsKept() {
        let asking = run([.character("a")] + typing("Figs") + [.ctrl("q")], from: editorApp())
        XCTAssertEqual(asking.1, [])
        XCTAssertEqual(asking.0.confirming, .quit)
        XCTAssertTrue(LaunchApp.frame(asking.0, scene: scene, services: LaunchServices(recent: NoRecent(), templates: NoTemplates()), width: 80, height: 24)
            .plainText().contains("^Q again quits"), "the question is on screen")
        XCTAssertEqual(run([.ctrl("q")], from: asking.0).1, [.quit])
        let stayed = run([.character("s")], from: asking.0).0
        XCTAssertEqual(editor(stayed)?.prompt?.text, "Figss", "any other key stays and types")
        XCTAssertEqual(run([.ctrl("q")], from: editorApp()).1, [.quit], "nothing typed: quits at once")
    }

    func testGivenAFormWithChangedValuesWhenEscThenItAsksAndEscAgainDiscardsWhileAnUntouchedFormClosesAtOnce() {
        let start = AppState(recent: Fixtures.recent, templates: Fixtures.loaded)
        let (asked, none) = run([.character("n"), .character("x"), .escape], from: start)
        XCTAssertEqual(none, [])
        XCTAssertEqual(asked.confirming, .discardForm)
        guard case .form = asked.screen else { return XCTFail("the form stays until Esc again") }
        XCTAssertEqual(run([.escape], from: asked).0.screen, .launch)
        guard case let .form(kept) = run([.character("y")], from: asked).0.screen else { return XCTFail("another key keeps the form") }
        XCTAssertEqual(kept.fields[0].value, "xy", "the typed text (which replaced the default) is kept")
        XCTAssertEqual(run([.character("n"), .escape], from: start).0.screen, .launch, "nothing changed: Esc closes at once")
    }

    func testGivenTheLauncherFilterWhenQIsTypedThenItFiltersInsteadOfQuitting() {
        let start = AppState(recent: Fixtures.recent, templates: Fixtures.loaded)
        let (state, effects) = run([.character("/"), .character("q")], from: start)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(state.filter, "q")
        XCTAssertEqual(run([.character("/"), .escape, .character("q")], from: start).1, [.quit])
    }

    // MARK: Help and palette

    func testGivenEachScreenWhenQuestionMarkOrF1ThenHelpListsItsKeysFromTheTablesAndAnyKeyClosesIt() {
        // The editor: its plugin's commands with their shortcuts, Folio's commands, the prompt's text keys.
        let help = run([.character("?")], from: editorApp()).0
        XCTAssertTrue(help.helpOpen)
        let lines = help.helpLines(scene: scene)
        for command in NumberedEditor().commands() { XCTAssertTrue(lines.contains { $0.text.hasPrefix(command.title) }, command.title) }
        for command in EditorState.hostCommands { XCTAssertTrue(lines.contains { $0.text == command.title && $0.keys == command.shortcut }, command.title) }
        XCTAssertTrue(lines.contains { $0.keys == "^W" && $0.text.contains("word") }, "the prompt's ^W")
        XCTAssertFalse(run([.character("?"), .escape], from: editorApp()).0.helpOpen)
        XCTAssertNotNil(editor(run([.character("?"), .escape], from: editorApp()).0), "Esc closes help, not the document")
        // The launcher: every binding of its table.
        let launcher = run([.character("?")], from: AppState(recent: Fixtures.recent)).0.helpLines(scene: scene)
        for binding in AppState.launchKeys { XCTAssertTrue(launcher.contains { $0.keys == binding.label && $0.text == binding.help }, binding.label) }
        // A form types '?' into the field; F1 opens help there.
        var form = AppState()
        form.screen = .form(FormState(title: "Open", purpose: .open, fields: [.init(name: "path", label: "Path", value: "", choices: [], required: true, pattern: nil, message: nil)], focus: 0))
        let typed = run([.character("?")], from: form).0
        XCTAssertFalse(typed.helpOpen)
        guard case let .form(typedForm) = typed.screen else { return XCTFail("form") }
        XCTAssertEqual(typedForm.fields[0].value, "?")
        XCTAssertTrue(run([.f1], from: form).0.helpOpen)
    }

    func testGivenHelpTallerThanTheScreenWhenScrolledThenItStopsAtTheLastLine() {
        let open = run([.character("?")], from: editorApp(columns: 60, rows: 16)).0
        let total = Screens.helpDisplayRows(open.helpLines(scene: scene), width: open.columns).count
        let scrolled = run(Array(repeating: .down, count: 200), from: open).0
        XCTAssertEqual(scrolled.helpScroll, total - Screens.helpRows(height: 16))
        var grid = CellGrid(width: 60, height: 16)
        Screens.help(scrolled.helpLines(scene: scene), scroll: scrolled.helpScroll, into: &grid)
        XCTAssertTrue(grid.plainText().contains("quit"), "the last line (^Q quit) is shown")
    }

    func testGivenThePaletteWhenTypingThenOnlyMatchingCommandsAreListedAndEnterRunsTheSelectedOne() {
        let (state, _) = run([.ctrl("p")] + typing("re"), from: editorApp())
        XCTAssertEqual(editor(state)?.filteredPaletteCommands.map(\.title), ["Rename item", "Redo"])
        XCTAssertEqual(run([.down, .enter], from: state).1, [.runEditorCommand("folio.redo")])
        let none = run([.ctrl("p")] + typing("zzz"), from: editorApp()).0
        XCTAssertEqual(editor(none)?.filteredPaletteCommands, [])
        XCTAssertEqual(run([.enter], from: none).1, [], "Enter with nothing listed does nothing")
    }

    func testGivenA60x16ScreenWhenThePaletteIsScrolledToTheEndThenSettingsAndCloseAreShown() {
        var state = editorApp(columns: 60, rows: 16)
        state = run([.ctrl("p")], from: state).0
        let count = editor(state)?.paletteCommands.count ?? 0
        state = run(Array(repeating: .down, count: count), from: state).0
        guard let shown = editor(state) else { return XCTFail("editor") }
        let text = Screens.editor(shown, view: NumberedEditor(), width: 60, height: 16).plainText()
        XCTAssertTrue(text.contains("Close"), text)
        XCTAssertTrue(text.contains("Settings"), text)
    }

    // MARK: Forms that scroll

    func testGivenAFormTallerThanTheScreenWhenTabbingToTheLastFieldThenItIsShownAndFocused() {
        var state = AppState()
        state.columns = 60; state.rows = 16
        let fields = (1...14).map { FormState.Field(name: "f\($0)", label: "Field number \($0)", value: "v\($0)", choices: [], required: false, pattern: nil, message: nil) }
        state.screen = .form(FormState(title: "Many", purpose: .open, fields: fields, focus: 0))
        let (after, _) = run(Array(repeating: .tab, count: 13), from: state)
        guard case let .form(form) = after.screen else { return XCTFail("form") }
        XCTAssertEqual(form.focus, 13)
        let layout = Screens.formLayout(form, width: 60, height: 16)
        XCTAssertTrue(layout.rows.contains { $0.field == 13 }, "the focused field is on screen")
        let text = Screens.form(form, width: 60, height: 16).plainText()
        XCTAssertTrue(text.contains("▸ Field number 14"), text)
        XCTAssertTrue(text.contains("of 14"), "the title bar says which fields are shown")
        XCTAssertFalse(text.contains("Field number 1 "), "the first field scrolled away")
    }

    func testGivenLongLabelsWhenThereIsRoomThenTheyAreShownWhole() {
        let field = FormState.Field(name: "n", label: "The name of the package's command-line tool", value: "", choices: [], required: false, pattern: nil, message: nil)
        let form = FormState(title: "T", purpose: .open, fields: [field], focus: 0)
        XCTAssertTrue(Screens.form(form, width: 160, height: 45).plainText().contains(field.label))
        XCTAssertFalse(Screens.form(form, width: 60, height: 16).plainText().contains(field.label), "cut when narrow")
    }

    // MARK: Recent documents

    func testGivenARecentDocumentWhenPinnedThenItMovesToTheTopAndTheEffectPersistsItAndPAgainUnpins() {
        let start = AppState(recent: Fixtures.recent)
        let second = scene.actions.count + 1
        let (pinned, effects) = run(Array(repeating: .down, count: second) + [.character("p")], from: start)
        XCTAssertEqual(effects, [.pinRecent(path: "stories/the-lighthouse", pinned: true)])
        XCTAssertEqual(pinned.recent.map(\.path), ["stories/the-lighthouse", "notes/groceries.checklist"])
        XCTAssertEqual(pinned.recent.first?.pinned, true)
        XCTAssertEqual(pinned.selection, scene.actions.count, "the selection follows the document")
        let (unpinned, again) = run([.character("p")], from: pinned)
        XCTAssertEqual(again, [.pinRecent(path: "stories/the-lighthouse", pinned: false)])
        XCTAssertEqual(unpinned.recent.first?.pinned, false)
    }

    func testGivenARecentDocumentWhenXTwiceThenItIsRemovedFromTheListAndXThenAnotherKeyKeepsIt() {
        let start = AppState(recent: Fixtures.recent)
        let onFirst = Array(repeating: Key.down, count: scene.actions.count)
        let (asked, none) = run(onFirst + [.character("x")], from: start)
        XCTAssertEqual(none, [])
        XCTAssertEqual(asked.confirming, .removeRecent(path: "notes/groceries.checklist"))
        let (removed, effects) = run([.character("x")], from: asked)
        XCTAssertEqual(effects, [.removeRecent(path: "notes/groceries.checklist")])
        XCTAssertEqual(removed.recent.map(\.path), ["stories/the-lighthouse"])
        XCTAssertEqual(run([.escape], from: asked).0.recent.count, 2, "Esc keeps it")
    }

    func testGivenAMissingRecentDocumentWhenShownAndOpenedThenItSaysMissingAndNothingOpens() {
        var start = AppState(recent: [RecentDocument(path: "gone/doc", title: "Gone", detail: "missing", missing: true)])
        start.selection = scene.actions.count
        let (state, effects) = run([.enter], from: start)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(state.message, .failure("gone/doc no longer exists: x removes it from the list"))
        let text = LaunchLayout(scene: scene, width: 80, height: 24, context: AppState(recent: start.recent).launchContext).grid.plainText()
        XCTAssertTrue(text.contains("✗ Gone"), text)
        XCTAssertTrue(text.contains("missing"), text)
    }

    func testGivenPinnedAndRecentFilesWhenListedPinnedComeFirstAndMissingOnesAreKept() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-recent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recent = RecentDocuments(environment: ["XDG_STATE_HOME": dir.path, "HOME": dir.path])
        let date = Date(timeIntervalSince1970: 0)
        let entries = [RecentDocuments.Entry(path: dir.path + "/a", title: "A", contentType: "t", opened: date),
                       RecentDocuments.Entry(path: dir.path + "/b", title: "B", contentType: "t", opened: date)]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try FileManager.default.createDirectory(at: recent.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(entries).write(to: recent.fileURL)
        try recent.setPinned(true, path: dir.path + "/b")
        XCTAssertEqual(try recent.load().map(\.title), ["B", "A"], "pinned first; missing documents are still listed")
        XCTAssertFalse(RecentDocuments.exists(try recent.load()[0]))
        try recent.remove(path: dir.path + "/b")
        XCTAssertEqual(try recent.load().map(\.title), ["A"])
    }

    // MARK: Settings

    func settingsApp(_ settings: Settings = Settings(), editors: [String] = ["checklist", "story"]) -> AppState {
        var state = AppState()
        state.settings = settings
        state.knownEditors = editors
        state.screen = .settings(SettingsState(settings: settings))
        return state
    }

    func settings(_ state: AppState) -> SettingsState? { if case let .settings(s) = state.screen { return s } else { return nil } }

    func testGivenEachSettingsFieldWhenABadValueIsLeftThenTheErrorIsOnThatFieldAndTheValueKept() throws {
        let folder = FileManager.default.temporaryDirectory.path
        let cases: [(SettingsState.Field, String, String?)] = [
            (.authorEmail, "ada-at-example", "'ada-at-example' is not an e-mail address (name@example.org)"),
            (.color, "accent=#zzzzzz", "'#zzzzzz' is not a color (a name below, or #rrggbb)"),
            (.color, "accent=#89b4fa", nil),
            (.source, "team notaurl", "'notaurl' does not exist (a URL or a template folder)"),
            (.source, "team ftp://x/y", "'ftp' is not a supported scheme (https, http, ssh, git, file)"),
            (.source, "team https://example.org/t.git v2", nil),
            (.source, "team git@example.org:t.git", nil),
            (.source, "team \(folder)", nil),
            (.association, "org.folio.story=nosuch", "no editor 'nosuch' is installed (checklist, story)"),
            (.association, "org.folio.story=story", nil),
            (.association, "story=story", "'story' is not a content type (such as org.folio.story)"),
        ]
        for (field, value, expected) in cases {
            var start = settingsApp()
            guard var editing = settings(start) else { return XCTFail("settings") }
            editing.focus = field
            start.screen = .settings(editing)
            let (after, effects) = run(typing(value) + [.tab], from: start)
            let shown = try XCTUnwrap(settings(after))
            XCTAssertEqual(shown.problems[field], expected, value)
            XCTAssertEqual(shown.text(field), value, "the value is kept")
            XCTAssertEqual(shown.focus, expected == nil ? SettingsState.Field(rawValue: field.rawValue + 1) ?? field : field,
                           "Tab stops on a field with a problem")
            // A well-formed source is then checked in the background (issue 23); nothing else happens.
            let checks = effects.filter { if case .checkTemplateSource = $0 { return true } else { return false } }
            XCTAssertEqual(checks.count, field == .source && expected == nil && !value.hasPrefix("-") ? 1 : 0, value)
            XCTAssertEqual(effects.count, checks.count, value)
        }
    }

    func testGivenAFieldWithAProblemWhenSavingThenNothingIsSavedAndTheFocusGoesToIt() {
        let (state, effects) = run(typing("Ada") + [.down] + typing("nope") + [.up, .enter], from: settingsApp())
        XCTAssertEqual(effects, [])
        XCTAssertEqual(settings(state)?.focus, .authorEmail)
        XCTAssertTrue(Screens.settings(state.settings, path: "s.json", width: 60, height: 16, editing: settings(state)).plainText()
            .contains("✗ 'nope' is not an e-mail address"))
    }

    func testGivenAFailedTemplateSourceWhenRemovedInSettingsThenItsWarningDisappears() {
        var state = settingsApp(Settings(templateSources: [TemplateSourceSetting(name: "team", url: "https://example.invalid/t.git")]))
        state.templates = [TemplateSourceStatus(name: "bundled", state: .loaded([])), TemplateSourceStatus(name: "team", state: .failed("could not resolve host"))]
        guard var editing = settings(state) else { return XCTFail("settings") }
        let shown = Screens.settings(state.settings, path: "s.json", width: 100, height: 30, editing: editing, sources: state.templates).plainText()
        XCTAssertTrue(shown.contains("✗ could not resolve host — Add source: -team removes it"), shown)
        editing.focus = .source
        state.screen = .settings(editing)
        let (after, effects) = run(typing("-team") + [.enter], from: state)
        XCTAssertEqual(effects.count, 1)
        XCTAssertEqual(after.templates.map(\.name), ["bundled"], "the failed source's status goes with it")
        XCTAssertEqual(LaunchLayout.templateStatusLine(after.templates, tick: 0).text, "", "no warning on the launcher")
    }

    func testGivenUnsavedSettingsWhenEscThenItAsksAndEscAgainDiscards() {
        let (asked, _) = run(typing("Ada") + [.escape], from: settingsApp())
        XCTAssertEqual(asked.confirming, .discardSettings)
        XCTAssertNotNil(settings(asked))
        XCTAssertEqual(run([.escape], from: asked).0.screen, .launch)
        XCTAssertEqual(run([.escape], from: settingsApp()).0.screen, .launch, "nothing edited: back at once")
    }

    // MARK: Paste at the cursor

    func testGivenACursorInsideAFieldWhenPastingThenTheTextGoesAtTheCursor() {
        var state = AppState()
        state.screen = .form(FormState(title: "Open", purpose: .open, fields: [.init(name: "path", label: "Path", value: "docs/report", choices: [], required: true, pattern: nil, message: nil)], focus: 0))
        let paste = Key.paste(PastedText("2026-"))
        let (after, _) = run(Array(repeating: .left, count: 6) + [paste], from: state)
        guard case let .form(form) = after.screen else { return XCTFail("form") }
        XCTAssertEqual(form.fields[0].value, "docs/2026-report")
        XCTAssertEqual(form.fields[0].input.cursor, "docs/2026-".count)
        let prompt = run([.character("a")] + typing("Figs") + [.home, paste], from: editorApp()).0
        XCTAssertEqual(editor(prompt)?.prompt?.text, "2026-Figs")
    }
}

struct NoRecent: RecentDocumentsProvider { func recentDocuments(limit: Int) -> [RecentDocument] { [] } }
struct NoTemplates: TemplateCatalog {
    func sourceNames() -> [String] { [] }
    func templates(in source: String) async throws -> [TemplateSummary] { [] }
}

final class KeysScreensNeverTrapTests: XCTestCase {
    func testGivenEveryNewOverlayAndFieldWhenDrawnAtTinySizesThenNothingTrapsAndNothingLeavesTheGrid() {
        let scene = LaunchScene.defaultScene
        var editor = EditorState(path: "p", title: "T", contentType: "org.folio.story", commands: FakeEditor().commands())
        editor.paletteOpen = true
        editor.paletteFilter = TextField("日本🍣")
        var prompted = editor
        prompted.paletteOpen = false
        prompted.prompt = EditorPrompt(command: EditorCommand(id: "a", title: "Add", usage: "a TITLE"), values: [nil], names: ["TITLE"],
                                       text: String(repeating: "寿司", count: 50), asking: 0)
        var form = FormState(title: "F", purpose: .open, fields: (0..<5).map {
            .init(name: "f\($0)", label: "Label \($0)", value: "値\($0)", choices: [], required: true, pattern: nil, message: "bad")
        }, focus: 4)
        form.scroll = 99
        var state = AppState(recent: Fixtures.recent)
        state.helpOpen = true
        state.helpScroll = 1000
        state.confirming = .quit
        var settings = SettingsState(settings: Settings())
        settings.problems[.authorEmail] = "bad"
        settings.focus = .association
        for width in 0...12 {
            for height in 0...8 {
                _ = Screens.editor(editor, view: FakeEditor(), width: width, height: height)
                _ = Screens.editor(prompted, view: FakeEditor(), width: width, height: height)
                _ = Screens.form(form, width: width, height: height)
                _ = Screens.settings(Settings(), path: "p", width: width, height: height, editing: settings)
                var grid = CellGrid(width: width, height: height)
                Screens.decorate(&grid, state: state, scene: scene)
                XCTAssertEqual(grid.cells.count, max(0, width) * max(0, height))
                _ = TextField("日本").window(width: width)
            }
        }
    }
}
