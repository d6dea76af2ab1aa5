import Foundation
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

    func testGivenTextWithControlAndBidiCharactersWhenPutThenTheCellsShowEscapesAndTheTerminalGetsNoneOfThem() throws {
        // Given a line holding an OSC 52 clipboard write, an 8-bit CSI, a bidi override, a CR and a newline
        var grid = CellGrid(width: 60, height: 2)
        grid.put("x\u{1B}]52;c;cHduZWQ=\u{07}y\u{9B}2J\u{202E}z\r\nw", x: 0, y: 0)
        // When it becomes cells; Then they show the visible escapes, on the one row it was put on
        XCTAssertEqual(grid.line(0), "x\\e]52;c;cHduZWQ=\\x07y\\u{9B}2J\\u{202E}z\\r\\nw")
        XCTAssertEqual(grid.line(1), "")
        // And the bytes written to the terminal hold no control character but the frame's own CSI sequences
        var buffer = FrameBuffer(capability: .truecolor)
        let written = buffer.update(to: grid)
        let own = try NSRegularExpression(pattern: "\u{1B}\\[[0-9;?]*[A-Za-z]")
        let rest = own.stringByReplacingMatches(in: written, range: NSRange(written.startIndex..., in: written), withTemplate: "")
        let controls = rest.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) }
        XCTAssertEqual(controls.map(\.value), [], rest.debugDescription)
    }
}
