import Foundation
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioTestSupport
import XCTest

/// Syncing stories: the story editor's semantic merge combines edits to different scenes that git's line merge
/// cannot (they touch neighbouring lines).
final class StorySyncTests: XCTestCase {
    var ws: SyncWorkspace!

    override func setUpWithError() throws { ws = try SyncWorkspace() }
    override func tearDown() { ws = nil }

    private func transfer() -> TransferOptions { TransferOptions(environment: ws.env) }

    func testGivenTwoClonesEditingDifferentScenesWhenPulledThenTheStoryMergesCleanlyWithBothEdits() throws {
        // Given a story in two clones, with the bundled Story plugin
        let bare = try ws.bareRepository("story.git")
        let a = try ws.document("Voyage", type: "org.folio.story")
        let file = a.metadata.primaryFile
        let base = "# Voyage\n\n## Act I: Departure\n\n### The Call\nIt begins.\n### The Refusal\nShe says no.\n"
        try a.write(Data(base.utf8), to: file, message: "Base")
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path("Voyage2"), options: transfer())
        // When A rewrites the first scene's text and B renames the next scene (neighbouring lines: a text conflict)
        try a.write(Data(base.replacingOccurrences(of: "It begins.", with: "It begins at dawn.").utf8), to: file, message: "A")
        try b.write(Data(base.replacingOccurrences(of: "### The Refusal", with: "### The Doubt").utf8), to: file, message: "B")
        try a.push(options: transfer())
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(productsDirectory, bundled: true)]))
        let outcome = try b.pull(options: SyncOptions(transfer: transfer(), semanticMerger: PluginSemanticMerger(host: host)))
        // Then the editor's merge is committed, with both edits and no conflict markers
        guard case .merged = outcome else { return XCTFail("expected a semantic merge, got \(outcome)") }
        let merged = try XCTUnwrap(ws.text(b, file))
        XCTAssertTrue(merged.contains("### The Call\nIt begins at dawn.\n"), merged)
        XCTAssertTrue(merged.contains("### The Doubt\nShe says no."), merged)
        XCTAssertFalse(merged.contains("The Refusal"), merged)
        XCTAssertFalse(merged.contains("<<<<<<<"), merged)
        try ws.assertClean(b.url)
    }

    func testGivenTwoClonesRewritingTheSameSceneWhenPulledThenNothingIsMergedSilently() throws {
        let bare = try ws.bareRepository("story.git")
        let a = try ws.document("Voyage", type: "org.folio.story")
        let file = a.metadata.primaryFile
        let base = "# Voyage\n\n## Act I: Departure\n\n### The Call\nIt begins.\n"
        try a.write(Data(base.utf8), to: file, message: "Base")
        try a.addRemote("origin", url: bare.path)
        try a.push(options: transfer())
        let b = try ws.store.clone(from: bare.path, to: ws.dir.path("Voyage2"), options: transfer())
        try a.write(Data(base.replacingOccurrences(of: "It begins.", with: "It begins at dawn.").utf8), to: file, message: "A")
        try b.write(Data(base.replacingOccurrences(of: "It begins.", with: "It ends.").utf8), to: file, message: "B")
        try a.push(options: transfer())
        let host = EditorRegistry(searchPath: PluginSearchPath(folders: [.init(productsDirectory, bundled: true)]))
        let outcome = try b.pull(options: SyncOptions(transfer: transfer(), semanticMerger: PluginSemanticMerger(host: host)))
        if case .merged = outcome { XCTFail("the same scene rewritten two ways must not merge: \(outcome)") }
        XCTAssertEqual(try ws.text(b, file), base.replacingOccurrences(of: "It begins.", with: "It ends."), "our version is kept as it was")
    }
}
