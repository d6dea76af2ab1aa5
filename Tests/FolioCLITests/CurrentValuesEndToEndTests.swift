import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// Forms that start from the item's current values (plugin ABI 1.2's `folio.argument-values/1`) and the Shapes canvas
/// panned with shift+arrows, driven through tmux.
extension TerminalEndToEndTests {
    /// Starts folio in a new session of `width` × `height` (window 0).
    func start(_ folioArguments: [String], width: Int, height: Int) throws {
        let result = try tmux(["new-session", "-d", "-s", "e2e", "-x", "\(width)", "-y", "\(height)", "-c", docs.path] + environmentFlags
            + [paneCommand(folioArguments)])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// The text of scene "The ordinary world" in the story's Markdown, without the blank lines around it.
    func ordinaryWorldText(_ story: URL) throws -> String {
        let file = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: story.path).first { $0.hasSuffix(".md") })
        // The headings as a reader sees them: without the Folio comment holding each one's id.
        let markdown = try String(contentsOf: story.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.hasPrefix("#") ? String(line.components(separatedBy: " <!-- folio {")[0]) : String(line) }.joined(separator: "\n")
        let after = try XCTUnwrap(markdown.components(separatedBy: "### The ordinary world\n").last)
        return try XCTUnwrap(after.components(separatedBy: "\n###").first).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testGivenAStorySceneWhenSetSceneTextOpensThenItShowsTheCurrentTextAndEnterWithoutChangesKeepsIt() throws {
        // Given the three-act story, and an $EDITOR that records what it was given and adds a line
        let created = runFolio(["new", "tale", "--template", "story/three-act", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let story = docs.appendingPathComponent("tale")
        let text = try ordinaryWorldText(story)
        let seen = dir.path("editor-saw.txt")
        let script = dir.path("add-line.sh")
        try "#!/bin/sh\ncp \"$1\" '\(seen.path)'\nprintf '\\nA new last line.\\n' >> \"$1\"\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        env["VISUAL"] = script.path
        env["EDITOR"] = script.path
        try start(["open", story.path])
        waitFor(text: "Act I")
        let versions = folioLog(story).count
        // When the cursor is on scene 1.1 and `e` (Set scene text) is pressed
        try keys("Down")
        waitFor(text: ">  1.1 The ordinary world")
        try keys("e")
        // Then the form's Text field starts with the scene's current text
        let firstWords = String(text.prefix(20))
        let form = waitFor("the text field to hold the scene's text") { screen in
            screen.contains("Set scene text") && screen.split(separator: "\n").contains { $0.contains("Text") && $0.contains(firstWords) }
        }
        XCTAssertFalse(form.contains("usage"), form)
        // When ⏎ is pressed without changes
        try keys("Enter")
        waitFor(text: "Set scene text: nothing changed")
        XCTAssertFalse(capture().contains("$EDITOR"), "the form is closed:\n\(capture())")
        // Then the scene's text is kept: no version changed it
        XCTAssertEqual(try ordinaryWorldText(story), text)
        XCTAssertEqual(folioLog(story).count, versions, "no commit replaced the text")
        // When the form opens again and ^O edits the text in $EDITOR, then ⏎
        try keys("e")
        waitFor("the text field again") { screen in screen.split(separator: "\n").contains { $0.contains("Text") && $0.contains(firstWords) } }
        try keys("C-o")
        waitFor(text: "A new last line")
        try keys("Enter")
        // Then the editor was given the whole current text, and the scene is that text with the added line
        waitFor("the set-text commit in the document's files") { _ in
            self.folioLog(story).count == versions + 1 && (try? self.ordinaryWorldText(story)) == text + "\nA new last line."
        }
        XCTAssertEqual(try String(contentsOf: seen, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), text)
        try keys("C-q")
        assertRestored(status: 0)
    }

    func testGivenAShapeBeyondTheRightEdgeAtSixtyBySixteenWhenShiftRightIsPressedThenTheCanvasPansToShowItAndTheCursorBringsItBack() throws {
        // Given a drawing with a shape at the origin and one beyond the right edge of a 60×16 window
        let created = runFolio(["new", "drawing", "--template", "shapes/blank", "--defaults"], environment: env, cwd: docs)
        XCTAssertEqual(created.status, 0, created.stderr)
        let drawing = docs.appendingPathComponent("drawing")
        for shape in [["rect", "0", "0", "6", "3", "red"], ["rect", "70", "2", "8", "3", "blue"]] {
            let added = runFolio(["edit", drawing.path, "add"] + shape, environment: env, cwd: docs)
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        try start(["open", drawing.path], width: 60, height: 16)
        let before = waitFor(text: "canvas at (0, 0)")
        XCTAssertFalse(before.contains("|2 blue"), "the blue shape is out of sight:\n\(before)")
        XCTAssertTrue(before.contains("shift+arrows pan"), "the rule names the keys:\n\(before)")
        // When shift+→ is pressed twice, the cursor staying on shape 1
        try keys("S-Right", "S-Right")
        // Then the canvas has moved right and the blue shape is drawn whole, its label inside it
        let panned = waitFor(text: "canvas at (28, 0)")
        XCTAssertTrue(panned.contains("|2 blue|"), panned)
        XCTAssertTrue(panned.contains("shape 1 of 2"), "the cursor stayed:\n\(panned)")
        // When the cursor moves down and back up; Then the canvas follows the cursor again, from the origin
        try keys("Down")
        waitFor(text: "shape 2 of 2")
        try keys("Up")
        let back = waitFor(text: "canvas at (0, 0)")
        XCTAssertFalse(back.contains("|2 blue"), back)
        try keys("C-q")
        assertRestored(status: 0)
    }
}
