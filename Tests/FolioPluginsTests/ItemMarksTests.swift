import FolioCore
import FolioGit
import FolioLaunch
@testable import FolioPlugins
import FolioTestSupport
import Foundation
import XCTest

/// The compare view's marks from the editor's own item list (`folio.items/1`) rather than from drawn rows alone.
final class ItemMarksTests: XCTestCase {
    func testGivenTwoItemListsWhenMarkedThenAddedChangedMovedAndRemovedFollowIdentityNotPosition() {
        // Given items A B C D, then: C moved to the front, B rewritten, D deleted, E added at the end
        let old = [("1", "a"), ("2", "b"), ("3", "c"), ("4", "d")].map { (key: $0.0, fingerprint: $0.1) }
        let new: [(key: String, previous: String?, fingerprint: String)] = [("1", "3", "c"), ("2", "1", "a"), ("3", "2", "b2"), ("4", nil, "e")]
        // When marked
        let marks = ItemMarks.make(old: old, new: new)
        // Then only C is moved (A and B keep their order), B changed, E added, D removed: renumbering alone is no change
        XCTAssertEqual(marks.new, ["1": .moved, "3": .changed, "4": .added])
        XCTAssertEqual(marks.removed, ["4"])
        // And an item inserted at the top moves nothing after it
        let shifted = ItemMarks.make(old: old, new: [("1", nil, "z")] + old.enumerated().map { (String($0.offset + 2), $0.element.key, $0.element.fingerprint) })
        XCTAssertEqual(shifted.new, ["1": .added])
        XCTAssertEqual(shifted.removed, [])
    }

    func testGivenAChecklistWhereAnItemIsRenamedAndAnotherMovedWhenListedThroughItsEditorThenTheMarksSayExactlyThat() throws {
        // Given a checklist (the bundled editor in its host) where "Sencha" is renamed "Tea" and "Eggs" moved to the top
        let temp = TemporaryDirectory("folio-marks")
        let store = DocumentStore(settings: Settings(sync: .none), environment: temp.environment())
        let host = PluginFixtures.bundledHost()
        let document = try store.create(at: temp.path("list"), contentType: ContentType("org.folio.checklist"), title: "list")
        let items = ["Milk", "Sencha", "Bread", "Eggs"].map { "{\"title\": \"\($0)\", \"checked\": false}" }.joined(separator: ", ")
        let first = try XCTUnwrap(try document.write(Data("{\"title\": \"List\", \"items\": [\(items)]}\n".utf8), to: document.metadata.primaryFile, message: "Start"))
        _ = try host.edit(document, command: "rename", arguments: ["2", "Tea"])
        _ = try host.edit(document, command: "move", arguments: ["4", "1"])
        // When the first and the newest versions' items are listed and marked
        let lists = try XCTUnwrap(try host.itemLists(document: document, from: first.id, to: document.head().id))
        let marks = ItemMarks.make(old: lists.old.map { ($0.key, $0.fingerprint) }, new: lists.new.map { ($0.key, $0.previous, $0.fingerprint) })
        // Then Eggs (now 1) is moved, Tea (now 3) changed, nothing added or removed
        XCTAssertEqual(marks.new, ["1": .moved, "3": .changed], "\(lists.new)")
        XCTAssertEqual(marks.removed, [])
    }
}
