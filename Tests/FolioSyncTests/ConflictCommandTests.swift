import Foundation
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioCLITestSupport
import XCTest

/// `folio conflicts` end to end: a kept checklist conflict listed with its items, shown, and settled item by item.
final class ConflictCommandTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    private func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

    /// B's checklist with a kept conflict: Milk renamed two ways (A's name carries a terminal escape), Eggs checked
    /// by A and Tea by B. Returns B and the conflict's short name.
    private func keptChecklistConflict() throws -> (a: Document, b: Document, stamp: String) {
        let bare = try ws.bareRepository("list.git")
        let a = try ws.document("A", type: "org.folio.checklist")
        let path = a.metadata.primaryFile
        try a.write(ItemConflictSyncTests.checklist([("Milk", false), ("Eggs", false), ("Tea", false)]), to: path, message: "Base")
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path("B"), options: transfer())
        try a.write(ItemConflictSyncTests.checklist([("Oat\\u001b[2Jmilk", false), ("Eggs", true), ("Tea", false)]), to: path, message: "A")
        try a.push(options: transfer())
        try b.write(ItemConflictSyncTests.checklist([("Soy milk", false), ("Eggs", false), ("Tea", true)]), to: path, message: "B")
        ws.folio(["pull", "B"], expect: 1)
        let ref = try XCTUnwrap(try b.keptConflicts().first?.ref)
        return (a, b, String(ref.dropFirst("refs/folio/conflicts/".count)))
    }

    func testGivenAKeptChecklistConflictWhenListedAndShownThenEachConflictingItemIsPrintedAsText() throws {
        // Given a kept conflict on Milk
        let (_, _, stamp) = try keptChecklistConflict()
        // When the conflicts are listed
        let listed = ws.folio(["conflicts", "B"]).stdout
        // Then the conflict is followed by its one item, each side's version on one line, the escape shown as text
        let lines = listed.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, listed)
        XCTAssertTrue(lines[0].hasPrefix("refs/folio/conflicts/\(stamp)  "), listed)
        XCTAssertTrue(lines[1].hasPrefix("  1  mine: [ ] Soy milk  theirs: [ ] Oat"), listed)
        XCTAssertFalse(listed.contains("\u{1B}"), "no terminal escape reaches the output")
        // When one conflict is shown as JSON
        let shown = ws.folio(["conflicts", "B", "show", stamp, "--json"]).stdout
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        let items = try XCTUnwrap(object["items"] as? [[String: Any]])
        // Then it has the item with both sides' changes as the checklist words them
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?["key"] as? String, "1")
        XCTAssertEqual(items.first?["mineChange"] as? String, "renamed 'Milk' to 'Soy milk'")
        XCTAssertEqual(object["files"] as? [String], [])
        // And the text form says how to settle it
        XCTAssertTrue(ws.folio(["conflicts", "B", "show", stamp]).stdout.contains("settle \(stamp) --mine KEY"))
    }

    func testGivenAKeptChecklistConflictWhenSettledFromTheCommandLineThenOneMergeCommitKeepsTheChoiceAndPushWorks() throws {
        let (a, b, stamp) = try keptChecklistConflict()
        let head = try b.head().id
        // When settle is run without a choice, or with a key not in conflict
        let missing = ws.folio(["conflicts", "B", "settle", stamp], expect: 1).stderr
        let unknown = ws.folio(["conflicts", "B", "settle", stamp, "--mine", "1", "--theirs", "3"], expect: 1).stderr
        // Then each is refused in one line naming the key, and nothing is written
        XCTAssertEqual(missing.split(separator: "\n").count, 1, missing)
        XCTAssertTrue(missing.contains("no choice for '1'") && missing.contains("--mine"), missing)
        XCTAssertEqual(unknown.split(separator: "\n").count, 1, unknown)
        XCTAssertTrue(unknown.contains("'3' is not in conflict"), unknown)
        XCTAssertEqual(try b.head().id, head)
        // When B keeps its own version of the items numbered 1 to 3 that conflict (only Milk)
        let settled = ws.folio(["conflicts", "B", "settle", stamp, "--mine", "1-3"]).stdout
        // Then one merge commit keeps Soy milk and both sides' other changes
        XCTAssertTrue(settled.contains("Settle conflict \(stamp): 1 mine"), settled)
        XCTAssertEqual(try b.head().parents.count, 2)
        let editors = PluginSemanticMerger(host: EditorRegistry(searchPath: PluginSearchPath(folders: [.init(productsDirectory, bundled: true)])))
        let bytes = try b.read(path: b.metadata.primaryFile, at: "HEAD")
        let items = try XCTUnwrap(try editors.itemEditor(for: b.metadata.contentType)?.items(of: bytes, previous: nil)).map(\.summary)
        XCTAssertEqual(items, ["[ ] Soy milk", "[x] Eggs", "[x] Tea"])
        XCTAssertEqual(ws.folio(["conflicts", "B"]).stdout, "No kept conflicts\n")
        // And B can push, and A fast-forwards to it
        ws.folio(["push", "B"])
        XCTAssertTrue(ws.folio(["pull", "A"]).stdout.hasPrefix("Fast-forwarded"))
        XCTAssertEqual(try a.head().id, try b.head().id)
        try ws.assertFsck(b.url)
    }
}
