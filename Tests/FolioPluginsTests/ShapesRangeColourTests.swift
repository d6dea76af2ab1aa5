import FolioCore
@testable import FolioPlugins
import Foundation
import XCTest

/// Shapes: colours from a named list, shown in the view; move, resize, delete and colour on a range or the selection.
final class ShapesRangeColourTests: XCTestCase {
    private func drawing(_ shapes: String) throws -> HostedDocument {
        try HostedPlugins.editor("shapes").open(Data(#"{"shapes":[\#(shapes)]}"#.utf8))
    }

    private let twoShapes = #"{"kind":"rect","x":0,"y":0,"w":6,"h":3,"color":"red"},{"kind":"ellipse","x":8,"y":1,"w":9,"h":5,"color":"black"}"#

    func testGivenAColourOutsideTheListWhenAShapeIsAddedThenItIsRefusedWithTheList() throws {
        // Given an empty drawing
        let document = try drawing("")
        // When a shape is added in "chartreuse", then in "blue"
        // Then chartreuse is refused with the list of colours, blue is taken
        XCTAssertThrowsError(try document.applying("add", arguments: ["rect", "0", "0", "4", "2", "chartreuse"])) { error in
            XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidArgument)
            XCTAssertTrue("\(error)".contains("COLOR must be one of black, red, green, yellow, blue, magenta, cyan, white: got 'chartreuse'"), "\(error)")
        }
        XCTAssertEqual(try document.apply("add", "rect", "0", "0", "4", "2", "blue").1, "added rect 1 at (0, 0), 4 x 2, blue")
    }

    func testGivenTheColourListWhenTheManifestIsReadThenAddAndColorOfferItAsChoices() throws {
        // Given the bundled Shapes editor's commands
        let commands = try HostedPlugins.editor("shapes").manifest.commands
        // When the colour arguments are read as the host reads them
        let add = try XCTUnwrap(commands.first { $0.id == "add" }), color = try XCTUnwrap(commands.first { $0.id == "color" })
        let colourWord = CommandArgument(usageWord: try XCTUnwrap(add.argumentNames.last))
        // Then they are the named list (a picker in the host), optional for add
        XCTAssertEqual(colourWord.choices, ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"])
        XCTAssertTrue(colourWord.optional)
        XCTAssertEqual(CommandArgument(usageWord: try XCTUnwrap(color.argumentNames.last)).choices, colourWord.choices)
        XCTAssertEqual(colourWord.problem(with: "chartreuse"), "'chartreuse' is not one of black, red, green, yellow, blue, magenta, cyan, white")
    }

    func testGivenTwoShapesWhenColouredAsARangeThenBothTakeTheColourAndTheViewShowsItByName() throws {
        // Given a red rectangle and a black ellipse
        let document = try drawing(twoShapes)
        // When both are coloured blue as the range 2-1
        let (blue, description) = try document.apply("color", "2-1", "blue")
        // Then both are blue, and the list and the drawing name the colour
        XCTAssertEqual(description, "coloured shapes 1-2 blue")
        let lines = try blue.render(width: 40, height: 12)
        XCTAssertEqual(Array(lines[1...2]), [" 1 blue rect at (0, 0), 6 x 3", " 2 blue ellipse at (8, 1), 9 x 5"])
        XCTAssertTrue(lines.contains { $0.contains("2 blue") && $0.hasPrefix("|") == false && $0.contains("o") }, "\(lines)")
        XCTAssertThrowsError(try document.applying("color", arguments: ["1", "chartreuse"]))
    }

    func testGivenARangeWhenMovedOrResizedThenTheFirstTakesTheValuesAndTheOthersTheSameChange() throws {
        // Given a rectangle at (0, 0) and an ellipse at (8, 1)
        let document = try drawing(twoShapes)
        // When the range 1-2 is moved to (2, 4), then resized to 8 x 4
        let (moved, movedText) = try document.apply("move", "1-2", "2", "4")
        let (resized, resizedText) = try moved.apply("resize", "1-2", "8", "4")
        // Then the group keeps its arrangement: each moved by (+2, +4), each grown by (+2, +1)
        XCTAssertEqual(movedText, "moved shapes 1-2 by (+2, +4)")
        XCTAssertEqual(resizedText, "resized shapes 1-2 by (+2, +1)")
        XCTAssertEqual(try resized.text.withoutShapeIDs, """
        {"shapes": [
          {"kind": "rect", "x": 2, "y": 4, "w": 8, "h": 4, "color": "red"},
          {"kind": "ellipse", "x": 10, "y": 5, "w": 11, "h": 6, "color": "black"}
        ]}

        """)
        // And a single shape still moves to X Y
        XCTAssertEqual(try document.apply("move", "2", "0", "9").1, "moved ellipse 2 to (0, 9)")
    }

    func testGivenASelectionAndNoShapeNumberWhenACommandRunsThenItActsOnTheSelection() throws {
        // Given three shapes and the selection 3 back to 2 (as `folio edit --selection 3-2` passes it)
        let document = try drawing(twoShapes + #",{"kind":"rect","x":30,"y":0,"w":2,"h":2}"#)
        let selection = ViewSelection(cursor: 2, anchor: 3)
        // When delete and move are run without N
        let deleted = try document.applying("delete", arguments: [], selection: selection)
        let moved = try document.applying("move", arguments: ["9", "9"], selection: selection)
        // Then they act on shapes 2-3; an explicit N wins over the selection
        XCTAssertEqual(deleted.description, "deleted shapes 2-3")
        XCTAssertEqual(moved.description, "moved shapes 2-3 by (+1, +8)")
        XCTAssertEqual(try document.applying("delete", arguments: ["1"], selection: selection).description, "deleted rect 1")
        XCTAssertThrowsError(try document.applying("delete", arguments: []), "no N and no selection: nothing to act on")
    }
}
