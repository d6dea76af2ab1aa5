@testable import FolioPlugins
import FolioDisplayWidth
import Foundation
import XCTest

/// The story's view at the sizes a user has: the scene divider fills the width, the scene text wraps.
final class StoryViewTests: XCTestCase {
    private let markdown = """
    ## Act I: 朝 — Morning 🌅

    ### 朝 — Morning 🌅

    The sun rises over the hills and the long road west begins with a single step into the cold morning air.

    """

    private func open() throws -> HostedDocument {
        try HostedPlugins.editor("story").open(Data(markdown.utf8))
    }

    func testGivenASceneWithWideTitleWhenViewedAtThreeWidthsThenTheDividerFillsTheWidthAndTheTextWraps() throws {
        // Given a scene whose title has a CJK character and an emoji, under the cursor
        let document = try open()
        // When the view is drawn at 30, 60 and 100 columns
        // Then the divider ends in the rule exactly at the edge and the text is wrapped, not cut with "…"
        XCTAssertEqual(try document.render(width: 30, height: 16, selection: ViewSelection(cursor: 2)), [
            "Untitled story        21 words",
            " 1 Act I: 朝 — Morning 🌅  21…",
            ">  1.1 朝 — Morning 🌅  21 wo…",
            "── 1.1 朝 — Morning 🌅 ───────",
            "│ The sun rises over the hills",
            "│ and the long road west",
            "│ begins with a single step",
            "│ into the cold morning air.",
        ])
        XCTAssertEqual(try document.render(width: 60, height: 16, selection: ViewSelection(cursor: 2)), [
            "Untitled story                                      21 words",
            " 1 Act I: 朝 — Morning 🌅                           21 words",
            ">  1.1 朝 — Morning 🌅                              21 words",
            "── 1.1 朝 — Morning 🌅 ─────────────────────────────────────",
            "│ The sun rises over the hills and the long road west begins",
            "│ with a single step into the cold morning air.",
        ])
        XCTAssertEqual(try document.render(width: 100, height: 16, selection: ViewSelection(cursor: 2)).suffix(3), [
            "── 1.1 朝 — Morning 🌅 ─────────────────────────────────────────────────────────────────────────────",
            "│ The sun rises over the hills and the long road west begins with a single step into the cold",
            "│ morning air.",
        ])
    }

    func testGivenASceneWithWideTitleWhenViewedAtEveryWidthThenTheDividerIsExactlyTheWidthAndNeverEndsInAnEllipsis() throws {
        // Given the scene under the cursor
        let document = try open()
        for width in 4...160 {
            // When the view is drawn at that width (16 rows: room for the text)
            let lines = try document.render(width: width, height: 16, selection: ViewSelection(cursor: 2))
            // Then the divider is as wide as the view and its last cell is the rule
            let divider = try XCTUnwrap(lines.first { $0.hasPrefix("──") }, "width \(width): \(lines)")
            XCTAssertEqual(DisplayWidth.width(of: divider), width, "width \(width): \(divider)")
            XCTAssertEqual(divider.last, "─", "width \(width): \(divider)")
            XCTAssertTrue(lines.allSatisfy { DisplayWidth.width(of: $0) <= width }, "width \(width): \(lines)")
        }
    }

    func testGivenALongSceneAtSixtyBySixteenWhenViewedThenTheTextFillsTheRowsLeftWrapped() throws {
        // Given a scene of one long paragraph (a 60×16 window's view is 16 rows less the host's 2)
        var long = try open()
        (long, _) = try long.apply("set-text", "1", "1", String(repeating: "word ", count: 200))
        // When viewed at 60×14
        let lines = try long.render(width: 60, height: 14, selection: ViewSelection(cursor: 2))
        // Then every row is used, the text rows are whole words, and none is cut with "…"
        XCTAssertEqual(lines.count, 14)
        let text = lines.drop { !$0.hasPrefix("──") }.dropFirst()
        XCTAssertGreaterThanOrEqual(text.count, 9)
        XCTAssertTrue(text.allSatisfy { $0.hasPrefix("│ word") && $0.hasSuffix("word") }, "\(text)")
    }
}
