@testable import FolioPlugins
import Foundation
import XCTest

/// The shapes editor's semantic diff and merge (C), through the ABI as Folio calls them.
final class ShapesSemanticTests: SemanticEditorTestCase {
    override var editorID: String { "shapes" }

    private func drawing(_ shapes: [(String, Int, Int, Int, Int, String)]) -> String {
        let items = shapes.map { #"{"kind": "\#($0.0)", "x": \#($0.1), "y": \#($0.2), "w": \#($0.3), "h": \#($0.4), "color": "\#($0.5)"}"# }
        return #"{"shapes": ["# + items.joined(separator: ", ") + "]}"
    }

    private var base: String { drawing([("rect", 0, 0, 6, 3, "red"), ("ellipse", 8, 0, 7, 5, "blue"), ("rect", 2, 2, 1, 1, "black")]) }

    func testGivenTheShapesEditorWhenItsManifestIsReadThenItOffersSemanticDiffAndMerge() throws {
        try assertManifestOffersSemanticDiffAndMerge()
    }

    func testGivenAShapeMovedResizedAndAnotherRecolouredWhenDiffedThenEachChangeIsNamed() throws {
        let new = drawing([("rect", 1, 1, 6, 3, "red"), ("ellipse", 8, 0, 9, 5, "green"), ("rect", 2, 2, 1, 1, "black")])
        XCTAssertEqual(try diff(base, new), ["moved rect 1 from (0, 0) to (1, 1)",
                                             "resized ellipse 2 from 7 x 5 to 9 x 5", "recoloured ellipse 2 from blue to green"])
    }

    func testGivenAShapeDeletedFromTheMiddleWhenDiffedThenOnlyItIsRemovedNotTheOnesAfterItChanged() throws {
        let new = drawing([("rect", 0, 0, 6, 3, "red"), ("rect", 2, 2, 1, 1, "black")])
        XCTAssertEqual(try diff(base, new), ["removed ellipse 2 at (8, 0), 7 x 5, blue"])
    }

    func testGivenAShapeAddedWhenDiffedThenItIsNamedWithItsNumber() throws {
        let new = drawing([("rect", 0, 0, 6, 3, "red"), ("ellipse", 8, 0, 7, 5, "blue"), ("rect", 2, 2, 1, 1, "black"), ("ellipse", 1, 1, 2, 2, "red")])
        XCTAssertEqual(try diff(base, new), ["added ellipse 4 at (1, 1), 2 x 2, red"])
        XCTAssertEqual(try diff(base, base), [])
    }

    func testGivenEditsToDifferentShapesWhenMergedThenBothApply() throws {
        let ours = drawing([("rect", 5, 5, 6, 3, "red"), ("ellipse", 8, 0, 7, 5, "blue"), ("rect", 2, 2, 1, 1, "black")])
        let theirs = drawing([("rect", 0, 0, 6, 3, "red"), ("ellipse", 8, 0, 7, 5, "blue"), ("rect", 2, 2, 4, 4, "black"), ("rect", 9, 9, 1, 1, "red")])
        guard case let .merged(data) = try merge(base, ours, theirs) else { return XCTFail("expected a clean merge") }
        XCTAssertEqual(try diff(base, String(decoding: data, as: UTF8.self)),
                       ["added rect 4 at (9, 9), 1 x 1, red", "moved rect 1 from (0, 0) to (5, 5)", "resized rect 3 from 1 x 1 to 4 x 4"])
    }

    func testGivenOneShapeMovedByOneSideAndRecolouredByTheOtherWhenMergedThenBothFieldsApply() throws {
        let ours = drawing([("rect", 5, 5, 6, 3, "red"), ("ellipse", 8, 0, 7, 5, "blue"), ("rect", 2, 2, 1, 1, "black")])
        let theirs = drawing([("rect", 0, 0, 6, 3, "green"), ("ellipse", 8, 0, 7, 5, "blue"), ("rect", 2, 2, 1, 1, "black")])
        guard case let .merged(data) = try merge(base, ours, theirs) else { return XCTFail("expected a clean merge") }
        XCTAssertTrue(String(decoding: data, as: UTF8.self).withoutShapeIDs.contains(#"{"kind": "rect", "x": 5, "y": 5, "w": 6, "h": 3, "color": "green"}"#))
    }

    func testGivenTheSameShapeMovedTwoWaysWhenMergedThenItIsAConflictNamingTheShape() throws {
        let ours = drawing([("rect", 5, 5, 6, 3, "red"), ("ellipse", 8, 0, 7, 5, "blue"), ("rect", 2, 2, 1, 1, "black")])
        let theirs = drawing([("rect", 7, 7, 6, 3, "red"), ("ellipse", 8, 0, 7, 5, "blue"), ("rect", 2, 2, 1, 1, "black")])
        XCTAssertEqual(try merge(base, ours, theirs), .conflicts(["rect 1: moved to (5, 5) by us, to (7, 7) by them"]))
    }

    func testGivenAShapeDeletedOnOneSideAndResizedOnTheOtherWhenMergedThenItIsAConflict() throws {
        let ours = drawing([("rect", 0, 0, 6, 3, "red"), ("rect", 2, 2, 1, 1, "black")])
        let theirs = drawing([("rect", 0, 0, 6, 3, "red"), ("ellipse", 8, 0, 9, 9, "blue"), ("rect", 2, 2, 1, 1, "black")])
        XCTAssertEqual(try merge(base, ours, theirs), .conflicts(["ellipse 2: removed by us, changed by them"]))
    }

    func testGivenMalformedOrNonUTF8DocumentsWhenDiffedOrMergedThenThePluginRefusesWithAnErrorAndSurvives() throws {
        let hostile: [Data] = [Data(#"{"shapes": [{"kind": "rect""#.utf8), Data([0x7B, 0xFF, 0xFE, 0x7D]), Data(#"{"shapes": [{"kind": "hexagon", "x": 1, "y": 1, "w": 1, "h": 1}]}"#.utf8),
                               Data(#"{"shapes": [{"kind": "rect", "x": 1e400, "y": 1, "w": 1, "h": 1}]}"#.utf8), Data(String(repeating: "[", count: 100_000).utf8)]
        for bad in hostile {
            XCTAssertThrowsError(try editor().semanticDiff(from: Data(base.utf8), to: bad)) { error in
                XCTAssertTrue("\(error)".contains("not a shapes document"), "\(error)")
            }
            XCTAssertThrowsError(try editor().semanticMerge(base: Data(base.utf8), ours: bad, theirs: Data(base.utf8)))
        }
        XCTAssertEqual(try diff(base, base), [], "still answering after the hostile input")
    }

    func testGivenLargeDrawingsWhenDiffedThenTheMatchIsBoundedAndStillNamesTheChange() throws {
        let many = (0..<5000).map { ("rect", $0, $0, 1, 1, "red") }
        var changed = many
        changed.remove(at: 2500)
        XCTAssertEqual(try diff(drawing(many), drawing(changed)), ["removed rect 2501 at (2500, 2500), 1 x 1, red"])
    }
}

/// Random drawings: a merge where one side changed nothing is the other side, and diffing never fails on valid input.
final class ShapesMergePropertyTests: XCTestCase {
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    func testGivenRandomDrawingsWhenOneSideIsUnchangedThenTheMergeIsTheOtherSide() throws {
        let editor = try HostedPlugins.editor("shapes")
        var random = Generator(state: 12345)
        func drawing(_ count: Int) -> [String] {
            (0..<count).map { _ in
                #"{"kind": "\#(random.next(2) == 0 ? "rect" : "ellipse")", "x": \#(random.next(5)), "y": \#(random.next(5)), "w": \#(random.next(3)), "h": \#(random.next(3)), "color": "\#(["red", "blue"][random.next(2)])"}"#
            }
        }
        func text(_ shapes: [String]) -> Data { Data((#"{"shapes": ["# + shapes.joined(separator: ", ") + "]}").utf8) }
        func edited(_ shapes: [String]) -> [String] {
            var shapes = shapes
            for _ in 0..<random.next(4) {
                switch random.next(3) {
                case 0 where !shapes.isEmpty: shapes.remove(at: random.next(shapes.count))
                case 1 where !shapes.isEmpty: shapes[random.next(shapes.count)] = drawing(1)[0]
                default: shapes.insert(drawing(1)[0], at: random.next(shapes.count + 1))
                }
            }
            return shapes
        }
        for _ in 0..<300 {
            let base = drawing(random.next(8))
            let changed = edited(base)
            let serialized = try editor.open(text(changed)).text
            XCTAssertEqual(try editor.semanticMerge(base: text(base), ours: text(base), theirs: text(changed)), .merged(Data(serialized.utf8)))
            XCTAssertEqual(try editor.semanticMerge(base: text(base), ours: text(changed), theirs: text(base)), .merged(Data(serialized.utf8)))
            XCTAssertNotNil(try editor.semanticDiff(from: text(base), to: text(changed)))
            _ = try editor.semanticMerge(base: text(base), ours: text(edited(base)), theirs: text(edited(base)))
        }
    }
}
