import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// Every screen at 60×16 and 160×45, as a user sees it (each golden inspected by eye before it was committed).
final class ScreenGoldenSizesTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let sizes = [(60, 16), (160, 45)]
    let services = LaunchServices(recent: NoRecent(), templates: NoTemplates(), document: nil,
                                  settings: Settings(), settingsPath: "~/.config/folio/settings.json")

    func frame(_ state: AppState, _ width: Int, _ height: Int) -> String {
        LaunchApp.frame(state, scene: scene, services: services, width: width, height: height).plainText()
    }

    func sized(_ state: AppState, _ width: Int, _ height: Int) -> AppState {
        var state = state
        state.columns = width; state.rows = height
        return state
    }

    func press(_ keys: [Key], _ state: AppState) -> AppState {
        keys.reduce(state) { $0.handling($1, scene: scene).0 }
    }

    func testLaunchScreenWithPinnedAndMissingRecentDocuments() {
        var recent = Fixtures.recent
        recent[1].pinned = true
        recent.append(RecentDocument(path: "old/gone", title: "Gone away", detail: "missing", missing: true))
        for (w, h) in sizes {
            let state = sized(AppState(recent: RecentList.merge(pinned: [], recent: recent, count: 5), templates: Fixtures.loaded), w, h)
            assertGolden(frame(state, w, h), "sizes/launch-\(w)x\(h)")
            assertGolden(frame(press([.f1], state), w, h), "sizes/launch-help-\(w)x\(h)")
        }
    }

    func testPicker() {
        for (w, h) in sizes {
            var state = sized(AppState(recent: Fixtures.recent, templates: Fixtures.loaded), w, h)
            state.screen = .picker(PickerState(filter: "st"))
            assertGolden(frame(state, w, h), "sizes/picker-\(w)x\(h)")
        }
    }

    func testFormScrolledToItsLastField() {
        for (w, h) in sizes {
            var state = sized(AppState(), w, h)
            var template = Fixtures.story
            template.variables += (1...8).map { TemplateVariable(name: "extra\($0)", prompt: "Extra question number \($0) about the story", defaultValue: "answer \($0)") }
            state.screen = .form(AppState.templateForm(template, folder: "docs"))
            state = press(Array(repeating: .tab, count: 11), state)
            assertGolden(frame(state, w, h), "sizes/form-\(w)x\(h)")
        }
    }

    func testEditorWithPaletteAndHelp() {
        for (w, h) in sizes {
            var editor = EditorState(path: "stories/the-lighthouse", title: "The Lighthouse", contentType: "org.folio.story",
                                     commitID: "4f2a9c8d", commitMessage: "Add the stairs scene",
                                     commands: FakeEditor().commands().map { command in
                                         var command = command
                                         if command.id == "story.act" { command.usage = "add-act TITLE" }
                                         return command
                                     })
            editor.columns = w
            var state = sized(AppState(), w, h)
            state.screen = .editor(editor)
            func draw(_ state: AppState) -> String {
                guard case let .editor(e) = state.screen else { return "" }
                var grid = Screens.editor(e, view: FakeEditor(), width: w, height: h)
                Screens.decorate(&grid, state: state, scene: scene)
                return grid.plainText()
            }
            assertGolden(draw(state), "sizes/editor-\(w)x\(h)")
            assertGolden(draw(press([.ctrl("p")] + "no".map(Key.character), state)), "sizes/editor-palette-filtered-\(w)x\(h)")
            assertGolden(draw(press([.ctrl("p")] + Array(repeating: .down, count: 9), state)), "sizes/editor-palette-end-\(w)x\(h)")
            assertGolden(draw(press([.character("?")], state)), "sizes/editor-help-\(w)x\(h)")
            assertGolden(draw(press([.character("a")] + "A long answer to scroll: 灯台の物語 🏠 and more words".map(Key.character), state)),
                         "sizes/editor-prompt-\(w)x\(h)")
        }
    }

    func testSettingsWithAProblemAndAFailedSource() {
        for (w, h) in sizes {
            var state = sized(AppState(), w, h)
            state.settings = Settings(author: .init(name: "Ada", email: "ada@example.org"), colors: ["accent": "#89b4fa"],
                                      templateSources: [TemplateSourceSetting(name: "team", url: "https://example.invalid/t.git")])
            state.templates = [TemplateSourceStatus(name: "team", state: .failed("could not resolve host example.invalid"))]
            state.knownEditors = ["checklist", "story"]
            state.screen = .settings(SettingsState(settings: state.settings))
            state = press([.down, .down, .down, .down] + "accent=#nothex".map(Key.character) + [.tab], state)
            assertGolden(frame(state, w, h), "sizes/settings-\(w)x\(h)")
        }
    }
}

