import Foundation
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioTestSupport
import XCTest

/// The history of one item after a pull that merged the remote's versions: the item is followed into the side it
/// came from, so the remote's versions that changed it are listed (not the merge).
final class ItemHistorySyncTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    private func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

    private static func checklist(_ items: [(String, Bool)]) -> Data {
        Data(("{\"title\": \"List\", \"items\": [" + items.map { "{\"title\": \"\($0.0)\", \"checked\": \($0.1)}" }.joined(separator: ", ") + "]}\n").utf8)
    }

    func testGivenAnItemChangedOnTheRemoteAndAnotherHereWhenPulledAndMergedThenEachItemsHistoryListsTheVersionsThatChangedItOnEitherSide() throws {
        // Given a checklist shared through a bare repository, cloned as B
        let bare = try ws.bareRepository("list.git")
        let a = try ws.document("List", type: ContentType("org.folio.checklist"))
        let file = a.metadata.primaryFile
        let four = try XCTUnwrap(try a.write(Self.checklist([("Milk", false), ("Eggs", false), ("Bread", false), ("Tea", false)]), to: file, message: "Four items"))
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path("List2"), options: transfer())
        // When A checks Milk then renames it, and pushes; and B, meanwhile, checks Tea
        let checked = try XCTUnwrap(try a.write(Self.checklist([("Milk", true), ("Eggs", false), ("Bread", false), ("Tea", false)]), to: file, message: "checked 'Milk'"))
        let renamed = try XCTUnwrap(try a.write(Self.checklist([("Oat milk", true), ("Eggs", false), ("Bread", false), ("Tea", false)]), to: file,
                                                message: "renamed 'Milk' to 'Oat milk'"))
        try a.push(options: transfer())
        let tea = try XCTUnwrap(try b.write(Self.checklist([("Milk", false), ("Eggs", false), ("Bread", false), ("Tea", true)]), to: file, message: "checked 'Tea'"))
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(productsDirectory, bundled: true)]))
        let outcome = try b.pull(options: SyncOptions(transfer: transfer(), semanticMerger: PluginSemanticMerger(host: host)))
        guard case .merged = outcome else { return XCTFail("expected a merge, got \(outcome)") }
        XCTAssertEqual(try b.head().parents.count, 2, "a merge commit")
        // Then Milk's history in B lists A's two versions (not the merge) and the version that added it
        let milk = try host.itemHistory(document: b, item: "1")
        XCTAssertEqual(milk.summary, "[x] Oat milk")
        XCTAssertEqual(milk.changes.map(\.commit), [renamed.id.hex, checked.id.hex, four.id.hex])
        XCTAssertEqual(milk.changes.map(\.change), ["[x] Milk → [x] Oat milk", "[ ] Milk → [x] Milk", "added as 1: [ ] Milk"])
        // And Tea's history lists B's own version
        let teaHistory = try host.itemHistory(document: b, item: "4")
        XCTAssertEqual(teaHistory.changes.map(\.commit), [tea.id.hex, four.id.hex])
        // And Eggs, changed on neither side, has only the version that added it
        XCTAssertEqual(try host.itemHistory(document: b, item: "2").changes.map(\.kind), [.added])
    }
}
