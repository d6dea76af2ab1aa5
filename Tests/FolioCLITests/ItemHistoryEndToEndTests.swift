import FolioCLI
import FolioCLITestSupport
import Foundation
import XCTest

/// The history of one item in the real `folio` program, in tmux: H on an item lists the versions that changed it,
/// and i brings it back as it was in the selected one.
final class ItemHistoryEndToEndTests: TmuxTestCase {
    override var session: String { "h" }
    override var defaultTimeout: TimeInterval { 10 }
    override var paneShowsTerminalSettings: Bool { false }

    func testGivenAChecklistItemCheckedThenRenamedWhenHIsPressedOnItThenItsVersionsAreListedAndIBringsItBackFromOne() throws {
        // Given a grocery list whose second item (Eggs) was checked, then renamed, and another item checked after
        let document = createDocument("list")
        for arguments in [["toggle", "2"], ["rename", "2", "Free-range eggs"], ["toggle", "5"]] {
            let edited = runFolio(["edit", document.path] + arguments, environment: env, cwd: docs)
            XCTAssertEqual(edited.status, 0, edited.stderr)
        }
        try start(["open", document.path, "--scene", "items-e2e"], width: 160, height: 45)
        waitFor("the editor") { $0.contains("Free-range eggs") }
        // When the cursor is on item 2 and H is pressed
        try keys("Down")
        try keys("H")
        // Then the browser lists the rename, the check and the creation, and not the other item's check
        let listed = waitFor("the item's history") { $0.contains("History of item 2") && $0.contains("Create from checklist/groceries") }
        XCTAssertTrue(listed.contains("[x] Eggs → [x] Free-range eggs"), "the selected version's header says what changed:\n\(listed)")
        XCTAssertTrue(listed.contains("[ ] Eggs → [x] Eggs"), listed)
        XCTAssertFalse(listed.contains("Cheese"), "the other item's version is not listed:\n\(listed)")
        // When the check's version is selected and i pressed, the item is back as it was then, one new version
        try keys("Down")
        try keys("i")
        waitFor("the editor with the item back") { $0.contains("Brought back item 2") && $0.contains("[x] Eggs") }
        let shown = ChecklistIDs.stripped(runFolio(["show", document.path], environment: env, cwd: docs).stdout)
        XCTAssertTrue(shown.contains(#"{"title": "Eggs", "checked": true}"#), shown)
        XCTAssertTrue(shown.contains(#"{"title": "Cheese", "checked": true}"#), "the later change to another item is kept:\n\(shown)")
        let log = runFolio(["log", document.path, "--limit", "1"], environment: env, cwd: docs).stdout
        XCTAssertTrue(log.contains("Restore item 2 from "), log)
    }
}
