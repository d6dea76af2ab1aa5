@testable import FolioCLI
import FolioCLITestSupport
import FolioCore
import FolioLaunch
import Foundation
import XCTest

/// The editor host's session finds where an item went between two versions through the editor's item list, so a
/// window keeps its cursor on the same item when a version arrives from elsewhere.
final class FollowItemSessionTests: XCTestCase {
    func testGivenACursorOnBreadWhenMilkIsDeletedAndAnItemAddedElsewhereThenTheSessionFollowsBreadToItsNewNumber() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: dir.url).status, 0)
        let session = try DocumentSessionAdapter(url: dir.path("list"), environment: env)
        let before = session.latestCommit().id
        // When another process deletes item 1 (Milk) and adds an item.
        XCTAssertEqual(runFolio(["edit", "list", "delete", "1"], environment: env, cwd: dir.url).status, 0)
        XCTAssertEqual(runFolio(["edit", "list", "add", "Oat milk"], environment: env, cwd: dir.url).status, 0)
        let after = session.latestCommit().id
        XCTAssertNotEqual(before, after)
        // Then item 3 of the old version (Bread) is item 2 now; Milk (item 1) is gone.
        XCTAssertEqual(session.followItem(at: [3], from: before, to: after), [2])
        XCTAssertNil(session.followItem(at: [1], from: before, to: after))
        XCTAssertEqual(session.followItem(at: [13], from: before, to: after), [12])
    }

    func testGivenThisWindowsCommandThenTheCursorGoesToTheItemAddedOrFollowsTheItemMovedOrRenamed() throws {
        let dir = TemporaryDirectory()
        let env = dir.environment()
        XCTAssertEqual(runFolio(["new", "list", "--template", "checklist/groceries", "--defaults"], environment: env, cwd: dir.url).status, 0)
        let session = try DocumentSessionAdapter(url: dir.path("list"), environment: env)
        func after(_ command: [String]) -> (String, String) {
            let before = session.latestCommit().id
            XCTAssertEqual(runFolio(["edit", "list"] + command, environment: env, cwd: dir.url).status, 0, "\(command)")
            return (before, session.latestCommit().id)
        }
        // An item added (at the end): the cursor goes to it, wherever it was.
        let (v0, v1) = after(["add", "Oat milk"])
        XCTAssertEqual(session.itemAfterCommand(at: [3], from: v0, to: v1), [14])
        // Bread (3) moved to 1: the cursor follows it.
        let (_, v2) = after(["move", "3", "1"])
        XCTAssertEqual(session.itemAfterCommand(at: [3], from: v1, to: v2), [1])
        // Renamed: the same item.
        let (_, v3) = after(["rename", "1", "Rye"])
        XCTAssertEqual(session.itemAfterCommand(at: [1], from: v2, to: v3), [1])
        // Deleted: the next item (Milk, now 1).
        let (_, v4) = after(["delete", "1"])
        XCTAssertEqual(session.itemAfterCommand(at: [1], from: v3, to: v4), [1])
        XCTAssertEqual(runFolio(["view", "list"], environment: env, cwd: dir.url).stdout.split(separator: "\n").dropFirst().first?.contains("Milk"), true)
    }
}
