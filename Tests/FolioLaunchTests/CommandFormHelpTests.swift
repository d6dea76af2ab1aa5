import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// The help overlay lists a command form's keys in a section of their own, and F1 in a form opens it there (a prompt
/// of one field still opens at "Prompt").
final class CommandFormHelpTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    static let shapesAdd = EditorCommand(id: "add", title: "Add shape", shortcut: "a", usage: "add rect|ellipse X:int Y:int W:int+ H:int+ [COLOR]")

    func editorApp(columns: Int, rows: Int) -> AppState {
        var state = AppState()
        var editor = EditorState(path: "d", title: "Drawing", contentType: "org.folio.shapes", commitID: "c1",
                                 commands: NumberedEditor().commands().filter { $0.id != "add" } + [Self.shapesAdd])
        editor.items = NumberedEditor().itemLayout()
        editor.columns = columns
        state.columns = columns; state.rows = rows
        state.screen = .editor(editor)
        return state
    }

    func run(_ keys: [Key], from state: AppState) -> AppState {
        var state = state
        for key in keys { state = state.handling(key, scene: scene).0 }
        return state
    }

    func shown(_ state: AppState) -> [HelpLine] {
        // The rows drawn (long lines wrap), from the first one shown
        let rows = Screens.helpDisplayRows(state.shownHelpLines(scene: scene), width: state.columns)
        return rows.dropFirst(state.helpScroll).prefix(Screens.helpRows(height: state.rows)).map { HelpLine(keys: $0.keys, text: $0.text, heading: $0.heading) }
    }

    func testGivenTheEditorWhenHelpIsOpenedThenItListsTheCommandFormKeysFromTheFormsKeyHandling() {
        // Given the editor; When ? opens the help
        let lines = run([.character("?")], from: editorApp(columns: 80, rows: 24)).helpLines(scene: scene)
        // Then a section names the form's keys: moving between fields, ⏎, choices, ^O for $EDITOR, esc
        guard let start = lines.firstIndex(where: { $0.heading && $0.text.hasPrefix("Command form") }) else {
            return XCTFail("no command form section: \(lines.map(\.text))")
        }
        let section = lines[(start + 1)...].prefix { !$0.heading }
        for keys in ["↓ Tab", "↑ ⇧Tab", "⏎", "←", "→ ␣", "^O", "esc"] {
            XCTAssertTrue(section.contains { $0.keys == keys }, "\(keys) is missing: \(section.map(\.keys))")
        }
        XCTAssertTrue(section.contains { $0.keys == "^O" && $0.text.contains("$EDITOR") })
    }

    func testGivenACommandFormWhenF1IsPressedThenHelpOpensAtTheCommandFormSection() {
        // Given the add form (six fields) at 60×16; When F1 is pressed
        let help = run([.character("a"), .f1], from: editorApp(columns: 60, rows: 16))
        // Then the help is open and its first row is the command form's heading
        XCTAssertTrue(help.helpOpen)
        XCTAssertEqual(shown(help).first, HelpLine.heading("Command form (a command with several fields)"))
        // And a prompt of one field still opens at the prompt's section
        let prompt = run([.character("r"), .f1], from: editorApp(columns: 60, rows: 16))
        XCTAssertTrue(shown(prompt).first?.text.hasPrefix("Prompt") == true, "\(shown(prompt).map(\.text))")
    }

    func testCommandFormHelpAt60x16And160x45() {
        for (w, h) in [(60, 16), (160, 45)] {
            let state = run([.character("a"), .f1], from: editorApp(columns: w, rows: h))
            guard case let .editor(editor) = state.screen else { return XCTFail("the editor") }
            var grid = Screens.editor(editor, view: NumberedEditor(), width: w, height: h)
            Screens.decorate(&grid, state: state, scene: scene)
            assertGolden(grid.plainText(), "sizes/command-form-help-\(w)x\(h)")
        }
    }
}
