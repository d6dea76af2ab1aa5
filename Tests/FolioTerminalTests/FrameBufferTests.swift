import XCTest
@testable import FolioTerminal

final class FrameBufferTests: XCTestCase {
    /// An ANSI-16 buffer without synchronized output that has drawn the blank grid it returns.
    func blankFrame(width: Int, height: Int) -> (FrameBuffer, CellGrid) {
        var buffer = FrameBuffer(capability: .ansi16, synchronized: false)
        let grid = CellGrid(width: width, height: height)
        _ = buffer.update(to: grid)
        return (buffer, grid)
    }

    func testOneCellChangeEmitsFewBytes() {
        var buffer = FrameBuffer(capability: .truecolor)
        var grid = CellGrid(width: 80, height: 24)
        grid.put("Hello", x: 10, y: 5)
        let first = buffer.update(to: grid)
        XCTAssertTrue(first.hasPrefix("\u{1B}[?2026h"))
        XCTAssertTrue(first.hasSuffix("\u{1B}[?2026l"))
        grid.put("J", x: 10, y: 5)
        let second = buffer.update(to: grid)
        XCTAssertEqual(second, "\u{1B}[?2026h\u{1B}[6;11HJ\u{1B}[?2026l")
        XCTAssertLessThanOrEqual(second.utf8.count, 24)
        XCTAssertEqual(buffer.update(to: grid), "", "nothing changed, nothing written")
    }

    func testStyledChangeResetsPenAfterwards() {
        var (buffer, grid) = blankFrame(width: 10, height: 2)
        grid.put("ab", x: 0, y: 1, style: CellStyle(foreground: .named(.red)))
        XCTAssertEqual(buffer.update(to: grid), "\u{1B}[2;1H\u{1B}[0;31mab\u{1B}[0m")
    }

    func testNearbyChangesOnOneRowUseRelativeMoves() {
        var (buffer, grid) = blankFrame(width: 20, height: 2)
        grid.put("a", x: 2, y: 0)
        grid.put("b", x: 6, y: 0)
        XCTAssertEqual(buffer.update(to: grid), "\u{1B}[1;3Ha\u{1B}[3Cb")
    }

    func testWideCharacterAdvancesTwo() {
        var (buffer, grid) = blankFrame(width: 20, height: 1)
        grid.put("日x", x: 0, y: 0)
        // After a non-ASCII character the next cell is reached with an absolute move (the terminal may measure it
        // differently).
        XCTAssertEqual(buffer.update(to: grid), "\u{1B}[H日\u{1B}[1;3Hx")
    }

    func testResizeRedrawsEverything() {
        var buffer = FrameBuffer(capability: .none, synchronized: false)
        _ = buffer.update(to: CellGrid(width: 3, height: 1))
        let output = buffer.update(to: CellGrid(width: 2, height: 1))
        XCTAssertTrue(output.hasPrefix("\u{1B}[0m\u{1B}[2J"))
    }
}
