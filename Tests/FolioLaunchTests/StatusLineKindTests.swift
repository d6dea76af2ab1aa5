import FolioCore
import XCTest
@testable import FolioLaunch
@testable import FolioTerminal

/// A message's kind, not its text, decides how it is drawn and logged: a result is never drawn as a failure, and a
/// failure always has its mark and colour.
final class StatusLineKindTests: XCTestCase {
    private func editorGrid(_ message: StatusLine) -> CellGrid {
        var editor = EditorState(path: "s", title: "Groceries", contentType: "org.folio.checklist", commitID: "4f2a9c8aaaa",
                                 commitMessage: "Add eggs", commands: [])
        editor.message = message
        return Screens.editor(editor, view: FakeEditor(), width: 60, height: 10)
    }

    /// The row holding `text`, and the colour of its first character.
    private func row(_ grid: CellGrid, containing text: String) -> (line: String, color: TerminalColor?)? {
        for y in 0..<grid.height where grid.line(y).contains(text) {
            let line = grid.line(y)
            let x = line.distance(from: line.startIndex, to: line.range(of: text)!.lowerBound)
            return (line, grid[x, y].style.foreground)
        }
        return nil
    }

    func testGivenAnItemBroughtBackWhenTheEditorIsDrawnThenItsLineIsASuccessNotAFailure() throws {
        // Given the editor after an item was brought back from an older version
        let grid = editorGrid(.success("Brought back item 2 as it was in c1"))
        // When drawn, then the line reads as done, in the success colour, with no failure mark
        let shown = try XCTUnwrap(row(grid, containing: "✓ Brought back item 2 as it was in c1"))
        XCTAssertFalse(shown.line.contains("✗"), shown.line)
        XCTAssertEqual(shown.color, .named(.green))
    }

    func testGivenARefusalWhenTheEditorIsDrawnThenItHasTheFailureMarkAndColour() throws {
        let grid = editorGrid(.failure("Delete needs a selection (v selects)"))
        let shown = try XCTUnwrap(row(grid, containing: "✗ Delete needs a selection (v selects)"))
        XCTAssertEqual(shown.color, .named(.red))
    }

    func testGivenANoticeWhenTheEditorIsDrawnThenItIsANoteWithoutAMark() throws {
        // Given a notice the document opened with (a linked plugin build is used)
        let grid = editorGrid(.note("using the linked build of org.test.picker"))
        // Then it is drawn as a note: no failure or success mark, in the note colour
        let shown = try XCTUnwrap(row(grid, containing: "using the linked build of org.test.picker"))
        XCTAssertFalse(shown.line.contains("✗") || shown.line.contains("✓"), shown.line)
        XCTAssertEqual(shown.color, .named(.yellow))
    }

    func testGivenMessagesOfEachKindWhenLoggedThenOnlyTheFailureIsAnErrorAndEachKeepsItsMark() {
        // Given a log with a result, a note and a failure whose text itself starts with "✗"
        var log = MessageLog(timeZone: .utc)
        log.append(.success("recorded “Edit notes” (40139e1)"), at: Date(timeIntervalSince1970: 0))
        log.append(.note("Pinned “Groceries”"), at: Date(timeIntervalSince1970: 1))
        log.append(.failure("sync cancelled: nothing was sent"), at: Date(timeIntervalSince1970: 2))
        log.append(.note("✗ is the mark of a failure"), at: Date(timeIntervalSince1970: 3))
        // When its lines are laid out
        let lines = Screens.messageLogLines(log, width: 120)
        // Then each is shown with its own mark, and only the failure is drawn as an error
        XCTAssertEqual(lines.map(\.text), ["✓ recorded “Edit notes” (40139e1)", "Pinned “Groceries”", "✗ sync cancelled: nothing was sent",
                                           "✗ is the mark of a failure"])
        XCTAssertEqual(lines.map(\.error), [false, false, true, false])
    }
}
