import Foundation
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioTestSupport
import XCTest

/// Syncing drawings: the shapes editor's semantic merge combines edits to neighbouring shapes (neighbouring JSON
/// lines, a text conflict).
final class ShapesSyncTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    private func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

    func testGivenTwoClonesChangingNeighbouringShapesWhenPulledThenTheDrawingMergesWithBothChanges() throws {
        let bare = try ws.bareRepository("pic.git")
        let a = try ws.document("Pic", type: "org.folio.shapes")
        let file = a.metadata.primaryFile
        func drawing(_ first: String, _ second: String) -> Data {
            Data("{\"shapes\": [\n  \(first),\n  \(second)\n]}\n".utf8)
        }
        let rect = #"{"kind": "rect", "x": 0, "y": 0, "w": 6, "h": 3, "color": "red"}"#
        let ellipse = #"{"kind": "ellipse", "x": 8, "y": 0, "w": 7, "h": 5, "color": "blue"}"#
        try a.write(drawing(rect, ellipse), to: file, message: "Base")
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path("Pic2"), options: transfer())
        // A moves the rectangle, B recolours the ellipse on the next line
        try a.write(drawing(rect.replacingOccurrences(of: #""x": 0, "y": 0"#, with: #""x": 4, "y": 2"#), ellipse), to: file, message: "A")
        try b.write(drawing(rect, ellipse.replacingOccurrences(of: "blue", with: "green")), to: file, message: "B")
        try a.push(options: transfer())
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(productsDirectory, bundled: true)]))
        let outcome = try b.pull(options: SyncOptions(transfer: transfer(), semanticMerger: PluginSemanticMerger(host: host)))
        guard case .merged = outcome else { return XCTFail("expected a semantic merge, got \(outcome)") }
        let merged = try XCTUnwrap(ws.text(b, file))
        XCTAssertTrue(merged.contains(#"{"kind": "rect", "x": 4, "y": 2, "w": 6, "h": 3, "color": "red"}"#), merged)
        XCTAssertTrue(merged.contains(#"{"kind": "ellipse", "x": 8, "y": 0, "w": 7, "h": 5, "color": "green"}"#), merged)
        XCTAssertFalse(merged.contains("<<<<<<<"), merged)
        try ws.assertClean(b.url)
    }
}
