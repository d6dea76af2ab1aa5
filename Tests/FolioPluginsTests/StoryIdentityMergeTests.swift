@testable import FolioPlugins
import Foundation
import XCTest

/// The story editor's three-way merge by id: what both people did, scene by scene and field by field, whatever
/// else moved. Each side is made by the plugin's own commands, as `folio edit` makes it.
final class StoryIdentityMergeTests: SemanticEditorTestCase {
    override var editorID: String { "story" }

    /// A story in today's Markdown, without ids.
    private let old = """
    # Voyage

    ## Act I: Departure

    ### The Call
    It begins at the harbour.

    ### The Refusal
    She says no.

    ## Act II: Return

    ### The Road Back
    Home at last.

    """

    /// The same story as this Folio writes it: every act and scene with its id.
    private func base() throws -> String { try editor().open(Data(old.utf8)).text }

    private func edited(_ markdown: String, _ commands: [String]...) throws -> String { try editor().edited(markdown, commands) }

    private func merged(_ base: String, _ ours: String, _ theirs: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard case let .merged(data) = try merge(base, ours, theirs) else {
            XCTFail("expected a clean merge, got \(try merge(base, ours, theirs))", file: file, line: line)
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }

    func testGivenTheSameSceneRenamedTwoWaysAndAnotherSceneAddedBeforeItOnEachSideWhenMergedThenItIsAConflictNamingTheScene() throws {
        // Given each side adds a scene at the start of act 1 (so "The Refusal" is 1.3 on both) and renames "The Refusal"
        let base = try base()
        let ours = try edited(base, ["add-scene", "1", "Storm"], ["move-scene", "1", "3", "1", "1"], ["rename-scene", "1", "3", "The Doubt"])
        let theirs = try edited(base, ["add-scene", "1", "Omen"], ["move-scene", "1", "3", "1", "1"], ["rename-scene", "1", "3", "The No"])
        // When merged, Then the two renames are one conflict, named by the title both sides knew
        XCTAssertEqual(try merge(base, ours, theirs),
                       .conflicts(["scene 'The Refusal': title changed to \"The Doubt\" by us and changed to \"The No\" by them"]))
    }

    func testGivenASceneRenamedAndShiftedOnOneSideAndItsTextChangedOnTheOtherWhenMergedThenBothChangesSurvive() throws {
        // Given we add a scene before "The Refusal" and rename it; they rewrite its text
        let base = try base()
        let refusal = try XCTUnwrap(StoryTags.id(of: "### The Refusal", in: base))
        let ours = try edited(base, ["add-scene", "1", "Storm"], ["move-scene", "1", "3", "1", "1"], ["rename-scene", "1", "3", "The Doubt"])
        let theirs = try edited(base, ["set-text", "1", "2", "She says yes."])
        // When merged
        let merged = try merged(base, ours, theirs)
        // Then the scene has our title and their text, once, with its id; the added scene is there
        XCTAssertTrue(StoryTags.stripped(merged).contains("### The Doubt\n\nShe says yes.\n"), merged)
        XCTAssertFalse(merged.contains("The Refusal"), merged)
        XCTAssertEqual(StoryTags.sceneTitles(merged), ["Storm", "The Call", "The Doubt", "The Road Back"])
        XCTAssertEqual(StoryTags.id(of: "### The Doubt", in: merged), refusal)
    }

    func testGivenASceneDeletedOnOneSideAndRenamedElsewhereInItsActOnTheOtherWhenMergedThenItIsAConflict() throws {
        // Given we delete "The Refusal"; they add a scene before it and rename it
        let base = try base()
        let ours = try edited(base, ["delete-scene", "1", "2"])
        let theirs = try edited(base, ["add-scene", "1", "Omen"], ["move-scene", "1", "3", "1", "1"], ["rename-scene", "1", "3", "The No"])
        // When merged (either way round), Then deleting against changing is a conflict, never a silent choice
        XCTAssertEqual(try merge(base, ours, theirs), .conflicts(["scene 'The Refusal': deleted by us, changed by them"]))
        XCTAssertEqual(try merge(base, theirs, ours), .conflicts(["scene 'The Refusal': changed by us, deleted by them"]))
    }

    func testGivenAnActDeletedOnOneSideAndASceneAddedToItOnTheOtherWhenMergedThenTheConflictSaysWhoDeletedTheAct() throws {
        let base = try base()
        let ours = try edited(base, ["delete-act", "2"])
        let theirs = try edited(base, ["add-scene", "2", "The Welcome"])
        XCTAssertEqual(try merge(base, ours, theirs), .conflicts(["scene 'The Welcome': its act 'Act II: Return' was deleted by us"]))
    }

    func testGivenScenesAddedToOneActOnBothSidesWhenMergedEitherWayThenEachSidesRunStaysTogetherAndTheResultIsTheSame() throws {
        // Given we add two scenes to act 1 and they add two others
        let base = try base()
        let ours = try edited(base, ["add-scene", "1", "Ours one"], ["add-scene", "1", "Ours two"])
        let theirs = try edited(base, ["add-scene", "1", "Theirs one"], ["add-scene", "1", "Theirs two"])
        // When merged with either side as ours
        let one = try merged(base, ours, theirs), other = try merged(base, theirs, ours)
        // Then both merges are the same bytes, and each side's scenes follow "The Refusal" together, in their order
        XCTAssertEqual(one, other)
        let titles = StoryTags.sceneTitles(one)
        XCTAssertEqual(Array(titles.prefix(2)), ["The Call", "The Refusal"], "\(titles)")
        XCTAssertTrue([["Ours one", "Ours two", "Theirs one", "Theirs two"], ["Theirs one", "Theirs two", "Ours one", "Ours two"]]
            .contains(Array(titles[2..<6])), "\(titles)")
        XCTAssertEqual(titles.last, "The Road Back")
    }

    func testGivenAStoryWrittenByANewerPluginWhenEditedAndMergedThenItsUnknownFieldsAreKeptByteForByte() throws {
        // Given a story whose head, act and scene carry fields this plugin does not know
        let newer = """
        # Voyage
        <!-- folio {"theme": "sea"} -->

        ## Act I: Departure <!-- folio {"id":"actdeparture","colour":[1, 2]} -->

        ### The Call <!-- folio {"id":"scenecall","mood":{"calm": true}} -->
        It begins at the harbour.

        ### The Refusal <!-- folio {"id":"scenerefusal"} -->
        She says no.

        """
        // When a scene is renamed, Then only its title changed: every other byte, fields included, is as it was
        let renamed = try edited(newer, ["rename-scene", "1", "1", "The Summons"])
        XCTAssertEqual(renamed, newer.replacingOccurrences(of: "### The Call", with: "### The Summons"))
        // And the view shows none of it
        let view = try editor().open(Data(newer.utf8)).render(width: 60, height: 12, selection: ViewSelection(cursor: 2))
        XCTAssertFalse(view.joined().contains("folio") || view.joined().contains("mood") || view.joined().contains("scenecall"), "\(view)")
        // When a newer plugin changed the mood on one side and we renamed the scene on the other
        let moody = newer.replacingOccurrences(of: "{\"calm\": true}", with: "{\"calm\": false}")
        let merged = try merged(newer, moody, renamed)
        // Then both survive, and the fields nobody changed are kept byte for byte
        XCTAssertTrue(merged.contains("### The Summons <!-- folio {\"id\":\"scenecall\",\"mood\":{\"calm\": false}} -->\n"), merged)
        XCTAssertTrue(merged.contains("## Act I: Departure <!-- folio {\"id\":\"actdeparture\",\"colour\":[1, 2]} -->\n"), merged)
        XCTAssertTrue(merged.contains("<!-- folio {\"theme\": \"sea\"} -->\n"), merged)
        // And the same unknown field changed two ways is a conflict like any other
        let stormy = newer.replacingOccurrences(of: "{\"calm\": true}", with: "\"stormy\"")
        XCTAssertEqual(try merge(newer, moody, stormy),
                       .conflicts(["scene 'The Call': field mood changed to {\"calm\": false} by us and changed to \"stormy\" by them"]))
    }

    func testGivenAStoryWithoutIdsWhenOpenedInTwoHostProcessesThenBothGiveEveryItemTheSameIdAndTheMigratedClonesMerge() throws {
        // Given today's Markdown opened by two plugin hosts, as two clones would
        let first = try HostedEditor.storyInOwnHost(), second = try HostedEditor.storyInOwnHost()
        let one = try first.open(Data(old.utf8)).text, two = try second.open(Data(old.utf8)).text
        // Then every act and scene has an id, all different, the same in both, and nothing else changed
        let ids = StoryTags.ids(one)
        XCTAssertEqual(ids.count, 5)
        XCTAssertEqual(Set(ids).count, 5, "\(ids)")
        XCTAssertFalse(ids.contains(""), "\(ids)")
        XCTAssertEqual(one, two)
        XCTAssertEqual(StoryTags.stripped(one), old)
        // When each clone edits the old version in its own host (one renames a scene it shifted, one rewrites its text)
        let ours = try first.edited(old, [["add-scene", "1", "Storm"], ["move-scene", "1", "3", "1", "1"], ["rename-scene", "1", "3", "The Doubt"]])
        let theirs = try second.edited(old, [["set-text", "1", "2", "She says yes."]])
        // Then the two migrated versions merge with the old base without a conflict, keeping both changes
        let merged = try merged(old, ours, theirs)
        XCTAssertTrue(StoryTags.stripped(merged).contains("### The Doubt\n\nShe says yes.\n"), merged)
        XCTAssertFalse(merged.contains("The Refusal"), merged)
    }

    func testGivenASideWrittenByAFolioBeforeIdsWhenMergedWithABaseThatHasThemThenItsItemsTakeTheBaseIds() throws {
        // Given a base with ids; an old Folio renamed a scene (and wrote no ids); we rewrote another scene
        let base = try base()
        let theirs = StoryTags.stripped(base).replacingOccurrences(of: "### The Refusal", with: "### The Doubt")
        let ours = try edited(base, ["set-text", "2", "1", "Home, changed."])
        // When merged
        let merged = try merged(base, ours, theirs)
        // Then both changes are there, and every item kept the id it had in the base
        XCTAssertTrue(StoryTags.stripped(merged).contains("### The Doubt\nShe says no.\n"), merged)
        XCTAssertTrue(merged.contains("Home, changed."), merged)
        XCTAssertEqual(StoryTags.ids(merged), StoryTags.ids(base))
        XCTAssertEqual(StoryTags.ids(merged).filter(\.isEmpty), [], merged)
    }

    func testGivenActsAddedOnBothSidesAndTheFirstDeletedWhenMergedThenTheActsAreLabelledInOrderAndARenameOfARenumberedActSurvives() throws {
        // Given we add an act and rename "Act II: Return"; they delete act I (their act II becomes "Act I: Return")
        // and add an act of their own
        let base = try base()
        let ours = try edited(base, ["add-act", "Storm"], ["rename-act", "2", "Homecoming"])
        let theirs = try edited(base, ["delete-act", "1"], ["add-act", "Epilogue"])
        // When merged
        let merged = try merged(base, ours, theirs)
        // Then the rename survives (the label is the act's place, not a change) and every act is labelled by its place
        let acts = StoryTags.stripped(merged).split(separator: "\n").filter { $0.hasPrefix("## ") }
        // (the two new acts, added at one place, come one after the other in the order of their ids)
        XCTAssertEqual(acts.map { $0.prefix { $0 != ":" } }, ["## Act I", "## Act II", "## Act III"], merged)
        XCTAssertEqual(acts.first, "## Act I: Homecoming", merged)
        XCTAssertEqual(Set(acts.map { $0.split(separator: ":").last.map(String.init) ?? "" }), [" Homecoming", " Storm", " Epilogue"], merged)
    }

    func testGivenASceneMovedToAnotherActWhenItIsTakenIntoAVersionThatHasThatActThenItMovesThere() throws {
        // Given "The Refusal" moved from act 1 to act 2
        let base = try base()
        let moved = try edited(base, ["move-scene", "1", "2", "2", "2"])
        // When it is taken from that version into the base (what settling a conflict does for the side that loses)
        let (bytes, _) = try XCTUnwrap(editor().takeItems(from: Data(moved.utf8), into: Data(base.utf8), pairs: [(from: "2.2", into: "1.2")]))
        // Then it is in act 2 there too, with its id: the act is part of the scene
        XCTAssertEqual(StoryTags.stripped(String(decoding: bytes, as: UTF8.self)), StoryTags.stripped(moved))
    }
}
