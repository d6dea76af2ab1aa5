@testable import FolioPlugins
import Foundation
import XCTest

/// The story editor's semantic diff and merge, through the C ABI as Folio calls them.
final class StorySemanticTests: SemanticEditorTestCase {
    override var editorID: String { "story" }

    private let base = """
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

    func testGivenTheStoryEditorWhenItsManifestIsReadThenItOffersSemanticDiffAndMerge() throws {
        try assertManifestOffersSemanticDiffAndMerge()
    }

    func testGivenASceneAddedWhenDiffedThenItIsNamedWithItsAct() throws {
        let new = base + "### The Welcome\nA feast.\n"
        XCTAssertEqual(try diff(base, new), ["added scene 'The Welcome' to act 2"])
    }

    func testGivenASceneRemovedWhenDiffedThenItIsNamed() throws {
        let new = base.replacingOccurrences(of: "### The Refusal\nShe says no.\n\n", with: "")
        XCTAssertEqual(try diff(base, new), ["removed scene 'The Refusal' from act 1"])
    }

    func testGivenASceneRenamedWhenDiffedThenItIsARenameNotAnAddAndRemove() throws {
        let new = base.replacingOccurrences(of: "### The Refusal", with: "### The Doubt")
        XCTAssertEqual(try diff(base, new), ["renamed scene 'The Refusal' to 'The Doubt'"])
    }

    func testGivenASceneMovedToAnotherActWhenDiffedThenItIsAMove() throws {
        let new = base.replacingOccurrences(of: "### The Refusal\nShe says no.\n\n", with: "")
            .replacingOccurrences(of: "## Act II: Return\n\n", with: "## Act II: Return\n\n### The Refusal\nShe says no.\n\n")
        XCTAssertEqual(try diff(base, new), ["moved scene 'The Refusal' to act 2, position 1"])
    }

    func testGivenSceneTextChangedWhenDiffedThenTheSceneAndItsWordCountAreNamed() throws {
        let new = base.replacingOccurrences(of: "She says no.", with: "She says no, twice, to everyone.")
        XCTAssertEqual(try diff(base, new), ["changed the text of scene 'The Refusal' (6 words, +3)"])
    }

    func testGivenTheFirstVersionWhenDiffedAgainstNothingThenTheTitleActsAndScenesAreNamed() throws {
        XCTAssertEqual(try diff("", "# Voyage\n\n## Act I: Departure\n\n### The Call\nIt begins.\n"),
                       ["titled the story 'Voyage'", "added act 'Act I: Departure'", "added scene 'The Call' to act 1"])
        XCTAssertEqual(try diff(base, base.replacingOccurrences(of: "# Voyage", with: "# Odyssey")), ["retitled the story from 'Voyage' to 'Odyssey'"])
    }

    func testGivenNoChangeWhenDiffedThenTheDiffIsEmpty() throws {
        XCTAssertEqual(try diff(base, base), [])
    }

    func testGivenEditsToDifferentScenesWhenMergedThenBothAreKept() throws {
        let ours = base.replacingOccurrences(of: "It begins at the harbour.", with: "It begins at dawn.")
        let theirs = base.replacingOccurrences(of: "Home at last.", with: "Home, changed.") + "### Epilogue\nYears later.\n"
        guard case let .merged(data) = try merge(base, ours, theirs) else { return XCTFail("expected a clean merge") }
        let merged = StoryTags.stripped(String(decoding: data, as: UTF8.self))
        XCTAssertTrue(merged.contains("It begins at dawn."), merged)
        XCTAssertTrue(merged.contains("Home, changed."), merged)
        XCTAssertTrue(merged.contains("### Epilogue\nYears later."), merged)
        XCTAssertEqual(try diff(base, merged), ["added scene 'Epilogue' to act 2",
                                                "changed the text of scene 'The Call' (4 words, −1)",
                                                "changed the text of scene 'The Road Back' (2 words, −1)"])
    }

    func testGivenAMoveOnOneSideAndATextEditOnTheOtherWhenMergedThenBothApply() throws {
        let ours = base.replacingOccurrences(of: "### The Refusal\nShe says no.\n\n", with: "")
            .replacingOccurrences(of: "## Act II: Return\n\n", with: "## Act II: Return\n\n### The Refusal\nShe says no.\n\n")
        let theirs = base.replacingOccurrences(of: "She says no.", with: "She says yes.")
        guard case let .merged(data) = try merge(base, ours, theirs) else { return XCTFail("expected a clean merge") }
        XCTAssertEqual(try diff(base, String(decoding: data, as: UTF8.self)),
                       ["moved scene 'The Refusal' to act 2, position 1", "changed the text of scene 'The Refusal' (3 words, +0)"])
    }

    func testGivenASceneRenamedOnOneSideAndItsTextEditedOnTheOtherWhenMergedThenBothApply() throws {
        let ours = base.replacingOccurrences(of: "### The Refusal", with: "### The Doubt")
        let theirs = base.replacingOccurrences(of: "She says no.", with: "She says yes.")
        guard case let .merged(data) = try merge(base, ours, theirs) else { return XCTFail("expected a clean merge") }
        let merged = StoryTags.stripped(String(decoding: data, as: UTF8.self))
        XCTAssertTrue(merged.contains("### The Doubt\nShe says yes.\n"), merged)
        XCTAssertFalse(merged.contains("The Refusal"), merged)
    }

    func testGivenTheSameSceneRenamedTwoWaysWhenMergedThenItIsAConflict() throws {
        let ours = base.replacingOccurrences(of: "### The Refusal", with: "### The Doubt")
        let theirs = base.replacingOccurrences(of: "### The Refusal", with: "### The No")
        XCTAssertEqual(try merge(base, ours, theirs), .conflicts(["scene 'The Refusal': title changed to \"The Doubt\" by us and changed to \"The No\" by them"]))
    }

    func testGivenTheSameSceneTextChangedTwoWaysWhenMergedThenItIsAConflictNamingTheScene() throws {
        let ours = base.replacingOccurrences(of: "She says no.", with: "She says maybe.")
        let theirs = base.replacingOccurrences(of: "She says no.", with: "She says yes.")
        XCTAssertEqual(try merge(base, ours, theirs), .conflicts(["scene 'The Refusal': text changed to \"She says maybe.\" by us and changed to \"She says yes.\" by them"]))
    }

    func testGivenASceneRemovedOnOneSideAndEditedOnTheOtherWhenMergedThenItIsAConflict() throws {
        let ours = base.replacingOccurrences(of: "### The Refusal\nShe says no.\n\n", with: "")
        let theirs = base.replacingOccurrences(of: "She says no.", with: "She says yes.")
        XCTAssertEqual(try merge(base, ours, theirs), .conflicts(["scene 'The Refusal': deleted by us, changed by them"]))
    }

    func testGivenBytesThatAreNotUTF8WhenDiffedOrMergedThenThePluginRefusesWithAnError() throws {
        let bad = Data([0x23, 0x20, 0xFF, 0xFE, 0x0A, 0xC0, 0x80])
        XCTAssertThrowsError(try editor().semanticDiff(from: Data(base.utf8), to: bad)) { error in
            XCTAssertTrue("\(error)".contains("UTF-8"), "\(error)")
        }
        XCTAssertThrowsError(try editor().semanticMerge(base: bad, ours: Data(base.utf8), theirs: Data(base.utf8))) { error in
            XCTAssertTrue("\(error)".contains("UTF-8"), "\(error)")
        }
    }
}
