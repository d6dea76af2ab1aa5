import Foundation
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioTestSupport
import XCTest

/// Syncing drawings: the shapes editor's semantic merge combines edits to neighbouring shapes (neighbouring JSON
/// lines, a text conflict).
final class ShapesSyncTests: SemanticSyncTestCase {
    func testGivenTwoClonesChangingNeighbouringShapesWhenPulledThenTheDrawingMergesWithBothChanges() throws {
        func drawing(_ first: String, _ second: String) -> Data {
            Data("{\"shapes\": [\n  \(first),\n  \(second)\n]}\n".utf8)
        }
        let rect = #"{"kind": "rect", "x": 0, "y": 0, "w": 6, "h": 3, "color": "red"}"#
        let ellipse = #"{"kind": "ellipse", "x": 8, "y": 0, "w": 7, "h": 5, "color": "blue"}"#
        let (a, b, file) = try twoClones("Pic", type: "org.folio.shapes", repository: "pic.git", base: drawing(rect, ellipse))
        // A moves the rectangle, B recolours the ellipse on the next line
        let outcome = try pullMerging(b, ours: drawing(rect, ellipse.replacingOccurrences(of: "blue", with: "green")),
                                      after: a, pushed: drawing(rect.replacingOccurrences(of: #""x": 0, "y": 0"#, with: #""x": 4, "y": 2"#), ellipse), file: file)
        guard case .merged = outcome else { return XCTFail("expected a semantic merge, got \(outcome)") }
        let merged = try XCTUnwrap(ws.text(b, file)).replacingOccurrences(of: #""id": "[A-Za-z0-9_-]+", "#, with: "", options: .regularExpression)
        XCTAssertTrue(merged.contains(#"{"kind": "rect", "x": 4, "y": 2, "w": 6, "h": 3, "color": "red"}"#), merged)
        XCTAssertTrue(merged.contains(#"{"kind": "ellipse", "x": 8, "y": 0, "w": 7, "h": 5, "color": "green"}"#), merged)
        XCTAssertFalse(merged.contains("<<<<<<<"), merged)
        try ws.assertClean(b.url)
    }
}
