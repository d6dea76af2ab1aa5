@testable import FolioPlugins
import Foundation
import XCTest

/// The Shapes canvas at 60×16 (a 60×14 view in the window): it pans to the shape under the cursor, and a shape it cuts
/// or cannot show is marked, never cut silently.
final class ShapesCanvasTests: XCTestCase {
    /// A drawing wider and taller than a 60×16 window: one shape near the origin, one across the right edge, one far
    /// below.
    private func wideDrawing() throws -> HostedDocument {
        let json = #"{"shapes":[{"kind":"rect","x":0,"y":0,"w":6,"h":3,"color":"red"},"#
            + #"{"kind":"rect","x":50,"y":2,"w":20,"h":4,"color":"blue"},{"kind":"rect","x":2,"y":30,"w":12,"h":4,"color":"green"}]}"#
        return try HostedPlugins.editor("shapes").open(Data(json.utf8))
    }

    func testGivenShapesBeyondTheCanvasAtSixtyBySixteenWhenViewedThenTheCutShapeIsMarkedAndTheRestCounted() throws {
        // Given the wide drawing, no cursor
        // When viewed at 60×14
        let lines = try wideDrawing().render(width: 60, height: 14)
        // Then every line fits, the rule counts the cut and the unseen shape, and '>' marks the cut edge
        XCTAssertTrue(lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        XCTAssertEqual(lines[4], "-- canvas at (0, 0), 1 cut, 1 out of sight " + String(repeating: "-", count: 17))
        XCTAssertEqual(Array(lines[5...]), [
            "+----+",
            "|1   |",
            "+----+                                            +-------->",
            "                                                  |2 blue  >",
            "                                                  |        >",
            "                                                  +-------->",
            "", "", "",
        ])
    }

    func testGivenTheCursorOnAShapeOutOfSightWhenViewedThenTheCanvasPansToShowItWhole() throws {
        // Given the wide drawing with the cursor on the shape far below, then on the one across the right edge
        let document = try wideDrawing()
        // When viewed at 60×14
        let below = try document.render(width: 60, height: 14, selection: ViewSelection(cursor: 3))
        let right = try document.render(width: 60, height: 14, selection: ViewSelection(cursor: 2))
        // Then the canvas has moved so that the shape is whole (its corners and label drawn in '*', the selection)
        XCTAssertTrue(below[4].hasPrefix("-- canvas at (0, 25), 2 out of sight"), below[4])
        XCTAssertEqual(below.suffix(4), ["  ************", "  *3 green   *", "  *          *", "  ************"])
        XCTAssertTrue(right[4].hasPrefix("-- canvas at (10, 0)"), right[4])
        XCTAssertTrue(right.contains { $0.hasSuffix("********************") && $0.count == 60 }, "\(right)")
        XCTAssertTrue(right.contains { $0.hasSuffix("*2 blue            *") }, "\(right)")
    }

    func testGivenASmallViewWhenRenderedThenTheRuleEndsInItsLineAndNoCanvasRowReadsAsAListRow() throws {
        // Given a shape whose label would start a canvas row with a number
        let document = try HostedPlugins.editor("shapes")
            .open(Data(#"{"shapes":[{"kind":"rect","x":3,"y":0,"w":1,"h":1},{"kind":"rect","x":20,"y":0,"w":1,"h":1}]}"#.utf8))
        for width in 1...30 {
            // When rendered at every narrow width
            let lines = try document.render(width: width, height: 8)
            // Then the rule is exactly the width and ends in '-', and the drawing rows never start (after spaces) with a digit
            let rule = try XCTUnwrap(lines.first { $0.hasPrefix("-") }, "width \(width): \(lines)")
            XCTAssertEqual(rule.count, width, "width \(width): \(rule)")
            XCTAssertEqual(rule.last, "-")
            for row in lines.drop(while: { !$0.hasPrefix("-") }).dropFirst() {
                XCTAssertFalse(row.drop { $0 == " " || $0 == ">" }.first?.isNumber ?? false, "width \(width): '\(row)'")
            }
        }
    }
}
