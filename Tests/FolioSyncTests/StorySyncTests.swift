import Foundation
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioTestSupport
import XCTest

/// Syncing stories: the story editor's semantic merge combines edits to different scenes that git's line merge
/// cannot (they touch neighbouring lines).
final class StorySyncTests: SemanticSyncTestCase {
    func testGivenTwoClonesEditingDifferentScenesWhenPulledThenTheStoryMergesCleanlyWithBothEdits() throws {
        // Given a story in two clones, with the bundled Story plugin
        let base = "# Voyage\n\n## Act I: Departure\n\n### The Call\nIt begins.\n### The Refusal\nShe says no.\n"
        let (a, b, file) = try twoClones("Voyage", type: "org.folio.story", repository: "story.git", base: Data(base.utf8))
        // When A rewrites the first scene's text and B renames the next scene (neighbouring lines: a text conflict)
        let outcome = try pullMerging(b, ours: Data(base.replacingOccurrences(of: "### The Refusal", with: "### The Doubt").utf8),
                                      after: a, pushed: Data(base.replacingOccurrences(of: "It begins.", with: "It begins at dawn.").utf8), file: file)
        // Then the editor's merge is committed, with both edits and no conflict markers
        guard case .merged = outcome else { return XCTFail("expected a semantic merge, got \(outcome)") }
        let merged = withoutIDs(try XCTUnwrap(ws.text(b, file)))
        XCTAssertTrue(merged.contains("### The Call\nIt begins at dawn.\n"), merged)
        XCTAssertTrue(merged.contains("### The Doubt\nShe says no."), merged)
        XCTAssertFalse(merged.contains("The Refusal"), merged)
        XCTAssertFalse(merged.contains("<<<<<<<"), merged)
        try ws.assertClean(b.url)
    }

    func testGivenTwoClonesRewritingTheSameSceneWhenPulledThenNothingIsMergedSilently() throws {
        let base = "# Voyage\n\n## Act I: Departure\n\n### The Call\nIt begins.\n"
        let (a, b, file) = try twoClones("Voyage", type: "org.folio.story", repository: "story.git", base: Data(base.utf8))
        let outcome = try pullMerging(b, ours: Data(base.replacingOccurrences(of: "It begins.", with: "It ends.").utf8),
                                      after: a, pushed: Data(base.replacingOccurrences(of: "It begins.", with: "It begins at dawn.").utf8), file: file)
        if case .merged = outcome { XCTFail("the same scene rewritten two ways must not merge: \(outcome)") }
        XCTAssertEqual(try ws.text(b, file), base.replacingOccurrences(of: "It begins.", with: "It ends."), "our version is kept as it was")
    }

    /// The story without the ids its headings end with (`<!-- folio {"id":…} -->`): as a reader sees it.
    private func withoutIDs(_ markdown: String) -> String {
        markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") ? line.range(of: " <!-- folio {", options: .backwards).map { String(line[..<$0.lowerBound]) } ?? String(line) : String(line)
        }.joined(separator: "\n")
    }
}
