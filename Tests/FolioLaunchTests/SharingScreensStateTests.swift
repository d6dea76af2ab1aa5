import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// The remote settings screen and the conflict screen as pure state: keys, validation, and the requests they make.
final class SharingScreensStateTests: XCTestCase {
    let remotes = [SharingRemote(name: "origin", url: "https://example.com/g.git"), SharingRemote(name: "backup", url: "/srv/backup/g.git")]

    func remoteScreen(continuous: Bool = true) -> AppState {
        var state = SharingFixtures.app(SharingFixtures.synced).pressing([.ctrl("p")] + typing("remote settings") + [.enter]).0
        state.observeSharing(SharingState(phase: .synced, remote: "origin", continuous: continuous), remotes: remotes, interval: 30, progress: nil)
        return state
    }

    func testAddingARemoteChecksItsNameAndURLThenAsksForIt() {
        // Given the remote settings screen
        let screen = remoteScreen()
        // When a remote is added with a name that could pass for an option
        let (refused, none) = screen.pressing([.character("a")] + typing("-x") + [.tab] + typing("https://h/g.git") + [.enter])
        // Then nothing is asked, the problem is named and the name field has focus again
        XCTAssertEqual(none, [])
        XCTAssertEqual(refused.remotesScreen?.problem, "'-x' is not a remote name: use letters, digits, . _ - (not first)")
        XCTAssertEqual(refused.remotesScreen?.focus, 0)
        // When an existing name is used
        let (taken, _) = screen.pressing([.character("a")] + typing("origin") + [.tab] + typing("https://h/g.git") + [.enter])
        XCTAssertEqual(taken.remotesScreen?.problem, "a remote named origin exists (e changes its URL)")
        // When a good name and URL are given
        let (_, effects) = screen.pressing([.character("a")] + typing("team") + [.enter] + typing("ssh://git@h/g.git") + [.enter])
        // Then the remote is added off the UI thread
        XCTAssertEqual(effects, [.sharing(.perform(.addRemote(name: "team", url: "ssh://git@h/g.git")))])
    }

    func testChangingAURLStartsFromTheCurrentOne() {
        // Given the second remote selected
        let (editing, _) = remoteScreen().pressing([.down, .character("e")])
        // Then its URL is ready to edit
        XCTAssertEqual(editing.remotesScreen?.editing, .change("backup"))
        XCTAssertEqual(editing.remotesScreen?.fields.map(\.text), ["/srv/backup/g.git"])
        // When a URL with a space is confirmed, it is refused; a good one is asked for
        XCTAssertEqual(editing.pressing(typing(" x") + [.enter]).0.remotesScreen?.problem, "a URL has no spaces or control characters")
        let (_, effects) = editing.pressing([.ctrl("u")] + typing("/srv/b2/g.git") + [.enter])
        XCTAssertEqual(effects, [.sharing(.perform(.changeRemote(name: "backup", url: "/srv/b2/g.git")))])
    }

    func testRemovingARemoteAsksFirst() {
        // Given x on the first remote
        let (asking, none) = remoteScreen().pressing([.character("x")])
        XCTAssertEqual(none, [])
        XCTAssertEqual(asking.remotesScreen?.removing, "origin")
        // When another key is pressed, it is kept
        let (kept, keptEffects) = asking.pressing([.character("n")])
        XCTAssertEqual(keptEffects, [])
        XCTAssertEqual(kept.remotesScreen?.message, .note("Kept origin"))
        // When y is pressed, it is removed
        XCTAssertEqual(asking.pressing([.character("y")]).1, [.sharing(.perform(.removeRemote(name: "origin")))])
    }

    func testTheIntervalIsWholeSecondsFromOneToADay() {
        // Given the interval form (it opens on the current interval)
        let (form, _) = remoteScreen().pressing([.character("i")])
        XCTAssertEqual(form.remotesScreen?.fields.map(\.text), ["30"])
        // Then 0, 86401, 1.5 and words are refused with the rule; 86400 is asked for
        for bad in ["0", "86401", "1.5", "soon", "-3", "99999999999999999999999"] {
            let (state, effects) = form.pressing([.ctrl("u")] + typing(bad) + [.enter])
            XCTAssertEqual(effects, [], bad)
            XCTAssertEqual(state.remotesScreen?.problem, "the interval is a whole number of seconds from 1 to 86400, got '\(bad)'")
        }
        XCTAssertEqual(form.pressing([.ctrl("u")] + typing("86400") + [.enter]).1, [.sharing(.perform(.interval(seconds: 86400)))])
    }

    func testContinuousToggleAndEscBack() {
        // Given continuous sync on
        let screen = remoteScreen(continuous: true)
        // When c is pressed, it is turned off; Esc goes back to the editor
        XCTAssertEqual(screen.pressing([.character("c")]).1, [.sharing(.perform(.continuous(false)))])
        XCTAssertNotNil(screen.pressing([.escape]).0.editorShown)
        // And while an action runs, Esc stops it before leaving
        let (running, _) = screen.pressing([.character("c")])
        let (stopping, effects) = running.pressing([.escape])
        XCTAssertEqual(effects, [.sharing(.cancel)])
        XCTAssertNotNil(stopping.remotesScreen)
        // And its result is the screen's line
        var ended = stopping
        ended.receiveSharing(.performed(.continuous(false), .failed("cancelled")))
        XCTAssertEqual(ended.remotesScreen?.message, .failure("cancelled"))
    }

    func testTheRemoteFormTakesPastesAndTypedTextIsNotLostByAQuit() {
        // Given the add form open
        let (form, _) = remoteScreen().pressing([.character("a")])
        // When a URL with a newline is pasted into the name and ? typed
        let (pasted, _) = form.pressing([.paste(PastedText("team\nx")), .character("?")])
        // Then the text is one line in the field, ? is typed rather than opening help
        XCTAssertEqual(pasted.remotesScreen?.fields.first?.text, "team x?")
        XCTAssertFalse(pasted.helpOpen)
        // And ^Q asks first, as typed text would be lost
        let (asking, effects) = pasted.pressing([.ctrl("q")])
        XCTAssertEqual(effects, [])
        XCTAssertEqual(asking.confirming, .quit)
        // While outside the form, a paste is refused with a note
        XCTAssertEqual(remoteScreen().pressing([.paste(PastedText("x"))]).0.remotesScreen?.message,
                       .failure("paste ignored: open a field first (a adds a remote, e changes a URL)"))
    }

    // MARK: Conflicts

    func conflictScreen(_ conflict: SharingConflict = SharingFixtures.checklistConflict) -> AppState {
        var state = SharingFixtures.app(SharingFixtures.conflicted).pressing([.character("C")]).0
        state.receiveSharing(.conflicts([conflict]))
        return state
    }

    func testCOpensTheConflictScreenWhichLoadsOffTheUIThread() {
        // Given a document in conflict
        let (state, effects) = SharingFixtures.app(SharingFixtures.conflicted).pressing([.character("C")])
        // Then the screen opens loading, and the conflicts are asked for
        XCTAssertEqual(effects, [.sharing(.loadConflicts)])
        XCTAssertEqual(state.conflictScreen?.loading, true)
        // And without a conflict, C only says there is nothing to settle
        let (calm, none) = SharingFixtures.app(SharingFixtures.synced).pressing([.character("C")])
        XCTAssertEqual(none, [])
        XCTAssertEqual(calm.editorShown?.hint, "Nothing to settle: no remote version conflicts with yours")
    }

    func testEveryItemNeedsAChoiceBeforeSettling() {
        // Given two conflicting items and a choice for the first
        let (partial, _) = conflictScreen().pressing([.character("b")])
        XCTAssertEqual(partial.conflictScreen?.choices, ["2": .both])
        // When Enter is pressed
        let (refused, none) = partial.pressing([.enter])
        // Then nothing is settled, the message says why, and the item without a choice is selected
        XCTAssertEqual(none, [])
        XCTAssertEqual(refused.conflictScreen?.message, .failure("1 item has no choice yet: m, t or b on each (M or T for all)"))
        XCTAssertEqual(refused.conflictScreen?.selection, 1)
        // When it gets one, Enter settles with both choices
        let (_, effects) = refused.pressing([.character("t"), .enter])
        XCTAssertEqual(effects, [.sharing(.settle(ref: "refs/folio/conflicts/1", choices: ["2": .both, "4": .theirs]))])
    }

    func testAllMineAndAllTheirsChooseEveryItem() {
        XCTAssertEqual(conflictScreen().pressing([.character("M")]).0.conflictScreen?.choices, ["2": .mine, "4": .mine])
        XCTAssertEqual(conflictScreen().pressing([.character("M"), .down, .character("T")]).0.conflictScreen?.choices, ["2": .theirs, "4": .theirs])
        XCTAssertEqual(conflictScreen().pressing([.down, .character("m"), .up, .character("t")]).0.conflictScreen?.choices, ["2": .theirs, "4": .mine])
    }

    func testSettlingReturnsToTheEditorWithItsSummaryOrStaysWithTheFailure() {
        // Given a settle asked for
        let (settling, _) = conflictScreen().pressing([.character("M"), .enter])
        XCTAssertEqual(settling.sharingActivity?.label, "settle")
        // When it succeeds, the editor is back with the summary
        var done = settling
        done.receiveSharing(.settled(ref: "refs/folio/conflicts/1", .done("settled 1: 1 merge commit")))
        XCTAssertEqual(done.editorShown?.hint, "settled 1: 1 merge commit")
        XCTAssertNil(done.sharingActivity)
        // When it fails, the screen stays with the reason and the choices
        var failed = settling
        failed.receiveSharing(.settled(ref: "refs/folio/conflicts/1", .failed("the editor refused: item 9 is gone")))
        XCTAssertEqual(failed.conflictScreen?.message, .failure("the editor refused: item 9 is gone"))
        XCTAssertEqual(failed.conflictScreen?.choices, ["2": .mine, "4": .mine])
    }

    func testAConflictWithoutItemsIsSettledAsAWholeFile() {
        // Given a conflict whose editor cannot list items
        let screen = conflictScreen(SharingFixtures.wholeFileConflict)
        // Then both is not offered, and theirs settles the whole file
        XCTAssertEqual(screen.pressing([.character("b")]).0.conflictScreen?.message, .failure("The whole file is either mine (m) or theirs (t)"))
        XCTAssertEqual(screen.pressing([.character("t"), .enter]).1,
                       [.sharing(.settle(ref: "refs/folio/conflicts/2", choices: [SharingConflict.wholeFile: .theirs]))])
    }

    func testThePreviewFollowsTheChoicesAndAStaleOneIsDropped() {
        // Given the conflict screen loaded
        var state = conflictScreen()
        // When the run loop follows the preview
        let first = state.followConflictPreview(columns: 120, rows: 30)
        let width = Screens.conflictLayout(width: 120, height: 30).previewWidth
        let before = ConflictPreviewSubject(ref: "refs/folio/conflicts/1", choices: [:], width: width)
        XCTAssertEqual(first, .sharing(.preview(before)))
        XCTAssertNil(state.followConflictPreview(columns: 120, rows: 30), "asked once")
        // When a choice is made, a new preview is asked for
        state = state.pressing([.character("m")]).0
        let after = ConflictPreviewSubject(ref: "refs/folio/conflicts/1", choices: ["2": .mine], width: width)
        XCTAssertEqual(state.followConflictPreview(columns: 120, rows: 30), .sharing(.preview(after)))
        // Then the answer for the old choices is dropped, the one for the new ones is shown
        state.receiveSharing(.preview(before, ["old"]))
        XCTAssertEqual(state.conflictScreen?.previewIsCurrent, false)
        state.receiveSharing(.preview(after, ["new"]))
        XCTAssertEqual(state.conflictScreen?.preview, ["new"])
        XCTAssertEqual(state.conflictScreen?.previewIsCurrent, true)
    }
}
