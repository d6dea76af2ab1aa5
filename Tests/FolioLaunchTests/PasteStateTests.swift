import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

final class PasteStateTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func editorApp(_ commands: [EditorCommand] = NumberedEditor().commands()) -> AppState {
        .showing(EditorState(path: "g", title: "Groceries", contentType: "org.folio.checklist", commands: commands), items: ItemLayout(count: 3, headerLines: 1))
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func editor(_ state: AppState) -> EditorState? {
        if case let .editor(editor) = state.screen { return editor }
        return nil
    }

    func testGivenTheAddPromptWhenTextWithANewlineIsPastedAndEnterPressedThenOneItemWithASpace() {
        let (state, effects) = run([.character("a"), .paste(PastedText("Figs\ndates")), .enter], from: editorApp())
        XCTAssertEqual(effects, [.runEditorCommand("add", arguments: ["Figs dates"], selection: ViewSelection.items(cursor: 0))], "one add, no delete, no second prompt")
        XCTAssertNil(editor(state)?.prompt)
    }

    func testGivenAOneLinePromptWithTextWhenPastedThenTheTextIsAppendedWithTabsAsSpaces() {
        let (state, effects) = run([.character("a"), .character("x"), .paste(PastedText("a\tb\nc"))], from: editorApp())
        XCTAssertEqual(effects, [])
        XCTAssertEqual(editor(state)?.prompt?.text, "xa b c")
    }

    func testGivenAMultiLineTextArgumentWhenPastedThenNewlinesAreKeptAndShownAsReturnSigns() {
        let setText = EditorCommand(id: "set-text", title: "Set scene text", shortcut: "e", usage: "set-text ACT SCENE TEXT")
        var state = editorApp([setText])
        guard var editor = editor(state) else { return XCTFail() }
        editor.prompt = EditorPrompt(command: setText, values: ["1", "1", nil], names: ["ACT", "SCENE", "TEXT"], asking: 2)
        state.screen = .editor(editor)
        let (after, effects) = run([.paste(PastedText("First line.\nSecond\tline.")), .enter], from: state)
        XCTAssertEqual(effects, [.runEditorCommand("set-text", arguments: ["1", "1", "First line.\nSecond\tline."])])
        XCTAssertNil(self.editor(after)?.prompt)
        editor.prompt?.text = "a\nb"
        XCTAssertEqual(editor.prompt?.shownText, "a⏎b")
    }

    func testGivenTheEditorWithoutAFieldWhenTextIsPastedThenNothingRunsAndTheHintNamesTheTextCommands() {
        let before = editorApp()
        let (state, effects) = run([.paste(PastedText("d\nad ar\u{20}q"))], from: before)
        XCTAssertEqual(effects, [], "a paste is never commands: no delete, add, toggle or quit")
        XCTAssertEqual(editor(state)?.prompt, nil)
        XCTAssertEqual(editor(state)?.cursor, editor(before)?.cursor)
        XCTAssertEqual(editor(state)?.message, .failure("paste ignored: open a field first (a to add item, r to rename item)"))
        var expected = editor(before)
        expected?.message = editor(state)?.message
        XCTAssertEqual(editor(state), expected, "nothing but the status line changed")
    }

    func testGivenTheLauncherWhenPastedThenNothingIsActivatedAndTheHintShows() {
        let (state, effects) = run([.paste(PastedText("q"))], from: AppState())
        XCTAssertEqual(effects, [], "a pasted q does not quit")
        XCTAssertEqual(state.screen, .launch)
        XCTAssertEqual(state.message, .failure("paste ignored: open a field first (/ to filter)"))
    }

    func testGivenTheLauncherFilterWhenPastedThenTheFilterGetsTheTextOnOneLine() {
        let (state, _) = run([.character("/"), .paste(PastedText("gro\ncery"))], from: AppState())
        XCTAssertEqual(state.filter, "gro cery")
    }

    func testGivenAFormFieldWhenPastedThenItsValueGetsTheTextOnOneLine() {
        var state = AppState()
        state.screen = .form(FormState(title: "Open", purpose: .open, fields: [
            .init(name: "path", label: "Path", value: "/tmp/", choices: [], required: true, pattern: nil, message: "old error"),
        ], focus: 0))
        let (after, effects) = run([.paste(PastedText("my\r\ndoc"))], from: state)
        XCTAssertEqual(effects, [])
        guard case let .form(form) = after.screen else { return XCTFail("the form stays open") }
        XCTAssertEqual(form.fields[0].value, "my doc", "a paste replaces the field's default as typing does")
        XCTAssertNil(form.fields[0].message)
    }

    func testGivenACommandRunningWhenPastedThenThePasteWaitsAsTypeAheadNotAsKeys() {
        let (running, _) = run([.character("a"), .character("x"), .enter], from: editorApp())
        XCTAssertNotNil(running.call)
        let (after, effects) = run([.paste(PastedText("d"))], from: running)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(after.typeAhead, [.paste(PastedText("d"))])
    }
}
