import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The story editor, through the real `folio` in tmux: move-scene is one form that keeps
/// its values on a refusal, scenes and acts can be deleted and acts renamed, a scene's text can be written in
/// `$EDITOR`, and at 60×16 a scene's text wraps and a divider with wide characters fills the width.
final class StoryEditorEndToEndTests: EndToEndTmuxTestCase {
    func story(_ name: String = "story") -> URL { create(name, template: "story/three-act") }

    /// The scene text's rows (after the divider, `│ …`) and the divider's row.
    func scenePane(_ screen: String, divider: String) -> (divider: String?, text: [String]) {
        let all = rows(screen)
        guard let at = all.firstIndex(where: { $0.contains(divider) }) else { return (nil, []) }
        let text = all[(at + 1)...].prefix { $0.hasPrefix(" │") }
        return (all[at], Array(text))
    }

    func testGivenASceneTitledWithCJKAndEmojiWhenShownAt60x16And160x45ThenTheDividerFillsTheRowAndTheTextWraps() throws {
        // Given scene 1.1 titled "朝 — Morning 🌅", its text longer than 60 columns
        let document = story()
        folio(["edit", document.path, "rename-scene", "1", "1", "朝 — Morning 🌅"])
        try start(["open", document.path, "--scene", "i23-wrap"], until: "162 words", width: 60, height: 16)
        // When the cursor is on it at 60×16
        try keys("Down")
        let narrow = waitFor(text: "── 1.1 朝 — Morning 🌅")
        // Then the divider ends in its rule, not an ellipsis, and the text wraps with nothing cut
        let pane = scenePane(narrow, divider: "── 1.1 朝")
        XCTAssertTrue(pane.divider?.hasSuffix("──") == true, "the divider:\n\(narrow)")
        XCTAssertFalse(pane.text.isEmpty, narrow)
        XCTAssertFalse(pane.text.contains { $0.hasSuffix("…") }, "scene text cut:\n\(narrow)")
        let words = pane.text.map { $0.dropFirst(2).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        XCTAssertTrue(words.contains("Give the reader one habit"), "the text wraps onto the next row:\n\(narrow)")
        // And at 160×45 the divider still fills its row
        try tmux(["resize-window", "-t", "i23", "-x", "160", "-y", "45"])
        let wide = waitFor("the divider at 160 columns") { screen in
            self.rows(screen).contains { $0.contains("── 1.1 朝") && $0.count > 100 }
        }
        let wideDivider = scenePane(wide, divider: "── 1.1 朝").divider ?? ""
        XCTAssertTrue(wideDivider.hasSuffix("──") && !wideDivider.hasSuffix("…"), "the divider:\n\(wide)")
        try quit()
    }

    func testGivenMoveSceneWhenTheTargetActIsOutOfRangeThenOneFormKeepsEveryValueAndSaysWhyInWords() throws {
        // Given the cursor on scene 1.2
        let document = story()
        try start(["open", document.path, "--scene", "i23-move"], until: "162 words")
        try press("Down", "Down", until: ">  1.2 The inciting incident")
        // When `m` opens the move and act 7 (of 3) is given
        try keys("m")
        let form = waitFor("the move form") { ["Move scene", "Act", "Scene", "To act", "To position"].allSatisfy($0.contains) }
        for raw in ["usage", "ACT", "TO_ACT", "TO_POS", "int+"] { XCTAssertFalse(form.contains(raw), "\(raw) shows:\n\(form)") }
        try submit(["To act": "7", "To position": "1"])
        // Then the form is still open with every value, the reason on the act's field in words
        let refused = waitFor(text: "To act 7 is out of range 1…3")
        XCTAssertTrue(refused.contains("Move scene"), refused)
        let fields = rows(refused).filter { $0.contains("│") }.joined(separator: "\n")
        XCTAssertNotNil(fields.range(of: #"Act\s+1\b"#, options: .regularExpression), fields)
        XCTAssertNotNil(fields.range(of: #"Scene\s+2\b"#, options: .regularExpression), fields)
        XCTAssertNotNil(fields.range(of: #"To position\s+1\b"#, options: .regularExpression), fields)
        XCTAssertFalse(refused.contains("usage"), refused)
        XCTAssertEqual(log(document).count, 1, "nothing was run")
        // And with act 3 the scene moves there, the cursor with it
        try setField("To act", "3")
        try keys("Enter")
        waitFor("the scene moved, the cursor on it") { $0.contains("moved scene 'The inciting incident' to act 3, position 1") && $0.contains(">  3.1 The inciting incident") }
        XCTAssertEqual(log(document).count, 2, "one commit")
        try quit()
    }

    func testGivenAStoryWhenASceneAndAnActAreDeletedAndAnActRenamedThenEachIsDoneFromTheEditor() throws {
        // Given the cursor on scene 1.2
        let document = story()
        try start(["open", document.path, "--scene", "i23-acts"], until: "162 words")
        try press("Down", "Down", until: ">  1.2 The inciting incident")
        // When `d` deletes the scene
        try press("d", until: "Delete scene")
        try keys("Enter")
        // Then it is gone
        let deleted = waitFor(text: "deleted scene 1.2 'The inciting incident'")
        XCTAssertFalse(deleted.contains("The inciting incident  "), deleted)
        // When `R` renames act 2
        try keys("Down", "Down")
        try press("R", until: "Rename act")
        try setField("Title", "Act II: Trials")
        try press("Enter", until: "to 'Act II: Trials'")
        // And `D` deletes act 2 with its scenes
        try press("D", until: "Delete act")
        try keys("Enter")
        let gone = waitFor(text: "deleted act 2 'Act II: Trials' and its 3 scenes")
        XCTAssertFalse(gone.contains("Rising obstacles"), gone)
        XCTAssertEqual(log(document).count, 4, "one commit each: \(log(document))")
        try quit()
    }

    func testGivenTheSetSceneTextFormWhenCtrlOOpensEditorThenTheSceneGetsTheTextWrittenThere() throws {
        // Given $EDITOR a script that writes two lines, and the cursor on scene 1.1
        let editor = dir.path("editor.sh")
        try "#!/bin/sh\nprintf 'Written in the editor.\\nA second line.\\n' > \"$1\"\n".write(to: editor, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(editor.path, 0o755), 0)
        env["EDITOR"] = editor.path
        env["VISUAL"] = editor.path
        let document = story()
        try start(["open", document.path, "--scene", "i23-editor"], until: "162 words")
        try press("Down", until: ">  1.1 The ordinary world")
        // When `e` opens the form and ^O the editor, then ⏎
        try press("e", until: "Set scene text")
        try press("C-o", until: "Written in the editor.")
        try keys("Enter")
        // Then the scene's text is the editor's, both lines
        let screen = waitFor(text: "set the text of scene 'The ordinary world'")
        XCTAssertTrue(screen.contains("│ Written in the editor.") && screen.contains("│ A second line."), screen)
        let saved = try String(contentsOf: document.appendingPathComponent("story.md"), encoding: .utf8)
        XCTAssertTrue(saved.contains("Written in the editor.\nA second line."), saved)
        try quit()
    }
}
