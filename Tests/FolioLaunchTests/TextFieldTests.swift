import XCTest
@testable import FolioLaunch
@testable import FolioTerminal

final class TextFieldTests: XCTestCase {
    func typed(_ text: String, _ keys: [Key] = []) -> TextField {
        var field = TextField()
        for character in text { field.handle(.character(character)) }
        for key in keys { field.handle(key) }
        return field
    }

    func testGivenTextWhenArrowsHomeEndThenTheCursorMovesAndTypingInsertsThere() {
        var field = typed("held", [.left, .left])
        XCTAssertEqual(field.cursor, 2)
        field.handle(.character("l"))
        XCTAssertEqual(field.text, "helld")
        field.handle(.home); field.handle(.character(">"))
        XCTAssertEqual(field.text, ">helld")
        field.handle(.ctrl("e")); field.handle(.character("!"))
        XCTAssertEqual(field.text, ">helld!")
        field.handle(.ctrl("a"))
        XCTAssertEqual(field.cursor, 0)
        field.handle(.left)
        XCTAssertEqual(field.cursor, 0, "never before the start")
        field.handle(.end); field.handle(.right)
        XCTAssertEqual(field.cursor, field.text.count, "never past the end")
    }

    func testGivenTextWhenDeletingByCharacterWordAndLineThenOnlyThatPartGoes() {
        XCTAssertEqual(typed("one two  three", [.ctrl("w")]).text, "one two  ")
        XCTAssertEqual(typed("one two  three", [.ctrl("w"), .ctrl("w")]).text, "one ")
        XCTAssertEqual(typed("one two", [.left, .left, .left, .ctrl("u")]).text, "two")
        XCTAssertEqual(typed("one two", [.left, .left, .left, .ctrl("k")]).text, "one ")
        XCTAssertEqual(typed("abc", [.left, .backspace]).text, "ac")
        XCTAssertEqual(typed("abc", [.left, .delete]).text, "ab")
        XCTAssertEqual(typed("abc", [.home, .backspace]).text, "abc", "nothing before the start")
        XCTAssertEqual(typed("abc", [.delete]).text, "abc", "nothing after the end")
    }

    func testGivenWideCharactersWhenMovingThenTheCursorStepsOverWholeCharactersOfTwoCells() {
        var field = typed("日本🍣x")
        XCTAssertEqual(field.cursorColumn, 7)
        field.handle(.left); field.handle(.left)
        XCTAssertEqual(field.cursorColumn, 4)
        field.handle(.backspace)
        XCTAssertEqual(field.text, "日🍣x")
        XCTAssertEqual(field.cursorColumn, 2)
    }

    func testGivenTextWiderThanItsBoxWhenTheCursorMovesThenTheWindowScrollsToKeepItVisible() {
        var field = typed(String(repeating: "abcdefghij", count: 3))
        let end = field.window(width: 10)
        XCTAssertEqual(end.text, "bcdefghij", "the end and a cell for the cursor")
        XCTAssertEqual(end.cursorX, 9)
        field.reveal(width: 10)
        field.handle(.home)
        let start = field.window(width: 10)
        XCTAssertEqual(start.text, "abcdefghij")
        XCTAssertEqual(start.cursorX, 0)
        field.reveal(width: 10)
        for _ in 0..<5 { field.handle(.right) }
        XCTAssertEqual(field.window(width: 10).text, "abcdefghij", "moving inside the box does not scroll")
    }

    func testGivenAWideCharacterCutByTheBoxEdgeWhenDrawnThenItShowsAsBlankAndTheLineNeverOverflows() {
        var field = typed("a日本語")
        field.handle(.home)
        let shown = field.window(width: 4)
        XCTAssertEqual(DisplayWidth.width(of: shown.text), 4)
        XCTAssertEqual(shown.text, "a日 ")
    }

    func testGivenAFocusedFieldWhenDrawnThenTheCellUnderTheCursorIsReversed() {
        var grid = CellGrid(width: 12, height: 1)
        var field = typed("abc")
        field.handle(.left)
        field.draw(into: &grid, x: 2, y: 0, width: 8, focused: true)
        XCTAssertEqual(grid.line(0), "  abc")
        XCTAssertTrue(grid[4, 0].style.reverse, "the cursor is on 'c'")
        XCTAssertFalse(grid[3, 0].style.reverse)
    }

    func testGivenATabAndANewlineWhenShownThenEachTakesOneCell() {
        var field = TextField()
        field.insert("a\tb\nc")
        XCTAssertEqual(field.window(width: 20).text, "a b⏎c")
        XCTAssertEqual(field.cursorColumn, 5)
    }
}
