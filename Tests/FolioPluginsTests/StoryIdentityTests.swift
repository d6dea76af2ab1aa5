@testable import FolioPlugins
import Foundation
import XCTest

/// Every act and scene of a story has an id, written at the end of its heading, kept by every command, never shown;
/// `folio.items/1` follows items by it.
final class StoryIdentityTests: XCTestCase {
    private let old = """
    # Voyage

    ## Act I: Departure

    ### The Call
    It begins at the harbour.

    ### The Refusal
    She says no.

    ## Act II: Return

    ### The Road Back
    Home at last.

    """

    private func editor() throws -> HostedEditor { try HostedPlugins.editor("story") }

    func testGivenAStoryWithIdsWhenEveryCommandIsAppliedThenEachItemKeepsItsIdAndNewItemsGetNewOnes() throws {
        // Given a story whose items have ids
        let base = try editor().open(Data(old.utf8)).text
        let before = StoryTags.ids(base)
        // When scenes and acts are renamed, moved, rewritten and added
        let after = try editor().edited(base, [["rename-scene", "1", "2", "The Doubt"], ["move-scene", "1", "2", "2", "1"],
                                                ["set-text", "2", "1", "She doubts."], ["rename-act", "1", "Leaving"],
                                                ["add-scene", "1", "Storm"], ["add-act", "Coda"]])
        // Then every old item has its old id, and the two new ones have ids of their own
        XCTAssertEqual(StoryTags.id(of: "### The Doubt", in: after), before[2])
        XCTAssertEqual(StoryTags.id(of: "## Act I: Leaving", in: after), before[0])
        XCTAssertEqual(StoryTags.id(of: "### The Call", in: after), before[1])
        XCTAssertEqual(StoryTags.id(of: "### The Road Back", in: after), before[4])
        let all = StoryTags.ids(after)
        XCTAssertEqual(all.count, 7)
        XCTAssertEqual(Set(all).count, 7, "\(all)")
        XCTAssertTrue(Set(before).isSubset(of: Set(all)), "\(all)")
        // And the view shows titles, never ids
        let view = try editor().open(Data(after.utf8)).render(width: 60, height: 14).joined(separator: "\n")
        XCTAssertFalse(view.contains("folio") || before.contains { view.contains($0) }, view)
    }

    func testGivenASceneRenamedAndMovedAndANewSceneWithItsOldTitleWhenItemsAreListedThenTheyFollowTheIdNotTheTitle() throws {
        // Given a story with ids, then "The Refusal" renamed and moved to act 2, and a new scene named "The Refusal"
        let base = try editor().open(Data(old.utf8)).text
        let after = try editor().edited(base, [["rename-scene", "1", "2", "The Doubt"], ["move-scene", "1", "2", "2", "1"],
                                                ["add-scene", "1", "The Refusal"]])
        // When the items are listed against the base
        let items = try XCTUnwrap(editor().items(of: Data(after.utf8), previous: Data(base.utf8)))
        let previous = Dictionary(uniqueKeysWithValues: items.map { ($0.key, $0.previous) })
        // Then the renamed scene (now 2.1) is 1.2 of the base, and the new "The Refusal" (1.2) is new
        XCTAssertEqual(previous["2.1"], "1.2", "\(items)")
        XCTAssertEqual(previous["1.2"], .some(nil), "\(items)")
        XCTAssertEqual(previous["2.2"], "2.1", "\(items)")
    }

    func testGivenTwoVersionsWithoutIdsWhenItemsAreListedThenTheyAreMatchedByTitleAsBefore() throws {
        // Given old history: a scene renamed in place, no ids on either side
        let renamed = old.replacingOccurrences(of: "### The Refusal", with: "### The Doubt")
        let items = try XCTUnwrap(editor().items(of: Data(renamed.utf8), previous: Data(old.utf8)))
        // Then the renamed scene is the same item, the others keep theirs
        XCTAssertEqual(items.map(\.key), ["1", "1.1", "1.2", "2", "2.1"])
        XCTAssertEqual(items.map(\.previous), ["1", "1.1", "1.2", "2", "2.1"])
    }

    func testGivenASceneDeletedWhenItIsTakenBackThenItReturnsToItsActWithItsId() throws {
        // Given a story with ids, then scene 1.2 deleted
        let base = try editor().open(Data(old.utf8)).text
        let refusal = try XCTUnwrap(StoryTags.id(of: "### The Refusal", in: base))
        let after = try editor().edited(base, [["delete-scene", "1", "2"]])
        // When it is taken back from the base
        let (bytes, description) = try XCTUnwrap(editor().takeItems(from: Data(base.utf8), into: Data(after.utf8), pairs: [(from: "1.2", into: nil)]))
        let restored = String(decoding: bytes, as: UTF8.self)
        // Then it is back as 1.2 with its old id, and every item has the id it had
        XCTAssertEqual(description, "brought back scene 'The Refusal' as 1.2")
        XCTAssertEqual(StoryTags.id(of: "### The Refusal", in: restored), refusal)
        XCTAssertEqual(StoryTags.ids(restored), StoryTags.ids(base))
    }
}
