import XCTest
@testable import FolioTerminal

/// Rules and wrapping measured in cells: wide CJK and emoji take two, so a line of them is as wide as the screen shows.
final class DisplayWidthLayoutTests: XCTestCase {
    func testGivenATitleWithWideTextWhenARuleIsDrawnAtEveryWidthThenItFillsTheWidthExactlyAndEndsInTheRule() {
        // Given a divider title with a CJK character and an emoji (two cells each) but fewer characters than cells
        let title = "── 1.1 朝 — Morning 🌅 "
        for width in 1...80 {
            // When it is drawn as a rule at that width
            let rule = DisplayWidth.rule(title, width: width)
            // Then it is exactly that wide and its last cell is the rule, never "…"
            XCTAssertEqual(DisplayWidth.width(of: rule), width, "width \(width): \(rule)")
            XCTAssertEqual(rule.last, "─", "width \(width): \(rule)")
        }
        XCTAssertEqual(DisplayWidth.rule(title, width: 30), "── 1.1 朝 — Morning 🌅 ───────")
        XCTAssertEqual(DisplayWidth.rule(title, width: 12), "── 1.1 朝 …─", "a cut title still leaves the rule's last cell")
        XCTAssertEqual(DisplayWidth.rule(title, width: 0), "")
    }

    func testGivenAWideCharacterAtTheCutWhenARuleIsDrawnThenTheCellItCannotUseIsRule() {
        // Given a title whose wide character would straddle the cut
        // When drawn one cell short of it
        let rule = DisplayWidth.rule("ab日本", width: 5)
        // Then the cell the wide character cannot use is filled and the width is exact
        XCTAssertEqual(rule, "ab…──")
        XCTAssertEqual(DisplayWidth.width(of: rule), 5)
    }

    func testGivenAParagraphWhenWrappedThenLinesBreakAtSpacesWithinTheWidthInCells() {
        // Given a paragraph mixing ASCII, CJK and emoji
        let text = "The sun 🌅 rises over 朝の山 and the road begins"
        // When wrapped at 12 cells
        let lines = DisplayWidth.wrap(text, width: 12)
        // Then every line fits, words are whole and nothing is lost
        XCTAssertEqual(lines, ["The sun 🌅", "rises over", "朝の山 and", "the road", "begins"])
        XCTAssertTrue(lines.allSatisfy { DisplayWidth.width(of: $0) <= 12 })
    }

    func testGivenAWordWiderThanTheLineWhenWrappedThenItBreaksBetweenCharactersAndNothingIsLost() {
        // Given a word wider than the line and a run of wide characters
        // When wrapped
        // Then they break between clusters, never inside one, and an empty text is one empty line
        XCTAssertEqual(DisplayWidth.wrap("abcdefghij xy", width: 4), ["abcd", "efgh", "ij", "xy"])
        XCTAssertEqual(DisplayWidth.wrap("日本語テキスト", width: 5), ["日本", "語テ", "キス", "ト"])
        XCTAssertEqual(DisplayWidth.wrap("👩‍👩‍👧👩‍👩‍👧", width: 3), ["👩‍👩‍👧", "👩‍👩‍👧"])
        XCTAssertEqual(DisplayWidth.wrap("", width: 10), [""])
        XCTAssertEqual(DisplayWidth.wrap("日", width: 1), ["…"], "a character wider than the line is cut, not overflowing")
    }
}
