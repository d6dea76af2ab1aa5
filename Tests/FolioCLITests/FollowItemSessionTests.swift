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
}
