import XCTest
@testable import FolioTerminal

final class CellGridTests: XCTestCase {
    func testWideCharactersTakeTwoCells() {
        var grid = CellGrid(width: 6, height: 1)
        let end = grid.put("日x", x: 0, y: 0)
        XCTAssertEqual(end, 3)
        XCTAssertEqual(grid[0, 0].grapheme, "日")
        XCTAssertTrue(grid[1, 0].isContinuation)
        XCTAssertEqual(grid[2, 0].grapheme, "x")
        XCTAssertEqual(grid.plainText(), "日x")
    }

    func testPlainTextTrimsTrailingSpaces() {
        var grid = CellGrid(width: 5, height: 2)
        grid.put("ab", x: 1, y: 0)
        XCTAssertEqual(grid.plainText(), " ab\n")
    }

    func testClippingNeverTraps() {
        var grid = CellGrid(width: 3, height: 1)
        grid.put("abcdef", x: -2, y: 0)
        grid.put("zz", x: 0, y: 5)
        XCTAssertEqual(grid.plainText(), "cde")
        grid.put("ab日", x: 0, y: 0)
        XCTAssertEqual(grid.plainText(), "ab", "a wide character cut by the edge is blank")
        _ = CellGrid(width: -1, height: -4).plainText()
    }

    func testOverwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var grid = CellGrid(width: 4, height: 1)
        grid.put("日本", x: 0, y: 0)
        grid.put("x", x: 1, y: 0)
        XCTAssertEqual(grid.plainText(), " x本")
    }

    func testCombiningMarkJoinsPreviousCell() {
        var grid = CellGrid(width: 4, height: 1)
        grid.put("e\u{301}!", x: 0, y: 0)
        XCTAssertEqual(grid[0, 0].grapheme, "e\u{301}")
        XCTAssertEqual(grid[1, 0].grapheme, "!")
    }

    func testDefaultBackgroundKeepsWhatIsUnderneath() {
        var grid = CellGrid(width: 3, height: 1, fill: Cell(" ", style: CellStyle(background: .named(.blue))))
        grid.put("a", x: 0, y: 0, style: CellStyle(foreground: .named(.red)))
        XCTAssertEqual(grid[0, 0].style.background, .named(.blue))
        XCTAssertEqual(grid[0, 0].style.foreground, .named(.red))
    }

    func testANSIRendering() {
        var grid = CellGrid(width: 3, height: 1)
        grid.put("ab", x: 0, y: 0, style: CellStyle(foreground: .named(.green), bold: true))
        XCTAssertEqual(grid.ansiText(capability: .ansi16), "\u{1B}[0;1;32mab\u{1B}[0m \u{1B}[0m")
        XCTAssertEqual(grid.ansiText(capability: .none), "ab")
        XCTAssertEqual(grid.ansiText(capability: .monochrome), "\u{1B}[0;1mab\u{1B}[0m \u{1B}[0m")
    }
}
