import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

final class ScreenTests: XCTestCase {
    func testPickerWhileLoading() {
        let grid = Screens.picker(PickerState(), sources: Fixtures.loading, width: 80, height: 16)
        assertGolden(grid.plainText(), "picker-loading")
    }

    func testPickerAfterLoading() {
        let grid = Screens.picker(PickerState(), sources: Fixtures.loaded, width: 80, height: 20)
        assertGolden(grid.plainText(), "picker-loaded")
    }

    func testPickerPartiallyLoadedAndFiltered() {
        let sources = [Fixtures.loaded[0], TemplateSourceStatus(name: "team", state: .loading)]
        let text = Screens.picker(PickerState(filter: "gro"), sources: sources, width: 80, height: 12).plainText()
        XCTAssertTrue(text.contains("team: loading…"))
        XCTAssertTrue(text.contains("Groceries"))
        XCTAssertFalse(text.contains("Novel"))
    }

    func testPickerGroupScope() {
        let visible = PickerState(group: "checklists").visible(Fixtures.loaded)
        XCTAssertEqual(visible.map(\.id), ["lists/groceries"])
        XCTAssertEqual(PickerState(contentType: "org.folio.story").visible(Fixtures.loaded).map(\.name), ["Novel", "Short Story"])
    }

    func testVariableForm() {
        var form = AppState.templateForm(Fixtures.story, folder: "docs")
        form.fields[2].value = "19x4"
        form.fields[2].message = FormState.validate(form.fields[2])
        form.focus = 2
        assertGolden(Screens.form(form, width: 80, height: 18).plainText(), "form")
    }

    func testEditor() {
        var state = EditorState(path: "stories/the-lighthouse", title: "The Lighthouse", contentType: "org.folio.story",
                                commitID: "4f2a9c81d3e0b7aa", commitMessage: "Add the stairs scene", commands: FakeEditor().commands())
        state.cursor = 2
        assertGolden(Screens.editor(state, view: FakeEditor(), width: 80, height: 14).plainText(), "editor")
        state.paletteOpen = true
        assertGolden(Screens.editor(state, view: FakeEditor(), width: 80, height: 14).plainText(), "editor-palette")
        let ansi = Screens.editor(state, view: FakeEditor(), width: 80, height: 14).ansiText(capability: .ansi16)
        XCTAssertTrue(ansi.contains("(needs a selection)"))
    }

    func testHistory() {
        var state = HistoryState()
        state.entries = [
            HistoryEntry(id: "4f2a9c81d3e0", message: "Add the stairs scene", author: "Ada", date: "2025-03-02", tags: ["draft-2"]),
            HistoryEntry(id: "9b1c77e0aa01", message: "Outline acts", author: "Ada", date: "2025-03-01"),
            HistoryEntry(id: "0c3d5e6f7a8b", message: "Create from template stories/short-story", author: "Ada", date: "2025-02-28"),
        ]
        state.loading = false
        state.exhausted = true
        _ = state.followSelection()
        state.receive(HistoryDiff(lines: ["@@ -1,3 +1,4 @@", " # The Lighthouse", "-The keeper climbed.", "+The keeper climbed the stairs at dusk,", "+counting each step as she went."],
                                  kind: .text(note: nil)), for: .commit("4f2a9c81d3e0"))
        assertGolden(Screens.history(state, title: "The Lighthouse", width: 90, height: 12).plainText(), "history")
    }

    func testSettings() {
        let settings = Settings(author: .init(name: "Ada", email: "ada@example.com"), sync: .full,
                                templateSources: [TemplateSourceSetting(name: "folio-templates", url: "https://example.com/t.git", ref: "main")])
        let text = Screens.settings(settings, path: "~/.config/folio/settings.json", width: 70, height: 24).plainText()
        XCTAssertTrue(text.contains("Ada"))
        XCTAssertTrue(text.contains("folio-templates"))
        XCTAssertTrue(text.contains("full"))
    }

    func testScreensNeverTrapOnTinySizes() {
        for (w, h) in [(0, 0), (1, 1), (3, 2), (10, 4)] {
            _ = Screens.picker(PickerState(), sources: Fixtures.loaded, width: w, height: h)
            _ = Screens.form(AppState.templateForm(Fixtures.story, folder: "."), width: w, height: h)
            _ = Screens.editor(EditorState(path: "p", title: "t", contentType: "x"), view: FakeEditor(), width: w, height: h)
            _ = Screens.history(HistoryState(), title: "t", width: w, height: h)
            _ = Screens.settings(Settings(), path: "p", width: w, height: h)
        }
    }
}
