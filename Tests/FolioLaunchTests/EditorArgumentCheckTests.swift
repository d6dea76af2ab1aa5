import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// Each argument of a command is checked when Enter is pressed on it, with the type its usage declares (the shapes
/// editor's own usage); a refused value stays on the prompt line with the problem above it.
final class EditorArgumentCheckTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let add = EditorCommand(id: "add", title: "Add shape", shortcut: "a", usage: "add rect|ellipse X:int Y:int W:int+ H:int+ [COLOR]")

    func shapes() -> AppState {
        var state = AppState()
        state.screen = .editor(EditorState(path: "s", title: "Logo", contentType: "org.folio.shapes", commitID: "c1", commands: [add]))
        return state
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) {
        var state = state
        var effects: [AppEffect] = []
        for key in keys { let (next, e) = state.handling(key, scene: scene); state = next; effects += e }
        return (state, effects)
    }

    func entering(_ values: [String]) -> [Key] { [.character("a")] + values.flatMap { $0.map(Key.character) + [.enter] } }

    func prompt(_ state: AppState) -> (EditorPrompt?, String?) {
        guard case let .editor(editor) = state.screen else { XCTFail("expected the editor"); return (nil, nil) }
        return (editor.prompt, editor.message)
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
        XCTAssertEqual(prompt(state).1, "W must be a whole number of at least 1, got '0'")
    }

    func testGivenEveryArgumentValidAndColorLeftEmptyWhenSubmittedThenTheCommandRunsOnTheShownVersionWithoutColor() {
        let (state, effects) = run(entering(["rect", "1", "-2", "3", "4", ""]), from: shapes())
        XCTAssertEqual(effects, [.runEditorCommand("add", arguments: ["rect", "1", "-2", "3", "4"], base: "c1")])
        XCTAssertNil(prompt(state).0)
    }

    func testGivenATypedUsageWordThenThePromptLabelShowsItsName() {
        let (state, _) = run(entering(["rect"]), from: shapes())
        guard case let .editor(editor) = state.screen else { return XCTFail("expected the editor") }
        let bar = Screens.editor(editor, view: NumberedEditor(), width: 60, height: 10).plainText().split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        XCTAssertTrue(bar.hasPrefix(" Add shape — X: "), bar)
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
