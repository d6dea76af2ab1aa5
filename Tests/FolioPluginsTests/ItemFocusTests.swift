@testable import FolioPlugins
import Foundation
import XCTest

/// After a command the editor host puts the cursor on the item it acted on, found from the editor's items before and
/// after (no ABI change): the item added, moved, renamed or changed; after a delete, the next one.
final class ItemFocusTests: XCTestCase {
    private func focus(_ editor: String, _ bytes: String, _ command: String, _ arguments: [String], cursor: Int? = nil) throws -> (Int?, [EditorItem]) {
        let plugin = try HostedPlugins.editor(editor)
        let old = Data(bytes.utf8)
        let new = try plugin.open(old).applying(command, arguments: arguments).document.serialized()
        let before = try XCTUnwrap(plugin.items(of: old, previous: nil)), after = try XCTUnwrap(plugin.items(of: new, previous: old))
        return (EditorItem.focus(after: after, before: before, cursor: cursor), after)
    }

    private let list = #"{"title": "T", "items": [{"title": "A", "checked": false}, {"title": "B", "checked": false}, {"title": "C", "checked": false}, {"title": "D", "checked": false}]}"#

    func testGivenAChecklistWhenAnItemIsAddedRenamedOrToggledThenTheFocusIsThatItem() throws {
        // Given four items, the cursor on the first
        // When an item is added at the end, the third renamed, the second and third toggled
        // Then the focus is the new last item, the renamed one, the first of the range
        XCTAssertEqual(try focus("checklist", list, "add", ["E"], cursor: 0).0, 4)
        XCTAssertEqual(try focus("checklist", list, "rename", ["3", "Z"], cursor: 2).0, 2)
        XCTAssertEqual(try focus("checklist", list, "toggle", ["2-3"], cursor: 1).0, 1)
    }

    func testGivenAChecklistWhenAnItemIsMovedThenTheFocusFollowsItToItsNewPlace() throws {
        // Given four items
        // When the second moves to 1 (a swap, which items "kept their order" cannot tell) and the first moves to 4
        let (swap, after) = try focus("checklist", list, "move", ["2", "1"], cursor: 1)
        // Then the focus is the moved item in its new place
        XCTAssertEqual(swap, 0)
        XCTAssertEqual(after[0].summary, "[ ] B")
        XCTAssertEqual(try focus("checklist", list, "move", ["1", "4"], cursor: 0).0, 3)
        XCTAssertEqual(try focus("checklist", list, "move", ["1", "4"]).0, 3, "without a cursor: the item that left the order")
    }

    func testGivenAChecklistWhenARangeIsDeletedThenTheFocusIsTheItemAfterIt() throws {
        // Given four items
        // When 2-3 are deleted, then the last one
        // Then the focus is D (now 2), then the new last item
        XCTAssertEqual(try focus("checklist", list, "delete", ["2-3"], cursor: 1).0, 1)
        XCTAssertEqual(try focus("checklist", list, "delete", ["4"], cursor: 3).0, 2)
    }

    func testGivenShapesAndAStoryWhenCommandsRunThenTheFocusIsTheShapeOrSceneActedOn() throws {
        // Given two shapes, and a story of one act with two scenes
        let shapes = #"{"shapes":[{"kind":"rect","x":0,"y":0,"w":2,"h":2},{"kind":"rect","x":5,"y":0,"w":2,"h":2}]}"#
        let story = "## Act I: A\n### One\n### Two\n"
        // When the second shape is moved, and a scene is added then renamed
        // Then the focus is that shape, the new scene (row 4), the renamed one (row 2)
        XCTAssertEqual(try focus("shapes", shapes, "move", ["2", "9", "9"], cursor: 1).0, 1)
        XCTAssertEqual(try focus("story", story, "add-scene", ["1", "Three"], cursor: 0).0, 3)
        XCTAssertEqual(try focus("story", story, "rename-scene", ["1", "1", "Uno"], cursor: 1).0, 1)
    }
}
