import FolioLaunch
import XCTest

/// The editor's item marks put on rows aligned by their text (`VersionComparison.make(…, itemMarks:)`).
final class ItemMarksRowsTests: XCTestCase {
    private func comparison(_ old: [String], _ new: [String], _ marks: ItemMarks?) -> VersionComparison {
        VersionComparison.make(oldID: "a", newID: "b", old: old, new: new, itemMarks: marks) { _, _ in nil }
    }

    func testGivenItemMarksWhenRowsAreComparedThenEachItemRowTakesItsItemsMarkAndGoneItemsAreRemoved() {
        // Given a checklist drawn before and after: item 2 rewritten, item 3 deleted, a new item 3 added
        let old = ["List", "  1 [ ] Milk", "  2 [ ] Sencha", "  3 [ ] Bread"]
        let new = ["List", "  1 [ ] Milk", "  2 [ ] Tea", "  3 [ ] Jam"]
        let marks = ItemMarks(new: ["2": .changed, "3": .added], removed: ["3"])
        // When compared with the editor's marks
        let rows = comparison(old, new, marks).rows
        // Then the heading and Milk are unmarked, Tea changed, Jam added, and Bread (only in the old version) removed
        func mark(new text: String) -> RowChange?? { rows.first { $0.new.map { new[$0] } == text }.map(\.change) }
        XCTAssertEqual(mark(new: "List"), .some(nil))
        XCTAssertEqual(mark(new: "  1 [ ] Milk"), .some(nil))
        XCTAssertEqual(mark(new: "  2 [ ] Tea"), .some(.changed))
        XCTAssertEqual(mark(new: "  3 [ ] Jam"), .some(.added))
        if let bread = rows.first(where: { $0.old.map { old[$0] } == "  3 [ ] Bread" }), bread.new == nil {
            XCTAssertEqual(bread.change, .removed)
        }
        // And without marks the same rows are still told apart by their text (the fallback for editors without items)
        XCTAssertNotNil(comparison(old, new, nil).rows.first { $0.new.map { new[$0] } == "  2 [ ] Tea" }?.change)
    }
}
