import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// The settings screen (issue 23): colors from a named list, template sources checked in the background, and a field
/// typed then cleared is not "unsaved".
final class SettingsColorsAndSourcesTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func settingsApp(_ width: Int = 100, _ height: Int = 30, focus: SettingsState.Field = .authorName) -> AppState {
        var state = AppState()
        state.columns = width; state.rows = height
        var editing = SettingsState(settings: state.settings)
        editing.focus = focus
        state.screen = .settings(editing)
        return state
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) {
        keys.reduce((state, [])) { acc, key in let (next, effects) = acc.0.handling(key, scene: scene); return (next, acc.1 + effects) }
    }
    func typing(_ text: String) -> [Key] { text.map(Key.character) }
    func editing(_ state: AppState) -> SettingsState? { if case let .settings(s) = state.screen { return s } else { return nil } }

    func testAColorForAPartFolioDoesNotColorIsRefused() {
        // Given the color field
        // When "bogus=red" is typed and the field left
        let (after, effects) = run(typing("bogus=red") + [.tab], from: settingsApp(focus: .color))
        // Then it is refused on its field, naming the parts Folio colors; nothing saved, the value kept
        let shown = editing(after)
        XCTAssertEqual(shown?.focus, .color)
        XCTAssertTrue(shown?.problems[.color]?.contains("'bogus' is not a part Folio colors") == true, "\(String(describing: shown?.problems))")
        XCTAssertTrue(frame(after).contains("parts: accent title subtitle"), frame(after))
        XCTAssertEqual(shown?.colorEntry, "bogus=red")
        XCTAssertEqual(effects, [])
    }

    func testAColorFromTheListIsSaved() {
        // Given the color field
        // When "key=bright-magenta" is typed and saved
        let (_, effects) = run(typing("key=bright-magenta") + [.enter], from: settingsApp(focus: .color))
        // Then it is saved
        XCTAssertEqual(effects, [.saveSettings(Settings(colors: ["key": "bright-magenta"]))])
        // And a name that is not a color is refused
        let (refused, none) = run(typing("key=chartreuse") + [.enter], from: settingsApp(focus: .color))
        XCTAssertEqual(none, [])
        XCTAssertEqual(editing(refused)?.problems[.color], "'chartreuse' is not a color (a name below, or #rrggbb)")
    }

    func testTheColorNamesAndPartsAreShownUnderTheFocusedColorField() {
        // Given the color field focused
        let state = settingsApp(100, 30, focus: .color)
        guard let shown = editing(state) else { return XCTFail() }
        let text = Screens.settings(state.settings, path: "settings.json", width: 100, height: 30, editing: shown).plainText()
        // Then every color name and every part is on the screen
        for name in TerminalColor.NamedColor.allCases.map(\.name) + ["default"] { XCTAssertTrue(text.contains(name), name) }
        XCTAssertTrue(text.contains("parts: accent title subtitle"), text)
        for part in ColorSlots.names { XCTAssertTrue(text.contains(" \(part)"), part) }
    }

    func testTypingThenClearingAFieldAndEscLeavesWithoutAsking() {
        // Given the settings screen
        // When a name is typed then erased, and Esc pressed
        let (after, _) = run(typing("Ada") + Array(repeating: .backspace, count: 3) + [.escape], from: settingsApp())
        // Then it goes back at once, nothing asked
        XCTAssertNil(after.confirming)
        XCTAssertEqual(after.screen, .launch)
        // And a real change still asks
        let (changed, _) = run(typing("Ada") + [.escape], from: settingsApp())
        XCTAssertEqual(changed.confirming, .discardSettings)
        // And switching durability twice is back to as it was
        let (toggled, _) = run([.down, .down, .right, .right, .escape], from: settingsApp())
        XCTAssertNil(toggled.confirming)
    }

    func testASourceIsCheckedWhenItsFieldIsLeftAndTheResultShown() {
        // Given the source field with a new source typed
        let typed = run(typing("team git://127.0.0.1:9/t.git"), from: settingsApp(100, 30, focus: .source)).0
        // When the field is left
        let (left, effects) = run([.tab], from: typed)
        // Then its check starts in the background and the screen says so
        guard case let .checkTemplateSource(check)? = effects.first else { return XCTFail("no check: \(effects)") }
        XCTAssertEqual(check.name, "team")
        XCTAssertEqual(check.url, "git://127.0.0.1:9/t.git")
        XCTAssertTrue(frame(left).contains("checking team (git://127.0.0.1:9/t.git)…"), frame(left))
        // When the check fails
        var failed = left
        var result = check
        result.state = .failed("could not be read: connection refused")
        failed.receiveSourceCheck(result)
        // Then the reason is shown, and saving is refused with the reason on the field
        XCTAssertTrue(frame(failed).contains("✗ team: could not be read: connection refused"), frame(failed))
        let (refused, none) = run([.enter], from: failed)
        XCTAssertEqual(none, [])
        XCTAssertEqual(editing(refused)?.problems[.source], "could not be read: connection refused")
        // And when it is found instead, the screen says what it holds and ⏎ saves
        var found = left
        result.state = .found("3 templates")
        found.receiveSourceCheck(result)
        XCTAssertTrue(frame(found).contains("✓ team: a template repository, 3 templates"), frame(found))
        let (_, saved) = run([.enter], from: found)
        XCTAssertEqual(saved, [.saveSettings(Settings(templateSources: [TemplateSourceSetting(name: "team", url: "git://127.0.0.1:9/t.git")]))])
    }

    func frame(_ state: AppState) -> String {
        guard let shown = editing(state) else { return "" }
        return Screens.settings(state.settings, path: "settings.json", width: state.columns, height: state.rows, editing: shown).plainText()
    }

    func testGoldenColorList() {
        for (w, h) in [(60, 16), (100, 30), (160, 45)] {
            let state = run(typing("bogus=red") + [.tab], from: settingsApp(w, h, focus: .color)).0
            assertGolden(frame(state), "launcher23/settings-colors-\(w)x\(h)")
        }
    }
}
