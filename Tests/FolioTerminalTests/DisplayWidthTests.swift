import XCTest
@testable import FolioTerminal

final class DisplayWidthTests: XCTestCase {
    func testASCIIIsOneCellEach() {
        XCTAssertEqual(DisplayWidth.width(of: "hello"), 5)
        XCTAssertEqual(DisplayWidth.width(of: ""), 0)
    }

    func testCJKIsTwoCells() {
        XCTAssertEqual(DisplayWidth.width(of: "日本語"), 6)
        XCTAssertEqual(DisplayWidth.width(of: "한글"), 4)
        XCTAssertEqual(DisplayWidth.width(of: "ａ"), 2) // fullwidth Latin
    }

    func testEmojiIsTwoCells() {
        XCTAssertEqual(DisplayWidth.width(of: "🌱"), 2)
        XCTAssertEqual(DisplayWidth.width(of: "👩‍💻"), 2, "a ZWJ sequence is one cluster")
        XCTAssertEqual(DisplayWidth.width(of: "🇫🇷"), 2, "a flag is one cluster")
        XCTAssertEqual(DisplayWidth.width(of: "❤️"), 2, "VS16 asks for emoji presentation")
        XCTAssertEqual(DisplayWidth.width(of: "👍🏽"), 2, "skin tone modifier joins the base")
    }

    func testCombiningMarksAreZero() {
        XCTAssertEqual(DisplayWidth.width(of: "e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.width(of: "\u{301}"), 0)
        XCTAssertEqual(DisplayWidth.width(of: "a\u{300}\u{316}b"), 2)
        XCTAssertEqual(DisplayWidth.clusters("e\u{301}x").map(\.grapheme), ["e\u{301}", "x"])
    }

    func testGivenControlCharactersWhenMeasuredThenEachTakesTheWidthOfTheEscapeTheScreenDraws() {
        // Screens draw controls as visible escapes (CellGrid.put), so text measured first lines up with what is drawn
        XCTAssertEqual(DisplayWidth.width(of: "\u{7}"), 4, "\\x07")
        XCTAssertEqual(DisplayWidth.width(of: "a\u{1B}[2J"), 6, "a\\e[2J")
        XCTAssertEqual(DisplayWidth.width(of: "a\u{202E}b"), 10, "a\\u{202E}b")
        XCTAssertEqual(DisplayWidth.width(of: Unicode.Scalar(7)), 0, "a scalar alone has no width of its own")
        var grid = CellGrid(width: 20, height: 1)
        XCTAssertEqual(grid.put("a\u{1B}[2J\u{7}", x: 0, y: 0), DisplayWidth.width(of: "a\u{1B}[2J\u{7}"))
    }

    func testTruncationNeverSplitsAWideCharacter() {
        XCTAssertEqual(DisplayWidth.truncate("hello world", to: 8), "hello w…")
        XCTAssertEqual(DisplayWidth.truncate("日本語です", to: 6), "日本…")
        XCTAssertEqual(DisplayWidth.truncate("日本語です", to: 5), "日本…")
        XCTAssertEqual(DisplayWidth.truncate("short", to: 10), "short")
        XCTAssertEqual(DisplayWidth.truncate("abc", to: 0), "")
        XCTAssertEqual(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2, ellipsis: ""), "e\u{301}e\u{301}")
        XCTAssertEqual(DisplayWidth.width(of: DisplayWidth.truncate("🌱🌱🌱", to: 4)), 3)
    }

    func testPad() {
        XCTAssertEqual(DisplayWidth.pad("日本", to: 6), "日本  ")
        XCTAssertEqual(DisplayWidth.pad("abcdef", to: 3), "ab…")
    }
}
