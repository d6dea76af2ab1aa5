import FolioCLITestSupport
import FolioTestSupport
import Foundation
import XCTest

/// Issue 32's first reproduction through `folio`, two clones of a groceries checklist behind one bare remote: items
/// are matched by id, so two renames of one item conflict whatever else changed, and a rename merges with moves,
/// checks and additions on the other side into one item that has them all.
final class ItemIdentitySyncCLITests: SharedGroceriesTestCase {
    /// The item lines of `folio view DOC` ("  6 [ ] Red apples"), without the header.
    private func items(_ document: String) -> [String] {
        folio("view", document).stdout.split(separator: "\n").map(String.init).filter { $0.contains("] ") }
    }

    private func titles(_ document: String) -> [String] {
        items(document).compactMap { line in line.range(of: "] ").map { String(line[$0.upperBound...]) } }
    }

    func testGivenTwoRenamesOfOneItemAndUnrelatedAddsWhenBothSyncThenItIsOneConflictAndOneItem() throws {
        // Given a renames item 6 and adds an item, and syncs
        try twoClones()
        folio("edit", "a", "rename", "6", "Green apples")
        folio("edit", "a", "add", "A-extra")
        folio("sync", "a")
        // When b renames the same item differently, adds an item, and syncs
        folio("edit", "b", "rename", "6", "Red apples")
        folio("edit", "b", "add", "B-extra")
        let synced = folio("sync", "b", expect: 1)
        // Then b keeps a conflict naming the item and both names, and says so
        XCTAssertEqual(try keptConflicts().count, 1, synced.stderr)
        let ref = try XCTUnwrap(try keptConflicts().first)
        let short = String(ref.dropFirst("refs/folio/conflicts/".count))
        let shown = synced.stdout + synced.stderr
        XCTAssertTrue(shown.contains("'Red apples': renamed to 'Red apples' by us, renamed to 'Green apples' by them"), shown)
        // And b still has the item once, under its own name, and nothing of a's until it is settled
        XCTAssertEqual(titles("b").filter { $0.hasSuffix("apples") || $0 == "Apples" }, ["Red apples"])
        XCTAssertEqual(titles("b").count, 14)
        // When b settles taking a's version of the conflict and syncs
        folio("conflicts", "b", "settle", short, "--all", "theirs")
        folio("sync", "b")
        folio("sync", "a")
        // Then both clones hold one apples item, Green, with both additions, and the same version
        for clone in ["a", "b"] {
            let now = titles(clone)
            XCTAssertEqual(now.filter { $0.hasSuffix("apples") || $0 == "Apples" }, ["Green apples"], "\(clone): \(now)")
            XCTAssertEqual(now.filter { $0.hasSuffix("-extra") }.sorted(), ["A-extra", "B-extra"], "\(clone): \(now)")
            XCTAssertEqual(now.count, 15, "\(clone): \(now)")
        }
        XCTAssertEqual(try head("a"), try head("b"))
        XCTAssertEqual(try git(["fsck", "--strict"], in: server, environment: env).status, 0)
    }

    func testGivenARenameOnOneCloneAndAMoveCheckAndAddsOnTheOtherWhenBothSyncThenTheItemHasEveryChangeOnce() throws {
        // Given a renames Milk (1) and adds an item at the end
        try twoClones()
        folio("edit", "a", "rename", "1", "Oat milk")
        folio("edit", "a", "add", "A-extra")
        folio("sync", "a")
        // When b moves Milk to 12, checks it, adds an item and syncs
        folio("edit", "b", "move", "1", "12")
        folio("edit", "b", "toggle", "12")
        folio("edit", "b", "add", "B-extra")
        folio("sync", "b")
        folio("sync", "a")
        // Then both clones have one milk item, renamed, moved and checked, and both additions, with no conflict
        XCTAssertEqual(try keptConflicts(), [])
        for clone in ["a", "b"] {
            let lines = items(clone)
            XCTAssertEqual(lines.filter { $0.contains("milk") || $0.contains("Milk") }.map { $0.trimmingCharacters(in: .whitespaces) }, ["12 [x] Oat milk"], "\(clone): \(lines)")
            XCTAssertEqual(titles(clone).count, 15, "\(clone): \(lines)")
            XCTAssertEqual(Array(titles(clone).suffix(2)).sorted(), ["A-extra", "B-extra"], "\(clone): \(lines)")
        }
        XCTAssertEqual(try head("a"), try head("b"))
    }
}
