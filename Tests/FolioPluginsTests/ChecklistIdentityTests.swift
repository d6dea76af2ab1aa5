@testable import FolioPlugins
import FolioTestSupport
import Foundation
import XCTest

/// The checklist's items by id: a rename is a changed field of the same item, whatever else moved, and a merge
/// keeps what both people did. Each side is made by the plugin's own commands, as `folio edit` makes it.
final class ChecklistIdentityTests: SemanticEditorTestCase {
    override var editorID: String { "checklist" }

    /// Groceries in today's format, without ids.
    private let old = #"{"title": "Groceries", "items": [{"title": "Milk", "checked": false}, {"title": "Eggs", "checked": false}, {"title": "Bread", "checked": false}, {"title": "Butter", "checked": false}, {"title": "Cheese", "checked": false}, {"title": "Apples", "checked": false}]}"#

    /// The same list as this Folio writes it: every item with its id.
    private func base() throws -> String { try editor().open(Data(old.utf8)).text }

    private func edited(_ json: String, _ commands: [String]...) throws -> String {
        var document = try editor().open(Data(json.utf8))
        for command in commands { document = try document.applying(command[0], arguments: Array(command.dropFirst())).document }
        return try document.text
    }

    private func merged(_ base: String, _ ours: String, _ theirs: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        guard case let .merged(data) = try merge(base, ours, theirs) else {
            XCTFail("expected a clean merge, got \(try merge(base, ours, theirs))", file: file, line: line)
            return []
        }
        return Array(try editor().open(data).render(width: 60, height: 40).dropFirst())
    }

    func testGivenAnOldListWhenOpenedTwiceThenEveryItemHasAnIdAndTheyAreTheSameEachTime() throws {
        // Given a list written before ids, with two items of one title
        let json = #"{"title": "G", "items": [{"title": "Milk", "checked": false}, {"title": "Milk", "checked": true}, {"title": "Eggs", "checked": false}]}"#
        // When it is opened in two plugin hosts (two machines) and written back
        let one = try editor().open(Data(json.utf8)).text
        let two = try HostedPlugins.editor("checklist").open(Data(json.utf8)).text
        // Then each item has its own id, the same on both, and nothing else changed
        let ids = ChecklistIDs.ids(one)
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(Set(ids).count, 3)
        XCTAssertEqual(ids, ChecklistIDs.ids(two))
        XCTAssertTrue(ids.allSatisfy { $0.count == 12 })
        XCTAssertEqual(try editor().open(Data(one.utf8)).render(width: 30, height: 5), ["G  (1/3 done)", " 1 [ ] Milk", " 2 [x] Milk", " 3 [ ] Eggs"])
    }

    func testGivenAListWithIdsWhenEveryCommandRunsThenEachItemKeepsItsIdAndAddedOnesGetNewOnes() throws {
        // Given
        let list = try base()
        let ids = ChecklistIDs.ids(list)
        // When items are renamed, moved, toggled, added and one deleted
        let after = try edited(list, ["rename", "6", "Green apples"], ["move", "6", "1"], ["toggle", "2"], ["add", "Tea"], ["delete", "3"], ["check-all"])
        // Then the survivors keep their ids in their new order, and the new item has a fresh one
        let now = ChecklistIDs.ids(after)
        XCTAssertEqual(Array(now.prefix(5)), [ids[5], ids[0], ids[2], ids[3], ids[4]])
        XCTAssertFalse(ids.contains(now[5]))
        XCTAssertTrue(after.contains(#""title": "Green apples""#))
    }

    func testGivenTwoRenamesOfOneItemAndUnrelatedAddsWhenMergedThenItIsAConflictNotTwoItems() throws {
        // Given the reproduction: a renames item 6 and adds one; b renames item 6 differently and adds one
        let list = try base()
        let ours = try edited(list, ["rename", "6", "Green apples"], ["add", "A-extra"])
        let theirs = try edited(list, ["rename", "6", "Red apples"], ["add", "B-extra"])
        // When merged, either way round
        // Then the renames conflict, naming the item, and nothing else does
        XCTAssertEqual(try merge(list, ours, theirs), .conflicts(["'Green apples': renamed to 'Green apples' by us, renamed to 'Red apples' by them"]))
        XCTAssertEqual(try merge(list, theirs, ours), .conflicts(["'Red apples': renamed to 'Red apples' by us, renamed to 'Green apples' by them"]))
    }

    func testGivenARenameAgainstMovesAddsAndChecksWhenMergedThenEveryChangeIsKeptOnItsItem() throws {
        // Given a renames item 6; b moves it to the top, checks it, adds two items after Milk and deletes Bread
        let list = try base()
        let ours = try edited(list, ["rename", "6", "Green apples"])
        let theirs = try edited(list, ["move", "6", "1"], ["toggle", "1"], ["add", "Tea"], ["add", "Jam"], ["move", "7-8", "3"], ["delete", "6"])
        // When merged either way round
        let one = try merged(list, ours, theirs), two = try merged(list, theirs, ours)
        // Then the item is renamed, checked and moved; the run of two stays together; Bread is gone
        XCTAssertEqual(one, [" 1 [x] Green apples", " 2 [ ] Milk", " 3 [ ] Tea", " 4 [ ] Jam", " 5 [ ] Eggs", " 6 [ ] Butter", " 7 [ ] Cheese"])
        XCTAssertEqual(one, two)
    }

    func testGivenTwoRunsAddedAtOnePlaceWhenMergedThenEachStaysTogetherInTheSameOrderEitherWay() throws {
        let list = try base()
        let ours = try edited(list, ["add", "A1"], ["add", "A2"], ["add", "A3"], ["move", "7-9", "2"])
        let theirs = try edited(list, ["add", "B1"], ["add", "B2"], ["move", "7-8", "2"])
        let one = try merged(list, ours, theirs), two = try merged(list, theirs, ours)
        XCTAssertEqual(one, two, "either side merging gives the same list")
        let titles = one.map { line in line.range(of: "] ").map { String(line[$0.upperBound...]) } ?? line }
        let a = try XCTUnwrap(titles.firstIndex(of: "A1"), "\(titles)"), b = try XCTUnwrap(titles.firstIndex(of: "B1"), "\(titles)")
        XCTAssertEqual(Array(titles[a..<a + 3]), ["A1", "A2", "A3"])
        XCTAssertEqual(Array(titles[b..<b + 2]), ["B1", "B2"])
        XCTAssertEqual(titles.first, "Milk")
        XCTAssertEqual(Array(titles.suffix(5)), ["Eggs", "Bread", "Butter", "Cheese", "Apples"])
    }

    func testGivenADeleteAgainstARenameWhenMergedThenItIsAConflictNamingBoth() throws {
        let list = try base()
        let ours = try edited(list, ["delete", "3"])
        let theirs = try edited(list, ["rename", "3", "Rye bread"], ["add", "Tea"])
        XCTAssertEqual(try merge(list, ours, theirs), .conflicts(["'Rye bread': deleted by us, renamed to 'Rye bread' by them"]))
        XCTAssertEqual(try merge(list, theirs, ours), .conflicts(["'Rye bread': renamed to 'Rye bread' by us, deleted by them"]))
    }

    func testGivenFieldsANewerPluginWroteWhenEditedAndMergedThenTheyAreKeptAndMergedAsValues() throws {
        // Given a list a newer plugin wrote: a field on the list and one on each item
        let newer = #"{"title": "G", "items": [{"id": "milk00000001", "title": "Milk", "checked": false, "due": {"day": 3}}, {"id": "eggs00000001", "title": "Eggs", "checked": false, "due": null}], "colour": "blue"}"#
        // When an item is renamed here
        let renamed = try edited(newer, ["rename", "1", "Oat milk"])
        // Then the unknown fields are there, as written
        XCTAssertTrue(renamed.contains(#"{"id": "milk00000001", "title": "Oat milk", "checked": false, "due": {"day": 3}}"#), renamed)
        XCTAssertTrue(renamed.contains(#""colour": "blue""#), renamed)
        // When one side changes an unknown field and the other renames the item, both survive
        let theirs = newer.replacingOccurrences(of: #""due": {"day": 3}"#, with: #""due": {"day": 4}"#)
        guard case let .merged(data) = try merge(newer, renamed, theirs) else { return XCTFail("expected a merge") }
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains(#""title": "Oat milk", "checked": false, "due": {"day": 4}"#))
        // And both sides changing it differently is a conflict
        let other = newer.replacingOccurrences(of: #""due": {"day": 3}"#, with: #""due": {"day": 5}"#)
        XCTAssertEqual(try merge(newer, theirs, other), .conflicts(["'Milk': changed its due by us, changed its due by them"]))
    }

    func testGivenASideWrittenWithoutIdsWhenMergedWithOneWithIdsThenItemsAreMatchedAndKeepTheirIds() throws {
        // Given a base and one side as this Folio writes them, and a side written by a Folio before ids
        let list = try base()
        let ours = try edited(list, ["rename", "2", "Brown eggs"], ["add", "Tea"])
        let theirs = old.replacingOccurrences(of: #"{"title": "Cheese", "checked": false}"#, with: #"{"title": "Cheese", "checked": true}"#)
        // When merged
        guard case let .merged(data) = try merge(list, ours, theirs) else { return XCTFail("expected a merge, got \(try merge(list, ours, theirs))") }
        let text = String(decoding: data, as: UTF8.self)
        // Then both changes are there, on items that keep the base's ids, and the new item its own
        XCTAssertEqual(try editor().open(data).render(width: 40, height: 10).dropFirst(),
                       [" 1 [ ] Milk", " 2 [ ] Brown eggs", " 3 [ ] Bread", " 4 [ ] Butter", " 5 [x] Cheese", " 6 [ ] Apples", " 7 [ ] Tea"])
        XCTAssertEqual(Array(ChecklistIDs.ids(text).prefix(6)), ChecklistIDs.ids(list))
    }

    func testGivenAnOldListEditedOnTwoClonesWhenMergedThenTheirIndependentlyMadeIdsAgree() throws {
        // Given two clones that each migrated the same old list by editing it (the base has no ids)
        let ours = try edited(old, ["rename", "6", "Green apples"])
        let theirs = try HostedPlugins.editor("checklist").open(Data(old.utf8)).applying("toggle", arguments: ["1"]).document.text
        // When merged
        XCTAssertEqual(try merged(old, ours, theirs), [" 1 [x] Milk", " 2 [ ] Eggs", " 3 [ ] Bread", " 4 [ ] Butter", " 5 [ ] Cheese", " 6 [ ] Green apples"])
        // And the two renames of an old list still conflict
        let again = try edited(old, ["rename", "6", "Red apples"], ["add", "B-extra"])
        guard case .conflicts = try merge(old, ours, again) else { return XCTFail("expected a conflict") }
    }

    func testGivenTwoVersionsWhenDiffedThenARenameOfAMovedItemIsARenameAndAMove() throws {
        let list = try base()
        let after = try edited(list, ["rename", "6", "Green apples"], ["move", "6", "1"], ["add", "Tea"])
        XCTAssertEqual(try diff(list, after), ["renamed 'Apples' to 'Green apples'", "added 'Tea'", "moved 'Green apples' to 1"])
    }
}
