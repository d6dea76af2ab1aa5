@testable import FolioPlugins
import Foundation
import XCTest

/// The helpers shared by the tests of a bundled editor's semantic diff and merge, called through the host as Folio
/// calls them.
class SemanticEditorTestCase: XCTestCase {
    /// The id of the bundled editor under test.
    var editorID: String { "" }

    func editor() throws -> HostedEditor { try HostedPlugins.editor(editorID) }

    /// The editor's semantic diff from `old` to `new`, line by line.
    func diff(_ old: String, _ new: String) throws -> [String] {
        let text = try XCTUnwrap(editor().semanticDiff(from: Data(old.utf8), to: Data(new.utf8)))
        return text.split(separator: "\n").map(String.init)
    }

    /// The editor's semantic merge of `ours` and `theirs` from `base`.
    func merge(_ base: String, _ ours: String, _ theirs: String) throws -> SemanticMergeResult {
        try XCTUnwrap(editor().semanticMerge(base: Data(base.utf8), ours: Data(ours.utf8), theirs: Data(theirs.utf8)))
    }

    /// Checks that the editor's manifest offers both semantic diff and merge.
    func assertManifestOffersSemanticDiffAndMerge(file: StaticString = #filePath, line: UInt = #line) throws {
        let manifest = try XCTUnwrap(PluginFixtures.bundledHost().editors.first { $0.editor.id == editorID }?.editor, file: file, line: line)
        XCTAssertTrue(manifest.extensions.contains(FolioExtensionID.semanticDiff), file: file, line: line)
        XCTAssertTrue(manifest.extensions.contains(FolioExtensionID.semanticMerge), file: file, line: line)
    }
}
