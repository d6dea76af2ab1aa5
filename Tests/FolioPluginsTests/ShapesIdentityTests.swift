@testable import FolioPlugins
import Foundation
import XCTest

/// Shapes with identities (issue 32): every shape has an id in the document, kept by every command and never shown;
/// documents without ids get the same ids on every read; versions are matched and merged by id; fields the plugin does
/// not know are kept and merged as opaque values.
final class ShapesIdentityTests: SemanticEditorTestCase {
    override var editorID: String { "shapes" }

    private struct NotMerged: Error {}

    /// A drawing made by the editor's own commands (so its shapes have fresh ids): a red rect and a blue ellipse.
    private func twoShapes() throws -> HostedDocument {
        var (document, _) = try editor().open(Data()).apply("add", "rect", "0", "0", "6", "3", "red")
        (document, _) = try document.apply("add", "ellipse", "8", "0", "7", "5", "blue")
        return document
    }

    private func merged(_ base: HostedDocument, _ ours: HostedDocument, _ theirs: HostedDocument) throws -> SemanticMergeResult {
        try merge(base.text, ours.text, theirs.text)
    }

    private func mergedText(_ result: SemanticMergeResult, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard case let .merged(data) = result else {
            XCTFail("expected a clean merge, got \(result)", file: file, line: line)
            throw NotMerged()
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The drawing's shapes as the items list summarises them ("rect at (0, 0), 6 x 3, red"), in order.
    private func summaries(_ text: String) throws -> [String] {
        try XCTUnwrap(editor().items(of: Data(text.utf8), previous: nil)).map(\.summary)
    }

    // MARK: Ids in the document

    func testGivenShapesWhenEveryCommandRunsThenEachShapeKeepsItsIdAndTheViewNeverShowsIt() throws {
        let document = try twoShapes()
        let ids = try document.text.shapeIDs
        guard ids.count == 2 else { return XCTFail("expected an id on each shape: \(try document.text)") }
        XCTAssertNotEqual(ids[0], ids[1], "two new shapes get different random ids")
        var (changed, _) = try document.apply("move", "1", "4", "4")
        (changed, _) = try changed.apply("resize", "2", "9", "9")
        (changed, _) = try changed.apply("color", "1-2", "green")
        XCTAssertEqual(try changed.text.shapeIDs, ids, "move, resize and colour keep the ids")
        let (deleted, _) = try changed.apply("delete", "1")
        XCTAssertEqual(try deleted.text.shapeIDs, [ids[1]], "delete takes the shape's id with it and leaves the other's")
        let view = try changed.render(width: 80, height: 20, selection: ViewSelection(cursor: 1)).joined(separator: "\n")
        for id in ids { XCTAssertFalse(view.contains(id), view) }
        XCTAssertEqual(try diff(document.text, changed.text).filter { line in ids.contains { line.contains($0) } }, [], "the diff names shapes, not ids")
    }

    func testGivenAnOldDocumentWithoutIdsWhenReadTwiceAndInAnotherProcessThenItsShapesGetTheSameIds() throws {
        // Given today's format: no ids, two equal shapes among them
        let old = #"{"shapes": [{"kind": "rect", "x": 0, "y": 0, "w": 6, "h": 3, "color": "red"}, {"kind": "rect", "x": 0, "y": 0, "w": 6, "h": 3, "color": "red"}, {"kind": "ellipse", "x": 8, "y": 0, "w": 7, "h": 5, "color": "blue"}]}"#
        // When it is read twice here and once by a second plugin host process
        let first = try editor().open(Data(old.utf8)).text
        let second = try editor().open(Data(old.utf8)).text
        let otherRegistry = PluginFixtures.bundledHost()
        let otherProcess = try XCTUnwrap(otherRegistry.editors.first { $0.editor.id == "shapes" }?.editor)
        let other = try HostedEditor(backend: otherRegistry.backend("shapes"), manifest: otherProcess).open(Data(old.utf8)).text
        // Then every shape has an id, the equal shapes different ones, and all three reads agree
        XCTAssertEqual(first.shapeIDs.count, 3, first)
        XCTAssertEqual(Set(first.shapeIDs).count, 3, first)
        XCTAssertEqual(second, first)
        XCTAssertEqual(other, first)
        // And nothing of the old document was lost
        XCTAssertEqual(try summaries(first), try summaries(old))
    }

    func testGivenAnOldDocumentEditedOnTwoClonesIndependentlyWhenMergedThenTheMigratedIdsAgreeAndBothChangesApply() throws {
        let old = #"{"shapes": [{"kind": "rect", "x": 0, "y": 0, "w": 6, "h": 3, "color": "red"}, {"kind": "ellipse", "x": 8, "y": 0, "w": 7, "h": 5, "color": "blue"}]}"#
        // Clone A recolours the rect; clone B moves and resizes it and adds a shape (each migrating the document itself)
        let (ours, _) = try editor().open(Data(old.utf8)).apply("color", "1", "green")
        var (theirs, _) = try editor().open(Data(old.utf8)).apply("move", "1", "20", "10")
        (theirs, _) = try theirs.apply("resize", "1", "2", "2")
        (theirs, _) = try theirs.apply("add", "rect", "1", "1", "1", "1", "white")
        XCTAssertEqual(Array(try ours.text.shapeIDs.prefix(2)), Array(try theirs.text.shapeIDs.prefix(2)), "both clones gave the old shapes the same ids")
        // When merged from the old version
        let text = try mergedText(try merge(old, ours.text, theirs.text))
        // Then one rect with A's colour and B's place and size, the ellipse, and B's new shape
        XCTAssertEqual(try summaries(text), ["rect at (20, 10), 2 x 2, green", "ellipse at (8, 0), 7 x 5, blue", "rect at (1, 1), 1 x 1, white"])
        XCTAssertEqual(text.shapeIDs, try theirs.text.shapeIDs)
        XCTAssertEqual(Set(text.shapeIDs).count, 3, "each shape has its own id: \(text)")
    }

    func testGivenAShapeChangedBeyondRecognitionWhenItemsAreListedAgainstTheEarlierVersionThenItIsMatchedByItsId() throws {
        // Given two shapes; then the first moved, resized and recoloured (nothing of it left alike) and put last
        let before = try twoShapes()
        var (after, _) = try before.apply("move", "1", "50", "50")
        (after, _) = try after.apply("resize", "1", "1", "1")
        (after, _) = try after.apply("color", "1", "white")
        let ids = try after.text.shapeIDs
        guard ids.count == 2 else { return XCTFail("expected an id on each shape: \(try after.text)") }
        let lines = try after.text.split(separator: "\n").map(String.init)
        let swapped = [lines[0], lines[2] + ",", String(lines[1].dropLast()), lines[3]].joined(separator: "\n") + "\n"
        XCTAssertEqual(swapped.shapeIDs, [ids[1], ids[0]], swapped)
        // When listed against the earlier version
        let items = try XCTUnwrap(editor().items(of: Data(swapped.utf8), previous: Data(before.text.utf8)))
        // Then each shape is the one with its id: the ellipse was 2, the changed rect was 1
        XCTAssertEqual(items.map(\.previous), ["2", "1"])
        XCTAssertEqual(items.map(\.summary), ["ellipse at (8, 0), 7 x 5, blue", "rect at (50, 50), 1 x 1, white"])
    }

    // MARK: Merging by id

    func testGivenTheSameShapeRecolouredDifferentlyOnBothSidesWhileEachAddedAShapeWhenMergedThenItIsAConflict() throws {
        // Given a red rect; each side recolours it and adds a red rect where it was (a copy of the original)
        let (base, _) = try editor().open(Data()).apply("add", "rect", "0", "0", "6", "3", "red")
        var (ours, _) = try base.apply("color", "1", "green")
        (ours, _) = try ours.apply("add", "rect", "0", "0", "6", "3", "red")
        var (theirs, _) = try base.apply("color", "1", "yellow")
        (theirs, _) = try theirs.apply("add", "rect", "0", "0", "6", "3", "red")
        // When merged either way round, then the recolour is one conflict naming the shape and the field
        XCTAssertEqual(try merged(base, ours, theirs), .conflicts(["rect 1: recoloured green by us, yellow by them"]))
        XCTAssertEqual(try merged(base, theirs, ours), .conflicts(["rect 1: recoloured yellow by us, green by them"]))
    }

    func testGivenDifferentFieldsOfOneShapeChangedOnEachSideWhenMergedThenBothChangesSurvive() throws {
        // Given two equal red rects side by side; ours swaps their places (each now looks exactly like the other did),
        // theirs recolours the first
        var (base, _) = try editor().open(Data()).apply("add", "rect", "0", "0", "6", "3", "red")
        (base, _) = try base.apply("add", "rect", "10", "0", "6", "3", "red")
        var (ours, _) = try base.apply("move", "1", "10", "0")
        (ours, _) = try ours.apply("move", "2", "0", "0")
        let (theirs, _) = try base.apply("color", "1", "blue")
        // When merged either way round
        let one = try mergedText(try merged(base, ours, theirs))
        let other = try mergedText(try merged(base, theirs, ours))
        // Then the first rect has ours' place and theirs' colour, the second ours' place, and both keep their ids
        XCTAssertEqual(try summaries(one), ["rect at (10, 0), 6 x 3, blue", "rect at (0, 0), 6 x 3, red"])
        XCTAssertEqual(one.shapeIDs, try base.text.shapeIDs)
        XCTAssertEqual(one.shapeIDs.count, 2)
        XCTAssertEqual(other, one)
    }

    func testGivenAShapeDeletedOnOneSideAndEditedOnTheOtherWhenMergedThenItIsAConflictEitherWayRound() throws {
        let base = try twoShapes()
        let (ours, _) = try base.apply("delete", "2")
        var (theirs, _) = try base.apply("move", "2", "30", "30")
        (theirs, _) = try theirs.apply("resize", "2", "1", "1")
        (theirs, _) = try theirs.apply("color", "2", "white")
        XCTAssertEqual(try merged(base, ours, theirs), .conflicts(["ellipse 2: removed by us, changed by them"]))
        XCTAssertEqual(try merged(base, theirs, ours), .conflicts(["ellipse 2: changed by us, removed by them"]))
        // And a delete against no change is a delete
        let (untouched, _) = try base.apply("color", "1", "green")
        XCTAssertEqual(try summaries(try mergedText(try merged(base, ours, untouched))), ["rect at (0, 0), 6 x 3, green"])
    }

    func testGivenShapesAddedOnBothSidesWhenMergedThenEachSideKeepsItsRunAndEitherSideGivesTheSameDrawing() throws {
        // Given two shapes; ours adds three red ones, theirs three white ones (all on top)
        let base = try twoShapes()
        var ours = base, theirs = base
        for n in 0..<3 {
            (ours, _) = try ours.apply("add", "rect", "\(n)", "20", "1", "1", "red")
            (theirs, _) = try theirs.apply("add", "rect", "\(n)", "30", "1", "1", "white")
        }
        // When merged with either side as ours
        let one = try mergedText(try merged(base, ours, theirs))
        let other = try mergedText(try merged(base, theirs, ours))
        // Then the same drawing: the base's shapes, then one side's three, then the other's, never interleaved
        XCTAssertEqual(other, one)
        let colours = try summaries(one).map { $0.split(separator: " ").last.map(String.init) ?? "" }
        XCTAssertTrue(colours == ["red", "blue", "red", "red", "red", "white", "white", "white"]
                      || colours == ["red", "blue", "white", "white", "white", "red", "red", "red"], "\(colours)")
        // And the runs are ordered by their first ids
        let oursIDs = try ours.text.shapeIDs, theirsIDs = try theirs.text.shapeIDs
        guard oursIDs.count == 5, theirsIDs.count == 5, one.shapeIDs.count == 8 else { return XCTFail("expected an id on each shape: \(one)") }
        XCTAssertEqual(one.shapeIDs[2], min(oursIDs[2], theirsIDs[2]))
        XCTAssertEqual(Set(one.shapeIDs).count, 8)
    }

    func testGivenShapesInsertedAtOnePlaceInTheMiddleOnBothSidesWhenMergedThenTheRunsStayTogether() throws {
        func drawing(_ shapes: [(String, Int)]) -> String {
            #"{"shapes": ["# + shapes.map { #"{"id": "\#($0.0)", "kind": "rect", "x": \#($0.1), "y": 0, "w": 1, "h": 1, "color": "red"}"# }.joined(separator: ", ") + "]}"
        }
        let base = drawing([("a", 0), ("z", 9)])
        let ours = drawing([("a", 0), ("p1", 1), ("p2", 2), ("z", 9)])
        let theirs = drawing([("a", 0), ("k1", 3), ("k2", 4), ("z", 9)])
        let one = try mergedText(try merge(base, ours, theirs))
        XCTAssertEqual(one.shapeIDs, ["a", "k1", "k2", "p1", "p2", "z"])
        XCTAssertEqual(try mergedText(try merge(base, theirs, ours)), one)
    }

    func testGivenAShapeRestackedOnOneSideAndChangedOnTheOtherWhenMergedThenItMovesAndKeepsTheChange() throws {
        func drawing(_ shapes: [(String, String)]) -> String {
            #"{"shapes": ["# + shapes.map { #"{"id": "\#($0.0)", "kind": "rect", "x": 0, "y": 0, "w": 1, "h": 1, "color": "\#($0.1)"}"# }.joined(separator: ", ") + "]}"
        }
        // Given a below b, c and d; ours brings a to the top, theirs recolours it
        let base = drawing([("a", "red"), ("b", "red"), ("c", "red"), ("d", "red")])
        let ours = drawing([("b", "red"), ("c", "red"), ("d", "red"), ("a", "red")])
        let theirs = drawing([("a", "green"), ("b", "red"), ("c", "red"), ("d", "red")])
        // Then a is on top, green
        let one = try mergedText(try merge(base, ours, theirs))
        XCTAssertEqual(one.shapeIDs, ["b", "c", "d", "a"])
        XCTAssertTrue(one.contains(#"{"id": "a", "kind": "rect", "x": 0, "y": 0, "w": 1, "h": 1, "color": "green"}"#), one)
        XCTAssertEqual(try mergedText(try merge(base, theirs, ours)), one)
        // And restacked to different places by both sides (above d, between c and d), it is a conflict
        let elsewhere = drawing([("b", "red"), ("c", "red"), ("a", "red"), ("d", "red")])
        XCTAssertEqual(try merge(base, ours, elsewhere), .conflicts(["rect 1: restacked differently by us and by them"]))
    }

    // MARK: Unknown fields

    private let newerFormat = """
    {"shapes": [{"id": "s1", "kind": "rect", "x": 0, "y": 0, "w": 6, "h": 3, "color": "red", "label": "Door", "style": {"dash": [1, 2], "note": "\\u00e9"}},
      {"id": "s2", "kind": "ellipse", "x": 8, "y": 0, "w": 7, "h": 5, "color": "blue"}], "title": "Plan", "grid": {"step": 4}}
    """

    func testGivenFieldsFromANewerPluginWhenAShapeIsEditedThenTheyAreWrittenBackAsTheyWere() throws {
        let (moved, _) = try editor().open(Data(newerFormat.utf8)).apply("move", "1", "2", "2")
        let text = try moved.text
        XCTAssertTrue(text.contains(#"{"id": "s1", "kind": "rect", "x": 2, "y": 2, "w": 6, "h": 3, "color": "red", "label": "Door", "style": {"dash": [1, 2], "note": "\u00e9"}}"#), text)
        XCTAssertTrue(text.contains(#""title": "Plan""#) && text.contains(#""grid": {"step": 4}"#), text)
        XCTAssertEqual(try editor().open(Data(text.utf8)).text, text, "written back the same again")
    }

    func testGivenUnknownFieldsChangedOnOneSideWhenMergedThenTheyAreMergedAsValuesAndAClashIsAConflict() throws {
        let ours = newerFormat.replacingOccurrences(of: #""label": "Door""#, with: #""label": "Front door""#)
            .replacingOccurrences(of: #""title": "Plan""#, with: #""title": "Ground floor""#)
        let theirs = newerFormat.replacingOccurrences(of: #""x": 0, "y": 0, "w": 6"#, with: #""x": 5, "y": 5, "w": 6"#)
            .replacingOccurrences(of: #""grid": {"step": 4}"#, with: #""grid": {"step": 8}"#)
        let one = try mergedText(try merge(newerFormat, ours, theirs))
        XCTAssertTrue(one.contains(#"{"id": "s1", "kind": "rect", "x": 5, "y": 5, "w": 6, "h": 3, "color": "red", "label": "Front door", "style": {"dash": [1, 2], "note": "\u00e9"}}"#), one)
        XCTAssertTrue(one.contains(#""title": "Ground floor""#) && one.contains(#""grid": {"step": 8}"#), one)
        XCTAssertEqual(try mergedText(try merge(newerFormat, theirs, ours)), one)
        // The same unknown field changed differently on both sides is a conflict naming it
        let clash = newerFormat.replacingOccurrences(of: #""label": "Door""#, with: #""label": "Back door""#)
        XCTAssertEqual(try merge(newerFormat, ours, clash), .conflicts(["rect 1: field 'label' changed differently by us and by them"]))
        let titled = newerFormat.replacingOccurrences(of: #""title": "Plan""#, with: #""title": "Attic""#)
        XCTAssertEqual(try merge(newerFormat, ours, titled), .conflicts(["the drawing: field 'title' changed differently by us and by them"]))
    }
}
