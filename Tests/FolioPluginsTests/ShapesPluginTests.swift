@testable import FolioPlugins
import Foundation
import XCTest

final class ShapesPluginTests: XCTestCase {
    private func editor() throws -> HostedEditor { try HostedPlugins.editor("shapes") }

    func testGivenADrawingWhenShapesAreAddedMovedResizedAndDeletedThenTheJSONFollows() throws {
        var (document, description) = try editor().open(Data()).apply("add", "rect", "0", "0", "6", "3", "red")
        XCTAssertEqual(description, "added rect 1 at (0, 0), 6 x 3, red")
        (document, description) = try document.apply("add", "ellipse", "8", "0", "7", "5")
        (document, description) = try document.apply("move", "1", "1", "1")
        XCTAssertEqual(description, "moved rect 1 to (1, 1)")
        (document, description) = try document.apply("resize", "2", "9", "5")
        XCTAssertEqual(description, "resized ellipse 2 to size (9, 5)")
        (document, _) = try document.apply("add", "rect", "2", "2", "1", "1")
        (document, description) = try document.apply("delete", "3")
        XCTAssertEqual(description, "deleted rect 3")
        let text = try document.text
        XCTAssertEqual(text.shapeIDs.count, 2, "every shape has an id: \(text)")
        XCTAssertEqual(Set(text.shapeIDs).count, 2, text)
        XCTAssertTrue(text.shapeIDs.allSatisfy { $0.count == 12 && $0.allSatisfy { "0123456789abcdef".contains($0) } }, text)
        XCTAssertEqual(text.withoutShapeIDs, """
        {"shapes": [
          {"kind": "rect", "x": 1, "y": 1, "w": 6, "h": 3, "color": "red"},
          {"kind": "ellipse", "x": 8, "y": 0, "w": 9, "h": 5, "color": "black"}
        ]}

        """)
        XCTAssertEqual(try document.render(width: 20, height: 10), [
            "shapes: 2",
            " 1 red rect at (1, 1",
            " 2 black ellipse at ",
            "-- (0, 0) ----------",
            "          ooooo",
            " +----+ oo     oo",
            " |1   | o2 blacko",
            " +----+ oo     oo",
            "          ooooo",
            "",
        ], "the summary, the numbered list (the items the cursor moves over, colour first), the canvas's rule, the drawing")
    }

    func testGivenBadArgumentsWhenAppliedThenTheCPluginReturnsAnErrorStatus() throws {
        let document = try editor().open(Data(#"{"shapes":[{"kind":"rect","x":0,"y":0,"w":2,"h":2}]}"#.utf8))
        for (command, arguments) in [("move", ["2", "0", "0"]), ("move", ["0", "0", "0"]), ("move", ["1", "x", "0"]), ("resize", ["1", "0", "3"]),
                                     ("add", ["circle", "0", "0", "1", "1"]), ("add", ["rect", "0", "0", "1"]), ("add", ["rect", "0", "0", "1", "1", "red;"]),
                                     ("delete", ["99999999999999999999"]), ("add", ["rect", "1e3", "0", "1", "1"])] {
            XCTAssertThrowsError(try document.applying(command, arguments: arguments), "\(command) \(arguments)") { error in
                XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidArgument, "\(error)")
            }
        }
        XCTAssertThrowsError(try document.applying("explode", arguments: [])) { error in
            XCTAssertEqual((error as? EditorOperationError)?.kind, .unknownCommand)
        }
    }

    func testGivenHostileJSONWhenOpenedThenTheCPluginRefusesItWithoutCrashing() throws {
        let editor = try editor()
        let valid = #"{"shapes":[{"kind":"rect","x":1,"y":2,"w":3,"h":4,"color":"red","extra":{"a":[1,2,{"b":null}]}}],"other":"\u00e9"}"#
        XCTAssertNoThrow(try editor.open(Data(valid.utf8)))
        let hostile = [
            "{", "[", "{\"shapes\":", "{\"shapes\":[{", "{\"shapes\":[{\"kind\":\"rect\"}]}", "{\"shapes\":[{\"kind\":\"rect\",\"x\":1e400,\"y\":0,\"w\":1,\"h\":1}]}",
            "{\"shapes\":[{\"kind\":\"rect\",\"x\":-99999999999999999999999,\"y\":0,\"w\":1,\"h\":1}]}", "{\"shapes\":\"x\"}",
            String(repeating: "[", count: 100_000), "{\"a\":" + String(repeating: "{\"a\":", count: 1000), "{\"shapes\":[{\"kind\":\"\\ud800\"}]}",
            "{\"shapes\":[{\"color\":\"" + String(repeating: "r", count: 10_000) + "\"}]}", "{\"shapes\":[]} trailing", "\u{0}",
        ]
        for text in hostile {
            XCTAssertThrowsError(try editor.open(Data(text.utf8)), String(text.prefix(60))) { error in
                XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidDocument, "\(error)")
            }
        }
        // Random mutations of a valid document: any outcome but a crash is fine.
        var generator = SystemRandomNumberGenerator()
        let bytes = Array(valid.utf8)
        for _ in 0..<2000 {
            var mutated = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<mutated.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: mutated[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: mutated.remove(at: index)
                default: mutated.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
            }
            if let document = try? editor.open(Data(mutated)) {
                _ = try? document.render(width: 30, height: 10)
                _ = try? document.serialized()
            }
        }
    }

    func testGivenHugeCoordinatesWhenRenderedThenOnlyTheVisiblePartIsDrawn() throws {
        let document = try editor().open(Data(#"{"shapes":[{"kind":"ellipse","x":-1000000,"y":-1000000,"w":1000000,"h":1000000}]}"#.utf8))
        XCTAssertEqual(try document.render(width: 5, height: 3, selection: ViewSelection(cursor: 1)).first, "shape")
        XCTAssertEqual(try document.render(width: 100_000, height: 100_000).count, 2000, "the canvas is capped")
    }
}
