import Foundation
import XCTest
import FolioCore
import FolioTemplates
@testable import FolioLaunch
@testable import FolioTerminal

/// Forms check each field as it is left and command prompts each argument as it is entered; a failed final action
/// comes back to the form or the prompt with every value kept.
final class FormValidationTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    /// A swift/package-like template: a name and a year declared as a whole number from 1970 to 2100.
    func packageForm() throws -> AppState {
        let json = #"{"name": "year", "type": "int", "prompt": "Year", "min": 1970, "max": 2100, "default": 2025}"#
        let year = try JSONDecoder().decode(FolioTemplates.TemplateVariable.self, from: Data(json.utf8))
        let template = TemplateSummary(id: "swift/package", name: "Package", contentType: "public.plain-text", variables: [
            TemplateVariable(name: "name", prompt: "Name", defaultValue: "Demo", required: true),
            TemplateVariable(name: "year", prompt: "Year", defaultValue: "2025", declaration: year),
        ])
        var state = AppState()
        state.screen = .form(AppState.templateForm(template, folder: "."))
        return state
    }

    func testGivenYearAbcWhenTheFieldIsLeftThenTheErrorIsOnTheFieldAndEveryValueIsKept() throws {
        let keys: [Key] = typing("Kit") + [.tab] + Array(repeating: .backspace, count: 4) + typing("abc") + [.tab]
        let (state, effects) = run(keys, from: try packageForm())
        XCTAssertEqual(effects, [])
        guard let form = form(state) else { return }
        XCTAssertEqual(form.focus, 1, "the focus stays on the year")
        XCTAssertEqual(form.fields[1].message, "'abc' is not a whole number")
        XCTAssertEqual(form.fields.map(\.value), ["Kit", "abc", "package"], "typing replaced the default name")
        XCTAssertTrue(Screens.form(form, width: 80, height: 16).plainText().contains("✗ 'abc' is not a whole number"))
    }

    func testGivenAYearOutOfRangeWhenEnterIsPressedThenTheTemplatesOwnRangeCheckRefusesIt() throws {
        let (state, effects) = run([.tab] + Array(repeating: .backspace, count: 4) + typing("1800") + [.enter], from: try packageForm())
        XCTAssertEqual(effects, [])
        XCTAssertEqual(form(state)?.fields[1].message, "1800 is less than 1970")
    }

    func testGivenAnInvalidYearWhenItIsFixedThenTheFormProceedsAndCreates() throws {
        let bad: [Key] = [.tab] + Array(repeating: .backspace, count: 4) + typing("abc") + [.tab]
        let fixed: [Key] = Array(repeating: .backspace, count: 3) + typing("2024") + [.tab, .enter]
        let (state, effects) = run(bad + fixed, from: try packageForm())
        XCTAssertEqual(effects, [.instantiate(templateID: "swift/package", answers: ["name": "Demo", "year": "2024"], destination: "package")])
        XCTAssertEqual(state.screen, .launch)
    }

    func testGivenAnInvalidFieldLeftUpwardsWhenTheLastFieldSubmitsThenTheFocusGoesBackToIt() throws {
        let keys: [Key] = [.tab] + Array(repeating: .backspace, count: 4) + typing("x") + [.backTab, .down, .down]
        let (moved, _) = run(keys, from: try packageForm())
        XCTAssertEqual(form(moved)?.focus, 1, "Down does not leave an invalid field")
        let (state, effects) = run([.up, .enter, .enter], from: moved)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(form(state)?.fields[1].value, "x")
        XCTAssertEqual(form(state)?.fields[1].message, "'x' is not a whole number")
    }

    func testGivenOpenWithABadPathWhenOpeningFailsThenTheFormComesBackWithThePathAndTheError() {
        let (submitted, effects) = run([.character("o")] + typing("nowhere/doc") + [.enter], from: AppState())
        XCTAssertEqual(effects, [.open(path: "nowhere/doc")])
        guard case let .form(asked) = run([.character("o")] + typing("nowhere/doc"), from: AppState()).0.screen else { return XCTFail("expected the form") }
        var state = submitted
        state.returningToForm(asked, failure: "nowhere/doc: no such document")
        guard let form = form(state) else { return }
        XCTAssertEqual(form.fields[0].value, "nowhere/doc")
        XCTAssertEqual(form.fields[0].message, "nowhere/doc: no such document")
        XCTAssertEqual(run(typing("2") + [.enter], from: state).1, [.open(path: "nowhere/doc2")], "the kept path can be corrected")
    }

    func testGivenInstantiatingFailsOnAVariableThenTheErrorIsOnThatFieldWithTheAnswersKept() throws {
        guard let asked = form(try packageForm()) else { return }
        var state = AppState()
        state.returningToForm(asked, failure: "swift/package: variable 'name': 'Demo' does not match the pattern [a-z]+")
        XCTAssertEqual(form(state)?.focus, 0)
        XCTAssertEqual(form(state)?.fields[0].message, "swift/package: variable 'name': 'Demo' does not match the pattern [a-z]+")
        XCTAssertEqual(form(state)?.fields.map(\.value), ["Demo", "2025", "package"])
    }

    // MARK: - Editor command arguments

    func shapes() -> AppState {
        var state = AppState()
        let add = EditorCommand(id: "add", title: "Add shape", shortcut: "a", usage: "add rect|ellipse X Y W H [COLOR]")
        state.screen = .editor(EditorState(path: "s", title: "Logo", contentType: "org.folio.shapes", commands: [add]))
        return state
    }

    func prompt(_ state: AppState) -> (EditorPrompt?, String?) {
        guard case let .editor(editor) = state.screen else { XCTFail("expected the editor"); return (nil, nil) }
        return (editor.prompt, editor.prompt.flatMap { $0.problems[$0.asking] } ?? editor.message?.text)
    }

    func testGivenTheShapesAddFormWhenLettersAreTypedOnTheKindThenItPicksAChoiceAndNeverHoldsAnythingElse() {
        // Given the add form, its kind on the first choice
        let (opened, _) = run([.character("a")], from: shapes())
        XCTAssertEqual(prompt(opened).0?.input.text, "rect")
        // When "triangle" is typed on it (t: no choice; r: rect; i: no choice…), then "e"
        let (typed, effects) = run(typing("triangle"), from: opened)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(prompt(typed).0?.asking, 0, "still on the kind")
        XCTAssertTrue(["rect", "ellipse"].contains(prompt(typed).0?.input.text ?? ""), "only a choice")
        XCTAssertEqual(prompt(run([.character("e")], from: opened).0).0?.input.text, "ellipse")
        // Then → and ← cycle through the choices
        XCTAssertEqual(prompt(run([.right], from: opened).0).0?.input.text, "ellipse")
        XCTAssertEqual(prompt(run([.right, .right], from: opened).0).0?.input.text, "rect")
        XCTAssertEqual(prompt(run([.left], from: opened).0).0?.input.text, "ellipse")
    }

    func testGivenTheOptionalColorWhenLeftEmptyThenTheCommandRunsWithoutIt() {
        let keys: [Key] = [.character("a")] + ["rect", "1", "2", "3", "4"].flatMap { typing($0) + [.enter] }
        let (state, effects) = run(keys, from: shapes())
        XCTAssertEqual(effects, [.runEditorCommand("add", arguments: ["rect", "1", "2", "3", "4"], selection: ViewSelection.items(cursor: 0))])
        XCTAssertNil(prompt(state).0)
    }

    func testGivenARequiredArgumentWhenLeftEmptyThenItsFieldSaysSoAndKeepsTheFocus() {
        // Given the add form on X; When ⏎ is pressed with X empty
        let (state, effects) = run([.character("a"), .enter, .enter], from: shapes())
        // Then nothing runs, X keeps the focus and says it is needed, in words
        XCTAssertEqual(effects, [])
        XCTAssertEqual(prompt(state).0?.asking, 1)
        XCTAssertEqual(prompt(state).1, "X is needed")
    }

    func testGivenTheEditorRefusesTheCommandThenTheFormComesBackOnTheNamedFieldWithValuesKeptAndNoUsageLine() {
        // Given a form submitted with X "x" (the plain usage "X" takes any text) that the editor refuses
        let keys: [Key] = [.character("a")] + ["rect", "x", "2", "3", "4"].flatMap { typing($0) + [.tab] } + typing("red") + [.enter]
        var (state, effects) = run(keys, from: shapes())
        XCTAssertEqual(effects, [.runEditorCommand("add", arguments: ["rect", "x", "2", "3", "4", "red"], selection: ViewSelection.items(cursor: 0))])
        _ = state.finishingCall(.failed("X must be a whole number: 'x' (usage: add rect|ellipse X Y W H [COLOR])"))
        // When the form comes back
        state.reopeningPrompt(after: effects[0], failure: "X must be a whole number: 'x' (usage: add rect|ellipse X Y W H [COLOR])")
        // Then X is focused with its value, the reason on it without the usage line, every other value kept
        let (asking, message) = prompt(state)
        XCTAssertEqual(asking?.asking, 1)
        XCTAssertEqual(asking?.text, "x")
        XCTAssertEqual(message, "X must be a whole number: 'x'")
        XCTAssertEqual(asking?.inputs.map(\.text), ["rect", "x", "2", "3", "4", "red"])
        let (_, again) = run([.backspace] + typing("5") + [.enter], from: state)
        XCTAssertEqual(again, [.runEditorCommand("add", arguments: ["rect", "5", "2", "3", "4", "red"], selection: ViewSelection.items(cursor: 0))])
    }

    func testGivenTheRefusalNamesALaterArgumentBeforeTheUsageThenThatFieldShowsItByItsLabel() {
        let failure = "shapes add: W must be a whole number of at least 1: got '0' (usage: add rect|ellipse X Y W H [COLOR])"
        var state = shapes()
        state.reopeningPrompt(after: .runEditorCommand("add", arguments: ["rect", "5", "6", "0", "4"]), failure: failure)
        XCTAssertEqual(prompt(state).0?.asking, 3, "W, not the X of the usage")
        XCTAssertEqual(prompt(state).0?.text, "0")
        XCTAssertEqual(prompt(state).1, "Width must be a whole number of at least 1: got '0'")
        let (_, again) = run([.backspace] + typing("7") + [.enter], from: state)
        XCTAssertEqual(again, [.runEditorCommand("add", arguments: ["rect", "5", "6", "7", "4"])], "the empty COLOR is still left out")
    }

    func testGivenTheCursorOnLineTwoWhenDeleteLineIsInvokedThenLineTwoIsDeletedWithoutAsking() {
        var state = AppState()
        let delete = EditorCommand(id: "delete-line", title: "Delete line", shortcut: "d", needsSelection: true, usage: "delete-line LINE")
        var editor = EditorState(path: "t", title: "Notes", contentType: "public.plain-text", commands: [delete])
        editor.items = ItemLayout(count: 3, headerLines: 0)
        state.screen = .editor(editor)
        let (after, effects) = run([.down, .character("d")], from: state)
        XCTAssertNil(prompt(after).0, "the line is the cursor's: nothing is asked")
        XCTAssertEqual(effects, [.runEditorCommand("delete-line", arguments: ["2"], selection: ViewSelection.items(cursor: 1))])
        XCTAssertEqual(run([.down, .character("v"), .down, .character("d")], from: state).1, [.runEditorCommand("delete-line", arguments: ["2-3"], selection: ViewSelection.items(cursor: 2, anchor: 1))])
    }

    // MARK: - Golden frames

    struct BlankView: EditorViewProvider {
        func render(_ request: RenderRequest) -> PluginView { ["1 shape"] }
        func commands() -> [EditorCommand] { [] }
        func itemLayout() -> ItemLayout? { nil }
    }

    func testGoldenShapesFormRefusingAnEmptyXKeepsTheOtherValuesAndShowsWhyOnX() {
        let (state, _) = run([.character("a"), .right, .tab, .tab], from: shapes())
        guard case let .editor(editor) = state.screen else { return XCTFail("expected the editor") }
        assertGolden(Screens.editor(editor, view: BlankView(), width: 60, height: 12).plainText(), "prompt-refused")
    }

    func testGoldenOpenFormBackWithItsError() {
        guard case let .form(asked) = run([.character("o")] + typing("nowhere/doc"), from: AppState()).0.screen else { return XCTFail("expected the form") }
        var state = AppState()
        state.returningToForm(asked, failure: "/home/u/nowhere/doc: not a Folio document (no such folder)")
        guard let form = form(state) else { return }
        assertGolden(Screens.form(form, width: 80, height: 10).plainText(), "form-open-failed")
    }
}
