import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// A command with several arguments opens one form (every argument a field, with a readable label, prefilled from the
/// cursor's item and its current title, checked as each field is left); a command that cannot take the selection
/// says so before asking anything; a text field can be edited in the user's editor.
final class CommandFormTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    static let shapesAdd = EditorCommand(id: "add", title: "Add shape", shortcut: "a", usage: "add rect|ellipse X:int Y:int W:int+ H:int+ [COLOR]")
    static let checklist = [
        EditorCommand(id: "rename", title: "Rename item", shortcut: "r", needsSelection: true, usage: "rename N TITLE"),
        EditorCommand(id: "move", title: "Move item", shortcut: "m", needsSelection: true, usage: "move N TO:int+"),
    ]
    static let story = [
        EditorCommand(id: "move-scene", title: "Move scene", shortcut: "m", needsSelection: true, usage: "move-scene ACT:int+ SCENE:int+ TO_ACT:int+ TO_POS:int+"),
        EditorCommand(id: "set-text", title: "Set scene text", shortcut: "e", needsSelection: true, usage: "set-text ACT:int+ SCENE:int+ TEXT"),
        EditorCommand(id: "rename-act", title: "Rename act", shortcut: "R", needsSelection: true, usage: "rename-act ACT:int+ TITLE"),
    ]
    static let checklistLines = ["Groceries  (0/3 done)", ">1 [ ] Milk", " 2 [x] Eggs and bread", " 3 [ ] Tea"]
    static let storyLines = ["Voyage                      8 words", " 1 Act I: Departure         4 words", "   1.1 The Call            4 words",
                             "   1.2 Silence             0 words", " 2 Act II: Return          4 words", "   2.1 Home                4 words"]

    struct Lines: EditorViewProvider {
        let lines: [String]
        func render(_ request: RenderRequest) -> PluginView { .lines(Array(lines.prefix(request.height))) }
        func commands() -> [EditorCommand] { [] }
        func itemLayout() -> ItemLayout? { ViewLines.outlineLayout(lines) }
    }

    func editor(_ commands: [EditorCommand], lines: [String] = [], cursor: Int = 0, type: ContentType = "org.folio.shapes") -> AppState {
        .showing(EditorState(path: "d", title: "Doc", contentType: type, commitID: "c1", commands: commands),
                 items: lines.isEmpty ? nil : ViewLines.outlineLayout(lines), cursor: cursor)
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func typing(_ text: String) -> [Key] { text.map(Key.character) }

    func editorState(_ state: AppState) -> EditorState? {
        if case let .editor(editor) = state.screen { return editor }
        XCTFail("expected the editor")
        return nil
    }

    // MARK: One form

    func testGivenShapesWhenAIsPressedThenOneFormAsksAllSixArgumentsWithReadableLabels() {
        // Given the shapes editor; When `a` is pressed
        let (state, effects) = run([.character("a")], from: editor([Self.shapesAdd]))
        // Then one form holds six fields, the kind on its first choice and focused, nothing run yet
        XCTAssertEqual(effects, [])
        let prompt = editorState(state)?.prompt
        XCTAssertEqual(prompt?.isForm, true)
        XCTAssertEqual(prompt?.asked.count, 6)
        XCTAssertEqual(prompt?.asking, 0)
        XCTAssertEqual(prompt?.asked.map { prompt?.argument($0).label ?? "" }, ["Kind", "X", "Y", "Width", "Height", "Color"])
        XCTAssertEqual(prompt?.input.text, "rect")
    }

    func testGivenTheShapesFormWhenEveryFieldIsFilledWithTabThenOneCommandRunsWithAllSixValues() {
        // Given the form; When the kind is switched and every field typed, Tab between them, ⏎ on the last
        let keys: [Key] = [.character("a"), .right, .tab] + typing("3") + [.tab] + typing("-2") + [.tab] + typing("10") + [.tab]
            + typing("4") + [.tab] + typing("red") + [.enter]
        let (state, effects) = run(keys, from: editor([Self.shapesAdd]))
        // Then the command runs once, with every value
        XCTAssertEqual(effects, [.runEditorCommand("add", arguments: ["ellipse", "3", "-2", "10", "4", "red"], base: "c1", selection: ViewSelection.items(cursor: 0))])
        XCTAssertNil(editorState(state)?.prompt)
    }

    func testGivenAWordInWidthWhenTheFieldIsLeftThenTheProblemIsOnItInWordsTheFocusStaysAndEveryValueIsKept() {
        // Given X and Y typed and "wide" in Width
        let keys: [Key] = [.character("a"), .tab] + typing("1") + [.tab] + typing("2") + [.tab] + typing("wide") + [.tab]
        let (state, effects) = run(keys, from: editor([Self.shapesAdd]))
        // Then Width keeps the focus and the word, with the reason on it (its label, no usage words)
        XCTAssertEqual(effects, [])
        let prompt = editorState(state)?.prompt
        XCTAssertEqual(prompt?.asking, 3)
        XCTAssertEqual(prompt?.inputs.map(\.text), ["rect", "1", "2", "wide", "", ""])
        XCTAssertEqual(prompt?.problems[3], "Width must be a whole number of at least 1, got 'wide'")
        // And going back keeps it shown while another field is edited
        let (back, _) = run([.up], from: state)
        XCTAssertEqual(editorState(back)?.prompt?.asking, 2)
        XCTAssertEqual(editorState(back)?.prompt?.problems[3], "Width must be a whole number of at least 1, got 'wide'")
    }

    func testGivenStoryMoveSceneOnScene12ThenActAndSceneComeFromTheCursorAndAnOutOfRangeTargetKeepsEveryAnswer() {
        // Given the cursor on scene 1.2; When `m` opens the form
        let (form, _) = run([.character("m")], from: editor(Self.story, lines: Self.storyLines, cursor: 2, type: "org.folio.story"))
        let prompt = editorState(form)?.prompt
        // Then ACT and SCENE are the cursor's, the focus on "To act", labels readable
        XCTAssertEqual(prompt?.inputs.map(\.text), ["1", "2", "", ""])
        XCTAssertEqual(prompt?.asking, 2)
        XCTAssertEqual(prompt?.asked.map { prompt?.argument($0).label ?? "" }, ["Act", "Scene", "To act", "To position"])
        // And the positions show their range as the outline tells it: 2 acts, 2 scenes in act 1, 1 in act 2
        XCTAssertEqual(prompt?.asked.map { prompt?.expectation($0) ?? "" }, ["1 to 2", "1 to 2", "1 or more", "1 or more"])
        let (actTwo, _) = run([.up, .up] + typing("2"), from: form)
        XCTAssertEqual(editorState(actTwo)?.prompt?.expectation(1), "only 1")
        // When the editor refuses TO_ACT 9
        let (submitted, effects) = run(typing("9") + [.tab] + typing("1") + [.enter], from: form)
        XCTAssertEqual(effects, [.runEditorCommand("move-scene", arguments: ["1", "2", "9", "1"], base: "c1", selection: ViewSelection.items(cursor: 2))])
        var refused = submitted
        refused.reopeningPrompt(after: effects[0], failure: "story move-scene: TO_ACT must be an act from 1 to 2: got '9' (usage: move-scene ACT:int+ SCENE:int+ TO_ACT:int+ TO_POS:int+)")
        // Then the form is back on "To act" with every answer and the reason in words
        let again = editorState(refused)?.prompt
        XCTAssertEqual(again?.inputs.map(\.text), ["1", "2", "9", "1"])
        XCTAssertEqual(again?.asking, 2)
        XCTAssertEqual(again?.problems[2], "To act must be an act from 1 to 2: got '9'")
    }

    func testGivenTheFormOpenAt60x16ThenTheItemItActsOnStaysInSight() {
        // Given the cursor on scene 1.2; When `m` opens the form on a 60×16 terminal
        let (form, _) = run([.character("m")], from: editor(Self.story, lines: Self.storyLines, cursor: 2, type: "org.folio.story"))
        guard let shown = editorState(form) else { return }
        let frame = Screens.editor(shown, view: Lines(lines: Self.storyLines), width: 60, height: 16).plainText()
        // Then the box is beside the scene's row, not over it
        XCTAssertTrue(frame.contains("1.2 Silence"), frame)
        XCTAssertTrue(frame.contains("Move scene"), frame)
    }

    func testGivenAFormWithTypedValuesWhenEscIsPressedThenItAsksAndOnlyEscAgainDiscards() {
        // Given the add form with X typed
        let (typed, _) = run([.character("a"), .tab] + typing("12"), from: editor([Self.shapesAdd]))
        // When Esc is pressed: the form stays and says so
        let (asked, _) = run([.escape], from: typed)
        XCTAssertEqual(editorState(asked)?.prompt?.inputs[1].text, "12")
        guard let shown = editorState(asked) else { return }
        XCTAssertTrue(Screens.editor(shown, view: Lines(lines: []), width: 80, height: 16).plainText().contains("esc again discards"))
        // Then Esc again discards; another key keeps the form (and does what it does)
        XCTAssertNil(editorState(run([.escape], from: asked).0)?.prompt)
        XCTAssertEqual(editorState(run([.character("3")], from: asked).0)?.prompt?.inputs[1].text, "123")
        XCTAssertNotNil(editorState(run([.character("3"), .escape], from: asked).0)?.prompt, "after typing, Esc asks again")
        // And an untouched form closes at once
        XCTAssertNil(editorState(run([.character("a"), .escape], from: editor([Self.shapesAdd])).0)?.prompt)
    }

    func testGivenColorsDeclaredAsChoicesThenTheFieldIsAColorPickerWithASwatchThatCanBeLeftEmpty() {
        // Given the add command declaring its colors as an optional list (as the bundled Shapes does)
        let add = EditorCommand(id: "add", title: "Add shape", shortcut: "a",
                                usage: "add rect|ellipse X:int Y:int W:int+ H:int+ [black|red|green|yellow|blue|magenta|cyan|white]")
        let (opened, _) = run([.character("a")], from: editor([add]))
        let prompt = editorState(opened)?.prompt
        XCTAssertEqual(prompt?.asked.map { prompt?.argument($0).label ?? "" }, ["Kind", "X", "Y", "Width", "Height", "Color"])
        XCTAssertEqual(prompt?.inputs[5].text, "", "an optional color starts as none")
        // When the colour field is reached and "r" typed
        let keys: [Key] = [.tab] + typing("1") + [.tab] + typing("2") + [.tab] + typing("3") + [.tab] + typing("4") + [.tab, .character("r")]
        let (picked, _) = run(keys, from: opened)
        XCTAssertEqual(editorState(picked)?.prompt?.input.text, "red")
        // Then at 60 columns it shows as "‹ red › 2/8" with a red swatch
        guard let shown = editorState(picked) else { return }
        let grid = Screens.editor(shown, view: Lines(lines: []), width: 60, height: 16)
        assertGolden(grid.plainText(), "sizes/command-form-colors-60x16")
        let row = (0..<16).first { grid.line($0).contains("‹ red ›") } ?? 0
        let swatchX = (0..<60).first { grid[$0, row].grapheme == "█" } ?? 0
        XCTAssertEqual(grid[swatchX, row].style.foreground, .named(.red))
        // And ← from the first color comes back to none; ⏎ runs with the color
        XCTAssertEqual(editorState(run([.left, .left], from: picked).0)?.prompt?.input.text, "")
        XCTAssertEqual(editorState(run([.left, .left, .left], from: picked).0)?.prompt?.input.text, "white")
        XCTAssertEqual(run([.enter], from: picked).1, [.runEditorCommand("add", arguments: ["rect", "1", "2", "3", "4", "red"], base: "c1", selection: ViewSelection.items(cursor: 0))])
    }

    // MARK: Prefill and the selection

    func testGivenTheCursorOnEggsWhenRenameIsPressedThenTheTitleStartsAsTheCurrentTitleReadyToReplaceOrEdit() {
        // Given the cursor on item 2 "Eggs and bread"; When `r` is pressed
        let (prompt, _) = run([.character("r")], from: editor(Self.checklist, lines: Self.checklistLines, cursor: 1, type: "org.folio.checklist"))
        // Then the one-line prompt starts with the item's title, as a suggestion
        XCTAssertEqual(editorState(prompt)?.prompt?.text, "Eggs and bread")
        XCTAssertEqual(editorState(prompt)?.prompt?.input.isSuggested, true)
        // When a letter is typed, it replaces the title; when ← comes first, the title is edited
        XCTAssertEqual(run(typing("Oats") + [.enter], from: prompt).1,
                       [.runEditorCommand("rename", arguments: ["2", "Oats"], base: "c1", selection: ViewSelection.items(cursor: 1))])
        XCTAssertEqual(run([.end] + typing("!") + [.enter], from: prompt).1,
                       [.runEditorCommand("rename", arguments: ["2", "Eggs and bread!"], base: "c1", selection: ViewSelection.items(cursor: 1))])
        // And the prompt's label is readable
        guard let shown = editorState(prompt) else { return }
        let bar = Screens.editor(shown, view: Lines(lines: Self.checklistLines), width: 60, height: 8).plainText().split(separator: "\n").last ?? ""
        XCTAssertTrue(bar.hasPrefix(" Rename item — Title: Eggs and bread"), String(bar))
    }

    func testGivenRenameActOnASceneThenTheTitleIsTheActsNotTheScenes() {
        let (form, _) = run([.character("R")], from: editor(Self.story, lines: Self.storyLines, cursor: 4, type: "org.folio.story"))
        XCTAssertEqual(editorState(form)?.prompt?.inputs.map(\.text), ["2", "Act II: Return"])
    }

    func testGivenARangeSelectedWhenRenameIsPressedThenItSaysSoBeforeAskingAnything() {
        // Given items 1-2 selected; When `r` is pressed
        let (state, effects) = run([.character("v"), .down, .character("r")], from: editor(Self.checklist, lines: Self.checklistLines, type: "org.folio.checklist"))
        // Then nothing is asked or run, and the line says why
        XCTAssertEqual(effects, [])
        XCTAssertNil(editorState(state)?.prompt)
        XCTAssertEqual(editorState(state)?.message, .failure("Rename item acts on one item, and 2 are selected: esc ends the selection, then choose one"))
        // While a command that takes a range still asks
        XCTAssertNotNil(editorState(run([.character("v"), .down, .character("m")], from: editor(Self.checklist, lines: Self.checklistLines)).0)?.prompt)
    }

    func testGivenTheKindChoiceWhenTextIsPastedThenItIsIgnoredWithAReasonAndTheChoiceStays() {
        let (opened, _) = run([.character("a")], from: editor([Self.shapesAdd]))
        let (pasted, effects) = run([.paste(PastedText("triangle"))], from: opened)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(editorState(pasted)?.prompt?.input.text, "rect")
        XCTAssertEqual(editorState(pasted)?.message, AppState.pasteIgnored("a text field, not a choice"))
        guard let shown = editorState(pasted) else { return }
        XCTAssertTrue(Screens.editor(shown, view: Lines(lines: []), width: 80, height: 16).plainText().contains("paste ignored"))
    }

    func testGivenAnEditorDeclaringRangesThenAPlainItemArgumentTakesOneItemAndARangeOneTakesARange() {
        let toggle = EditorCommand(id: "toggle", title: "Toggle", needsSelection: true, usage: "toggle N")
        let delete = EditorCommand(id: "delete", title: "Delete", needsSelection: true, usage: "delete N:range")
        let rename = EditorCommand(id: "rename", title: "Rename", needsSelection: true, usage: "rename N TITLE")
        // Given an editor that declares ranges: plain N is one item
        XCTAssertTrue(toggle.takesOneItem(rangesDeclared: EditorCommand.declareRanges([toggle, delete])))
        XCTAssertFalse(delete.takesOneItem(rangesDeclared: true))
        // Given one that does not: an item with a free text is one item, an item alone is not refused
        XCTAssertFalse(toggle.takesOneItem(rangesDeclared: EditorCommand.declareRanges([toggle, rename])))
        XCTAssertTrue(rename.takesOneItem(rangesDeclared: false))
    }

    // MARK: Long text

    func testGivenSetTextWhenCtrlOIsPressedThenTheTextGoesToTheUsersEditorAndWhatItSavedFillsTheField() {
        // Given set-text on scene 1.1 with a line typed
        let (form, _) = run([.character("e")] + typing("First line"), from: editor(Self.story, lines: Self.storyLines, cursor: 1, type: "org.folio.story"))
        // When ^O is pressed
        var (state, effects) = run([.ctrl("o")], from: form)
        // Then the field's text is handed to the editor, and what it saved (several lines) becomes the field's text
        XCTAssertEqual(effects, [.editArgumentText("First line")])
        state.editedArgumentText("First line\nSecond line\n")
        XCTAssertEqual(editorState(state)?.prompt?.text, "First line\nSecond line")
        XCTAssertEqual(run([.enter], from: state).1,
                       [.runEditorCommand("set-text", arguments: ["1", "1", "First line\nSecond line"], base: "c1", selection: ViewSelection.items(cursor: 1))])
        // And when the editor fails, the text is kept and the field says why
        var failed = form
        failed.editedArgumentText(nil, failure: "editor 'false': it exited with status 1; nothing was recorded")
        XCTAssertEqual(editorState(failed)?.prompt?.text, "First line")
        XCTAssertEqual(editorState(failed)?.prompt?.problems[2], "editor 'false': it exited with status 1; nothing was recorded")
        // And a one-line field (the shapes' X) is not handed to an editor
        XCTAssertEqual(run([.character("a"), .tab, .ctrl("o")], from: editor([Self.shapesAdd])).1, [])
    }

    func testGivenTextEditedInAnEditorThenItIsReadBackFromAPrivateFileThatIsRemoved() throws {
        var seen: String?
        let edited = try CommandFormEditing.edit("old text") { path in
            seen = path
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old text")
            let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
            XCTAssertEqual(mode, 0o600)
            try Data("new\ntext\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        XCTAssertEqual(edited, "new\ntext\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: seen ?? "/"), "the file is removed")
    }

    // MARK: Labels and titles

    func testGivenUsageWordsThenTheirLabelsAreReadableAndSayWhatTheyTake() {
        XCTAssertEqual(CommandArgument(usageWord: "TO_ACT:int+").label, "To act")
        XCTAssertEqual(CommandArgument(usageWord: "TO_POS:int+").label, "To position")
        XCTAssertEqual(CommandArgument(usageWord: "W:int+").label, "Width")
        XCTAssertEqual(CommandArgument(usageWord: "rect|ellipse").label, "Kind")
        XCTAssertEqual(CommandArgument(usageWord: "[COLOR]").label, "Color")
        XCTAssertEqual(CommandArgument(usageWord: "W:int+").expectation, "1 or more")
        XCTAssertEqual(CommandArgument(usageWord: "X:int").expectation, "whole number")
        XCTAssertEqual(CommandArgument(usageWord: "[COLOR]").expectation, "optional")
        XCTAssertEqual(CommandArgument(usageWord: "TO_ACT:int+").labelledProblem(with: ""), "To act is needed")
        XCTAssertEqual(CommandArgument(usageWord: "W:int+").labelledProblem(with: "0"), "Width must be a whole number of at least 1, got '0'")
    }

    func testGivenItemLinesThenTheirTitlesAreReadWithoutCheckBoxesOrColumnsAndACutTitleIsUnknown() {
        XCTAssertEqual(ViewLines.itemTitle(">1 [ ] Milk"), "Milk")
        XCTAssertEqual(ViewLines.itemTitle("   1.2 Silence             0 words"), "Silence")
        XCTAssertNil(ViewLines.itemTitle(" 3 A very long title cut by the view…"))
        XCTAssertNil(ViewLines.itemTitle("Groceries  (0/3 done)"))
    }

    // MARK: Golden frames

    func testGoldenShapesAddFormWithAProblemAt60x16And160x45() {
        let keys: [Key] = [.character("a"), .tab] + typing("12") + [.tab] + typing("-3") + [.tab] + typing("0") + [.tab]
        for (w, h) in [(60, 16), (160, 45)] {
            var start = editor([Self.shapesAdd])
            start.columns = w; start.rows = h
            guard case var .editor(e) = start.screen else { return XCTFail() }
            e.columns = w; e.viewRows = h - 3
            start.screen = .editor(e)
            let (state, _) = run(keys, from: start)
            guard let shown = editorState(state) else { return }
            let view = Lines(lines: ["Logo  (2 shapes)", "┌────┐", "│    │   ( )", "└────┘"])
            assertGolden(Screens.editor(shown, view: view, width: w, height: h).plainText(), "sizes/command-form-\(w)x\(h)")
        }
    }
}
