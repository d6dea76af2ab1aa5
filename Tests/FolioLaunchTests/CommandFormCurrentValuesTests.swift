import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// A form starts from the item's current values (`folio.argument-values/1`): it opens at once with what the host knows,
/// asks the editor off the UI thread, and fills the fields the user has not touched when the answer comes; a bad answer
/// is one line in the message log. Shift+arrows pan the view until the cursor moves.
extension CommandFormTests {
    static let shapes = [
        EditorCommand(id: "resize", title: "Resize shapes", shortcut: "s", needsSelection: true, usage: "resize [N:range] W:int+ H:int+"),
        EditorCommand(id: "color", title: "Colour shapes", shortcut: "c", needsSelection: true, usage: "color [N:range] black|red|green|yellow|blue|magenta|cyan|white"),
    ]
    static let shapesLines = ["shape 1 of 2", ">1 red rect at (0, 0), 6 x 3", " 2 blue rect at (70, 2), 8 x 3"]

    /// The request a form sends as it opens: the editor's current values for `command` (on version c1).
    static func asksValues(_ command: String, cursor: Int = 0) -> AppEffect {
        .loadArgumentValues(command: command, base: "c1", selection: ViewSelection.items(cursor: cursor))
    }

    func testGivenSetTextOnASceneWhenTheFormOpensThenItAsksForTheCurrentValuesAndTheSceneTextFillsTheField() throws {
        // Given the story with the cursor on scene 1.1
        let state = editor(Self.story, lines: Self.storyLines, cursor: 1, type: "org.folio.story")
        // When `e` (Set scene text) is pressed
        let (opened, effects) = run([.character("e")], from: state)
        // Then the form is open at once, ACT and SCENE from the cursor, and the editor is asked for the current values
        var prompt = try XCTUnwrap(editorState(opened)?.prompt)
        XCTAssertEqual(prompt.inputs.map(\.text), ["1", "1", ""])
        XCTAssertEqual(effects, [])
        XCTAssertEqual(AppState.argumentValuesRequest(from: editorState(state)?.prompt, to: prompt), Self.asksValues("set-text", cursor: 1))
        // (a key inside the open form asks nothing again)
        let (typed, _) = run([.character("x")], from: opened)
        XCTAssertNil(AppState.argumentValuesRequest(from: prompt, to: editorState(typed)?.prompt))
        // When the editor's values arrive
        var filled = opened
        filled.receiveArgumentValues(.values(["1", "1", "It begins.\nAt dawn."]), command: "set-text", base: "c1", selection: ViewSelection.items(cursor: 1))
        // Then the text field holds the scene's whole text, the form still unedited (Esc closes it at once)
        prompt = try XCTUnwrap(editorState(filled)?.prompt)
        XCTAssertEqual(prompt.inputs[2].text, "It begins.\nAt dawn.")
        XCTAssertEqual(prompt.inputs[2].cursor, 0, "its start shows, and a key typed edits it instead of replacing it")
        XCTAssertFalse(prompt.inputs[2].isSuggested)
        XCTAssertFalse(prompt.isEdited)
        // And ⏎ without changes closes the form saying nothing changed, and runs nothing (no text replaced blind)
        let (kept, none) = run([.enter], from: filled)
        XCTAssertEqual(none, [])
        XCTAssertNil(editorState(kept)?.prompt)
        XCTAssertEqual(editorState(kept)?.hint, "Set scene text: nothing changed")
        // And an edit at its end runs set-text with the whole text and the edit
        let (edited, _) = run([.end] + typing(" Late."), from: filled)
        let (_, runs) = run([.enter], from: edited)
        XCTAssertEqual(runs, [.runEditorCommand("set-text", arguments: ["1", "1", "It begins.\nAt dawn. Late."], base: "c1", selection: ViewSelection.items(cursor: 1))])
        // And ^O hands the prefilled text to $EDITOR
        let (_, edit) = run([.ctrl("o")], from: filled)
        XCTAssertEqual(edit, [.editArgumentText("It begins.\nAt dawn.")])
    }

    func testGivenAFieldTypedInWhenTheValuesArriveLateThenTheTypedValueIsKeptAndTheOthersAreFilled() throws {
        // Given Shapes' resize form on shape 1, Width typed as 9 before the editor answered
        let state = editor(Self.shapes, lines: Self.shapesLines, cursor: 0)
        let (typed, _) = run([.character("s"), .character("9")], from: state)
        XCTAssertEqual(editorState(typed)?.prompt?.inputs.map(\.text), ["", "9", ""])
        // When the values (6 x 3) arrive
        var filled = typed
        filled.receiveArgumentValues(.values([nil, "6", "3"]), command: "resize", base: "c1", selection: ViewSelection.items(cursor: 0))
        // Then Width keeps what was typed and Height starts from the shape's height
        XCTAssertEqual(editorState(filled)?.prompt?.inputs.map(\.text), ["", "9", "3"])
    }

    func testGivenARenameTitleMadeEditableWithEndWhenTheValuesArriveThenTheTitleIsKeptAsEditedText() throws {
        // Given the rename form on "Eggs and bread", End pressed (the suggested title becomes text to edit) before the
        // editor's answer came
        let state = editor(Self.checklist, lines: Self.checklistLines, cursor: 1, type: "org.folio.checklist")
        let (moved, _) = run([.character("r"), .end], from: state)
        let title = try XCTUnwrap(editorState(moved)?.prompt?.inputs.last)
        XCTAssertEqual(title.text, "Eggs and bread")
        XCTAssertFalse(title.isSuggested)
        // When the editor's current title arrives (the same text)
        var filled = moved
        filled.receiveArgumentValues(.values([nil, "Eggs and bread"]), command: "rename", base: "c1", selection: ViewSelection.items(cursor: 1))
        // Then the field is still the edited text, not a suggestion again: " rolls" typed now is appended
        let (typed, _) = run(typing(" rolls"), from: filled)
        XCTAssertEqual(editorState(typed)?.prompt?.inputs.last?.text, "Eggs and bread rolls")
    }

    func testGivenAColourFormWhenTheCurrentColourArrivesThenItIsTheChosenOneAndAColourNotInTheListIsIgnored() throws {
        // Given the colour form on shape 2 (it starts on the first choice, black)
        let state = editor(Self.shapes, lines: Self.shapesLines, cursor: 1)
        let (opened, _) = run([.character("c")], from: state)
        XCTAssertEqual(editorState(opened)?.prompt?.inputs[1].text, "black")
        // When the editor answers blue; Then blue is chosen
        var blue = opened
        blue.receiveArgumentValues(.values([nil, "blue"]), command: "color", base: "c1", selection: ViewSelection.items(cursor: 1))
        XCTAssertEqual(editorState(blue)?.prompt?.inputs[1].text, "blue")
        // And a colour that is not a choice leaves the field as it was
        var odd = opened
        odd.receiveArgumentValues(.values([nil, "chartreuse"]), command: "color", base: "c1", selection: ViewSelection.items(cursor: 1))
        XCTAssertEqual(editorState(odd)?.prompt?.inputs[1].text, "black")
    }

    func testGivenABadOrStaleAnswerWhenItArrivesThenTheFormIsUnchangedAndABadOneIsOneLineInTheMessageLog() throws {
        let (opened, _) = run([.character("s")], from: editor(Self.shapes, lines: Self.shapesLines, cursor: 0))
        let before = try XCTUnwrap(editorState(opened)?.prompt)
        // Given answers with the wrong count, ignored by the session, for another command, or for another selection
        var state = opened
        state.receiveArgumentValues(.values(["6", "3"]), command: "resize", base: "c1", selection: ViewSelection.items(cursor: 0))
        state.receiveArgumentValues(.ignored("editor 'shapes': the answer is not UTF-8"), command: "resize", base: "c1", selection: ViewSelection.items(cursor: 0))
        state.receiveArgumentValues(.values([nil, "blue"]), command: "color", base: "c1", selection: ViewSelection.items(cursor: 0))
        state.receiveArgumentValues(.values([nil, "7", "7"]), command: "resize", base: "c1", selection: ViewSelection.items(cursor: 1))
        // Then the form is as it opened
        XCTAssertEqual(editorState(state)?.prompt, before)
        // And the two bad answers are one line each in the message log
        let lines = state.messageLog.entries.map(\.text)
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertTrue(lines[0].contains("2 values for 3 arguments"), lines[0])
        XCTAssertTrue(lines[1].contains("not UTF-8"), lines[1])
    }

    func testGivenShiftArrowsWhenPressedThenTheViewPansAndMovingTheCursorFollowsItAgain() throws {
        // Given Shapes at 60 columns, the cursor on shape 1
        var state = editor(Self.shapes, lines: Self.shapesLines, cursor: 0)
        if case var .editor(e) = state.screen { e.columns = 60; e.viewRows = 10; state.screen = .editor(e) }
        // When shift+→ twice and shift+↓ once
        let (panned, _) = run([.shiftRight, .shiftRight, .shiftDown], from: state)
        // Then the view is panned by a quarter of its width each time, the cursor where it was
        XCTAssertEqual(editorState(panned)?.pan, ViewPan(x: 28, y: 2))
        XCTAssertEqual(editorState(panned)?.cursor, 0)
        // And the frame asks the view for the panned render
        final class Recorder: EditorViewProvider, @unchecked Sendable {
            var pans: [ViewPan] = []
            func render(_ request: RenderRequest) -> PluginView {
                pans.append(ViewPan(x: request.selection.panX, y: request.selection.panY))
                return .lines(CommandFormTests.shapesLines)
            }
            func commands() -> [EditorCommand] { [] }
            func itemLayout() -> ItemLayout? { ViewLines.outlineLayout(CommandFormTests.shapesLines) }
        }
        let recorder = Recorder()
        _ = Screens.editor(try XCTUnwrap(editorState(panned)), view: recorder, width: 60, height: 16)
        XCTAssertEqual(recorder.pans, [ViewPan(x: 28, y: 2)])
        // When the cursor moves; Then the pan is gone (the view follows the cursor again)
        let (moved, _) = run([.down], from: panned)
        XCTAssertEqual(editorState(moved)?.pan, ViewPan())
    }

    func testGivenShiftArrowBytesWhenDecodedThenTheyAreShiftArrowsAndPlainArrowsStayArrows() {
        // Given xterm's shift+arrow sequences and plain and ctrl arrows
        var decoder = KeyDecoder()
        let keys = decoder.feed(Array("\u{1B}[1;2C\u{1B}[1;2D\u{1B}[1;2A\u{1B}[1;2B\u{1B}[C\u{1B}[1;5C".utf8))
        // Then each is told apart
        XCTAssertEqual(keys, [.shiftRight, .shiftLeft, .shiftUp, .shiftDown, .right, .right])
    }
}
