@testable import FolioPlugins
import Foundation
import XCTest

/// The story editor's delete-scene, delete-act and rename-act, through the C ABI as Folio calls them.
final class StoryDeletePluginTests: XCTestCase {
    private let story = """
    # Voyage

    ## Act I: Departure

    ### The Call
    It begins.

    ### Dusk
    Night falls.

    ### The Refusal
    She says no.

    ## Act II: Storm

    ### The Wreck
    Waves.

    ## Act III: Return

    ### Home
    At last.

    """

    private func open(_ markdown: String) throws -> HostedDocument {
        try HostedPlugins.editor("story").open(Data(markdown.utf8))
    }

    func testGivenAStoryWhenASceneIsDeletedThenOnlyThatSceneGoesAndTheOthersAreRenumbered() throws {
        // Given a story with three scenes in act 1
        let document = try open(story)
        // When scene 1.2 is deleted
        let (after, description) = try document.apply("delete-scene", "1", "2")
        // Then it says which scene went, the Markdown lost exactly that scene, and the outline renumbers the rest
        XCTAssertEqual(description, "deleted scene 1.2 'Dusk'")
        XCTAssertEqual(StoryTags.stripped(try after.text), story.replacingOccurrences(of: "### Dusk\nNight falls.\n\n", with: ""))
        let outline = try after.render(width: 40, height: 12)
        XCTAssertTrue(outline.contains { $0.hasPrefix("   1.2 The Refusal") }, "\(outline)")
        XCTAssertFalse(outline.contains { $0.contains("Dusk") }, "\(outline)")
    }

    func testGivenAStoryWhenARangeOfScenesIsDeletedThenTheyGoAsOneChange() throws {
        // Given a story; When scenes 1.2 to 1.3 are deleted as a range
        let (after, description) = try open(story).apply("delete-scene", "1", "2-3")
        // Then both went and the description names them
        XCTAssertEqual(description, "deleted scenes 1.2–1.3 ('Dusk', 'The Refusal')")
        XCTAssertEqual(StoryTags.stripped(try after.text), story.replacingOccurrences(of: "### Dusk\nNight falls.\n\n### The Refusal\nShe says no.\n\n", with: ""))
    }

    func testGivenAStoryWhenAnActIsDeletedThenItsScenesGoWithItAndLaterActLabelsAreRenumbered() throws {
        // Given a story in three acts
        let (after, description) = try open(story).apply("delete-act", "2")
        // Then act 2 and its scene are gone, and "Act III" is now "Act II" (its text unchanged)
        XCTAssertEqual(description, "deleted act 2 'Act II: Storm' and its 1 scene")
        XCTAssertEqual(StoryTags.stripped(try after.text), story
            .replacingOccurrences(of: "## Act II: Storm\n\n### The Wreck\nWaves.\n\n", with: "")
            .replacingOccurrences(of: "## Act III: Return", with: "## Act II: Return"))
        // And a new act is then Act III, not a second Act III
        let (added, _) = try after.apply("add-act", "Epilogue")
        let addedText = StoryTags.stripped(try added.text)
        XCTAssertTrue(addedText.contains("## Act III: Epilogue\n"), addedText)
        XCTAssertEqual(addedText.components(separatedBy: "## Act III").count, 2, addedText)
    }

    func testGivenAStoryWhenAnActIsRenamedThenItsLabelIsKeptAndOnlyItsTitleChanges() throws {
        // Given a story; When act 2 is renamed (typed with a label, as add-act accepts it)
        let (after, description) = try open(story).apply("rename-act", "2", "Act II: Calm")
        // Then the label is written once and nothing else changed
        XCTAssertEqual(description, "renamed act 2 'Act II: Storm' to 'Act II: Calm'")
        XCTAssertEqual(StoryTags.stripped(try after.text), story.replacingOccurrences(of: "## Act II: Storm", with: "## Act II: Calm"))
        // And an act heading without a label is renamed whole
        let (plain, _) = try open("## Interlude\n### S\n").apply("rename-act", "1", "Entr'acte")
        XCTAssertEqual(StoryTags.stripped(try plain.text), "## Entr'acte\n### S\n")
    }

    func testGivenBadArgumentsWhenTheNewCommandsAreAppliedThenEachIsRefusedInOneLineAndNothingChanges() throws {
        // Given a story, and a story with one act
        let document = try open(story)
        let single = try open("# T\n## Act I: Only\n### S\ntext\n")
        let cases: [(HostedDocument, String, [String])] = [
            (document, "delete-scene", ["1", "4"]), (document, "delete-scene", ["4", "1"]), (document, "delete-scene", ["1", "0"]),
            (document, "delete-scene", ["1", "2-9"]), (document, "delete-scene", ["one", "1"]), (document, "delete-scene", ["1"]),
            (document, "delete-act", ["4"]), (document, "delete-act", []), (document, "delete-act", ["1", "2"]),
            (single, "delete-act", ["1"]),
            (document, "rename-act", ["4", "X"]), (document, "rename-act", ["1", "  "]), (document, "rename-act", ["1", "a\nb"]),
        ]
        for (target, command, arguments) in cases {
            // When each is applied; Then it is refused with one line, and the document is as it was
            XCTAssertThrowsError(try target.applying(command, arguments: arguments), "\(command) \(arguments)") { error in
                XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidArgument, "\(command) \(arguments): \(error)")
                XCTAssertFalse("\(error)".contains("\n"), "\(error)")
            }
        }
        XCTAssertEqual(StoryTags.stripped(try document.text), story)
        XCTAssertEqual(StoryTags.stripped(try single.text), "# T\n## Act I: Only\n### S\ntext\n")
    }

    func testGivenAnActDeletedOnOneSideAndASceneAddedToItOnTheOtherWhenMergedThenItIsAConflictNotALostScene() throws {
        // Given act 2 deleted by us, and a scene added to act 2 by them
        let editor = try HostedPlugins.editor("story")
        let ours = try open(story).apply("delete-act", "2").0.text
        let theirs = try open(story).apply("add-scene", "2", "Castaway").0.text
        // When the two are merged
        let result = try XCTUnwrap(editor.semanticMerge(base: Data(story.utf8), ours: Data(ours.utf8), theirs: Data(theirs.utf8)))
        // Then the new scene is a conflict, not silently dropped
        guard case let .conflicts(lines) = result else { return XCTFail("merged without the scene: \(result)") }
        XCTAssertTrue(lines.contains { $0.hasPrefix("scene 'Castaway'") }, "\(lines)")
    }

    func testGivenASceneDeletedOnOneSideAndAnotherEditedOnTheOtherWhenMergedThenBothChangesAreKept() throws {
        // Given scene 1.2 deleted by us, and scene 3.1's text changed by them
        let editor = try HostedPlugins.editor("story")
        let ours = try open(story).apply("delete-scene", "1", "2").0.text
        let theirs = try open(story).apply("set-text", "3", "1", "Home, changed.").0.text
        // When merged
        let result = try XCTUnwrap(editor.semanticMerge(base: Data(story.utf8), ours: Data(ours.utf8), theirs: Data(theirs.utf8)))
        // Then the merge has both
        guard case let .merged(data) = result else { return XCTFail("\(result)") }
        let merged = String(decoding: data, as: UTF8.self)
        XCTAssertFalse(merged.contains("Dusk"), merged)
        XCTAssertTrue(merged.contains("Home, changed."), merged)
    }
}
