import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// Each argument of a command is checked as its field is left (⏎ or Tab), with the type its usage declares (the
/// shapes editor's own usage); a refused value stays in its field with the problem on that field.
final class EditorArgumentCheckTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let add = EditorCommand(id: "add", title: "Add shape", shortcut: "a", usage: "add rect|ellipse X:int Y:int W:int+ H:int+ [COLOR]")

    func shapes() -> AppState {
        .showing(EditorState(path: "s", title: "Logo", contentType: "org.folio.shapes", commitID: "c1", commands: [add]))
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func entering(_ values: [String]) -> [Key] { [.character("a")] + values.flatMap { $0.map(Key.character) + [.enter] } }

    func prompt(_ state: AppState) -> (EditorPrompt?, String?) {
        guard case let .editor(editor) = state.screen else { XCTFail("expected the editor"); return (nil, nil) }
        return (editor.prompt, editor.prompt.flatMap { $0.problems[$0.asking] } ?? editor.message?.text)
    }

    func testGivenXWhenAWordIsEnteredThenItIsRefusedOnXWithTheTextKept() {
        let (state, effects) = run(entering(["rect", "abc"]), from: shapes())
        XCTAssertEqual(effects, [])
        XCTAssertEqual(prompt(state).0?.asking, 1, "still asking X")
        XCTAssertEqual(prompt(state).0?.text, "abc")
        XCTAssertEqual(prompt(state).1, "X must be a whole number, got 'abc'")
        // Fixing it moves on to Y, with the message gone.
        let (fixed, _) = run([.backspace, .backspace, .backspace] + "-4".map(Key.character) + [.enter], from: state)
        XCTAssertEqual(prompt(fixed).0?.asking, 2)
        XCTAssertNil(prompt(fixed).1)
    }

    func testGivenWWhenZeroIsEnteredThenItIsRefusedBeforeHIsAsked() {
        let (state, effects) = run(entering(["ellipse", "1", "2", "0"]), from: shapes())
        XCTAssertEqual(effects, [])
        XCTAssertEqual(prompt(state).0?.asking, 3)
        XCTAssertEqual(prompt(state).1, "Width must be a whole number of at least 1, got '0'")
    }

    func testGivenEveryArgumentValidAndColorLeftEmptyWhenSubmittedThenTheCommandRunsOnTheShownVersionWithoutColor() {
        let (state, effects) = run(entering(["rect", "1", "-2", "3", "4", ""]), from: shapes())
        XCTAssertEqual(effects, [.runEditorCommand("add", arguments: ["rect", "1", "-2", "3", "4"], base: "c1", selection: ViewSelection.items(cursor: 0))])
        XCTAssertNil(prompt(state).0)
    }

    func testGivenTheAddFormThenItsRowsShowReadableLabelsAndWhatEachTakesNeverTheUsageWords() {
        // Given the shapes editor; When `a` opens its form
        let (state, _) = run([.character("a")], from: shapes())
        guard case let .editor(editor) = state.screen else { return XCTFail("expected the editor") }
        let frame = Screens.editor(editor, view: NumberedEditor(), width: 60, height: 16).plainText()
        // Then every argument is a row with its label, and no usage word or usage line shows
        for label in ["Kind", "X", "Y", "Width", "Height", "Color"] { XCTAssertTrue(frame.contains(label), "\(label) in\n\(frame)") }
        XCTAssertTrue(frame.contains("1 or more"), frame)
        XCTAssertTrue(frame.contains("optional"), frame)
        XCTAssertFalse(frame.contains("usage"), frame)
        XCTAssertFalse(frame.contains("W:int+"), frame)
        XCTAssertFalse(frame.contains("rect|ellipse"), frame)
    }

    func testGivenUsageWordsThenTheirTypesAreRead() {
        XCTAssertEqual(CommandArgument(usageWord: "W:int+").kind, .positiveInteger)
        XCTAssertEqual(CommandArgument(usageWord: "W:int+").name, "W")
        XCTAssertEqual(CommandArgument(usageWord: "[N:int]").kind, .integer)
        XCTAssertEqual(CommandArgument(usageWord: "[N:int]").optional, true)
        XCTAssertEqual(CommandArgument(usageWord: "URL:port").name, "URL:port", "an unknown type is part of the name")
        XCTAssertNil(CommandArgument(usageWord: "X:int").problem(with: " 12 "))
        XCTAssertNotNil(CommandArgument(usageWord: "X:int").problem(with: "99999999999999999999999"), "too big is not a number, and never traps")
    }
}

/// The story's outline rows are the items the cursor moves over, and a command's ACT and SCENE are suggested from
/// the row under the cursor.
final class OutlineCursorTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let outline = [
        "Voyage                           4 words",
        " 1 Act I: Departure              4 words",
        "   1.1 The Call                  4 words",
        "   1.2 Silence                   0 words",
        " 2 Act II: Return                0 words",
        "── 1.1 The Call ────────────────────────",
        "│ 3 ships sailed.",
    ]
    let commands = [
        EditorCommand(id: "add-scene", title: "Add scene", shortcut: "a", needsSelection: true, usage: "add-scene ACT:int+ TITLE"),
        EditorCommand(id: "set-text", title: "Set scene text", shortcut: "e", needsSelection: true, usage: "set-text ACT:int+ SCENE:int+ TEXT"),
    ]

    func story(cursor: Int) -> AppState {
        .showing(EditorState(path: "v", title: "Voyage", contentType: "org.folio.story", commitID: "c1", commands: commands),
                 items: ViewLines.outlineLayout(outline), cursor: cursor)
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func promptText(_ state: AppState) -> String? {
        if case let .editor(editor) = state.screen { return editor.prompt?.text }
        return nil
    }

    func fieldTexts(_ state: AppState) -> [String]? {
        if case let .editor(editor) = state.screen { return editor.prompt?.inputs.map(\.text) }
        return nil
    }

    func testGivenAStoryOutlineThenEveryActAndSceneRowIsAnItemWithItsPositionAndTheTextBelowIsNot() {
        var expected = ItemLayout(count: 4, headerLines: 1, paths: [[1], [1, 1], [1, 2], [2]])
        expected.titles = ["Act I: Departure", "The Call", "Silence", "Act II: Return"]
        XCTAssertEqual(ViewLines.outlineLayout(outline), expected)
        XCTAssertEqual(ViewLines.itemIndex(">  1.2 Silence    0 words", in: ViewLines.outlineLayout(outline)), 2)
        XCTAssertNil(ViewLines.itemPath("  1.x Odd"))
        XCTAssertNil(ViewLines.itemPath("  99999999999999999999 overflow"), "never traps")
    }

    func testGivenTheCursorOnScene12WhenAddSceneIsPressedThenACTIsSuggestedAs1AndTheTitleIsAsked() {
        let (asking, _) = run([.character("a")], from: story(cursor: 2))
        XCTAssertEqual(fieldTexts(asking), ["1", ""])
        XCTAssertEqual(promptText(asking), "", "the focus is on the title, after the position")
        let (_, effects) = run("Storm".map(Key.character) + [.enter], from: asking)
        XCTAssertEqual(effects, [.runEditorCommand("add-scene", arguments: ["1", "Storm"], base: "c1", selection: ViewSelection.items(cursor: 2))])
    }

    func testGivenTheCursorOnAct2WhenAddSceneIsPressedThenACTIsSuggestedAs2() {
        XCTAssertEqual(fieldTexts(run([.character("a")], from: story(cursor: 3)).0)?.first, "2")
    }

    func testGivenTheCursorOnScene12WhenSetTextIsPressedThenACTAndSCENEAreSuggestedAndTEXTIsFocused() {
        let (form, _) = run([.character("e")], from: story(cursor: 2))
        XCTAssertEqual(fieldTexts(form), ["1", "2", ""])
        guard case let .editor(editor) = form.screen else { return XCTFail("expected the editor") }
        XCTAssertEqual(editor.prompt?.asking, 2)
    }

    func testGivenTheCursorOnAnActWhenSetTextIsPressedThenSCENEIsAskedEmpty() {
        let (form, _) = run([.character("e")], from: story(cursor: 0))
        XCTAssertEqual(fieldTexts(form), ["1", "", ""])
        XCTAssertEqual(promptText(form), "", "the focus is on SCENE")
    }
}
