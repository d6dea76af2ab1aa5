import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// The editor host's sharing keys and palette commands, as pure state: which effect each key asks for, what Esc
/// does while an action runs, and where results are shown.
final class SharingKeysTests: XCTestCase {
    func testSKeyStartsSyncNowOffTheUIThreadWhenTheDocumentIsShared() {
        // Given an editor whose session offers sharing
        let app = SharingFixtures.app(SharingFixtures.synced)
        // When S is pressed
        let (state, effects) = app.pressing([.character("S")])
        // Then the sync runs as a request for the run loop, and the status line knows it runs
        XCTAssertEqual(effects, [.sharing(.perform(.syncNow))])
        XCTAssertEqual(state.sharingActivity?.label, "sync now")
    }

    func testGivenTheLoopsOwnRoundRunningWhenEscIsPressedThenThatRoundIsStopped() {
        // Given an editor whose status line says the loop is syncing (no action of the user's runs)
        let app = SharingFixtures.app(SharingState(phase: .syncing, remote: "origin", progress: "12/40 objects", continuous: true))
        // When Esc is pressed
        let (state, effects) = app.pressing([.escape])
        // Then the round is asked to stop, and the window says so
        XCTAssertEqual(effects, [.sharing(.cancelRound)])
        XCTAssertEqual(state.editorShown?.hint, "stopping the sync in progress; nothing is half-done")
        // And when synced, Esc asks nothing of the loop
        XCTAssertEqual(SharingFixtures.app(SharingFixtures.synced).pressing([.escape]).1, [])
    }

    func testWithoutSharingThePaletteAndKeysOfferNoSharing() {
        // Given an editor whose session offers no sharing
        let app = SharingFixtures.app(nil)
        // When S and C are pressed
        let (state, effects) = app.pressing([.character("S"), .character("C")])
        // Then nothing is asked for and the palette lists no sharing command
        XCTAssertEqual(effects, [])
        XCTAssertNil(state.sharingActivity)
        XCTAssertFalse(state.editorShown?.paletteCommands.contains { $0.id.hasPrefix("folio.sync") || $0.id == "folio.push" } ?? true)
    }

    func testEverySharingActionIsReachableFromThePalette() {
        // Given a shared document with continuous sync off
        let off = SharingState(phase: .synced, remote: "origin", continuous: false)
        func run(_ filter: String) -> (AppState, [AppEffect]) {
            SharingFixtures.app(off).pressing([.ctrl("p")] + typing(filter) + [.enter])
        }
        // When each command is chosen from the palette by name
        // Then each asks for its action (continuous sync turns on, as it was off)
        XCTAssertEqual(run("sync now").1, [.sharing(.perform(.syncNow))])
        XCTAssertEqual(run("push").1, [.sharing(.perform(.push))])
        XCTAssertEqual(run("pull").1, [.sharing(.perform(.pull))])
        XCTAssertEqual(run("continuous").1, [.sharing(.perform(.continuous(true)))])
        XCTAssertEqual(run("remote settings").0.remotesScreen?.editing, nil)
        XCTAssertNotNil(run("remote settings").0.remotesScreen)
        XCTAssertEqual(run("share").0.remotesScreen?.editing, .share)
        // And continuous sync turns off when it was on
        let (_, effects) = SharingFixtures.app(SharingFixtures.synced).pressing([.ctrl("p")] + typing("continuous") + [.enter])
        XCTAssertEqual(effects, [.sharing(.perform(.continuous(false)))])
    }

    func testEscStopsTheRunningActionAndItsFailureIsTheEditorsOneLineMessage() {
        // Given a sync running
        let (running, _) = SharingFixtures.app(SharingFixtures.synced).pressing([.character("S")])
        // When Esc is pressed
        let (stopping, effects) = running.pressing([.escape])
        // Then the action is asked to stop, and the status line says so
        XCTAssertEqual(effects, [.sharing(.cancel)])
        XCTAssertEqual(stopping.sharingActivity?.cancelling, true)
        XCTAssertTrue(stopping.sharingActivity?.statusLine(tick: 0).hasSuffix("(stopping)") ?? false)
        // When its failure arrives
        var ended = stopping
        ended.receiveSharing(.performed(.syncNow, .failed("sync cancelled: nothing was sent")))
        // Then the activity is over and the reason is the editor's message
        XCTAssertNil(ended.sharingActivity)
        XCTAssertEqual(ended.editorShown?.message, .failure("sync cancelled: nothing was sent"))
    }

    func testASucceededActionShowsItsSummaryAsAHint() {
        // Given a push running
        let (running, _) = SharingFixtures.app(SharingFixtures.synced).pressing([.ctrl("p")] + typing("push") + [.enter])
        // When it ends
        var ended = running
        ended.receiveSharing(.performed(.push, .done("pushed 2 versions to origin")))
        // Then its summary shows on the command bar line, not as an error
        XCTAssertEqual(ended.editorShown?.hint, "pushed 2 versions to origin")
        XCTAssertNil(ended.editorShown?.message)
    }

    func testASecondActionWaitsForTheFirstAndEscStillClosesThePaletteFirst() {
        // Given a sync running
        let (running, _) = SharingFixtures.app(SharingFixtures.synced).pressing([.character("S")])
        // When S is pressed again
        let (again, effects) = running.pressing([.character("S")])
        // Then nothing more is asked and the message says what runs
        XCTAssertEqual(effects, [])
        XCTAssertEqual(again.editorShown?.message, .failure("sync now is still running (esc cancels it)"))
        // When the palette is open, Esc closes it and leaves the sync running
        let (closed, escEffects) = running.pressing([.ctrl("p"), .escape])
        XCTAssertEqual(escEffects, [])
        XCTAssertEqual(closed.editorShown?.paletteOpen, false)
        XCTAssertEqual(closed.sharingActivity?.cancelling, false)
    }

    func testShareAsksForTheRemoteNameDefaultingToOriginAndTheURL() {
        // Given the Share command chosen
        let (asking, _) = SharingFixtures.app(.notShared).pressing([.ctrl("p")] + typing("share") + [.enter])
        XCTAssertEqual(asking.remotesScreen?.fields.map(\.text), ["origin", ""])
        // When the URL is typed and confirmed
        let (state, effects) = asking.pressing(typing("https://example.com/groceries.git") + [.enter])
        // Then the share is asked for and the editor is back, showing it run
        XCTAssertEqual(effects, [.sharing(.perform(.share(remote: "origin", url: "https://example.com/groceries.git")))])
        XCTAssertNotNil(state.editorShown)
        XCTAssertEqual(state.sharingActivity?.label, "share to origin")
        // And Esc on the form goes back to the editor with nothing asked
        let (back, none) = asking.pressing([.escape])
        XCTAssertNotNil(back.editorShown)
        XCTAssertEqual(none, [])
    }

    func testHelpListsTheSharingKeysOnlyWhenTheDocumentOffersSharing() {
        // Given editors with and without sharing
        let shared = SharingFixtures.app(SharingFixtures.synced).helpLines(scene: .defaultScene)
        let local = SharingFixtures.app(nil).helpLines(scene: .defaultScene)
        // Then the shared one's help lists the keys S and C and the palette-only commands
        XCTAssertTrue(shared.contains(HelpLine(keys: "S", text: "Sync now")))
        XCTAssertTrue(shared.contains(HelpLine(keys: "C", text: "Settle conflicts")))
        XCTAssertTrue(shared.contains(HelpLine(keys: "^P", text: "Remote settings")))
        XCTAssertFalse(local.contains { $0.text == "Sync now" })
        // And the sharing screens list their own tables
        var remotes = AppState()
        remotes.screen = .sharing(.remotes(RemoteSettingsState()), SharingFixtures.editor(SharingFixtures.synced))
        XCTAssertTrue(remotes.helpLines(scene: .defaultScene).contains(HelpLine(keys: "i", text: "how often the remote is looked at (1–86400 s)")))
        var conflicts = AppState()
        conflicts.screen = .sharing(.conflicts(ConflictScreenState()), SharingFixtures.editor(SharingFixtures.conflicted))
        XCTAssertTrue(conflicts.helpLines(scene: .defaultScene).contains(HelpLine(keys: "M", text: "mine for every item (only here: M is the message log elsewhere)")))
    }

    func testTheRunLoopsViewOfSharingReachesTheEditorAndTheRemoteScreen() {
        // Given the remote settings screen open
        var state = SharingFixtures.app(SharingFixtures.synced).pressing([.ctrl("p")] + typing("remote settings") + [.enter]).0
        // When the run loop observes the session
        let remotes = [SharingRemote(name: "origin", url: "https://example.com/g.git")]
        state.observeSharing(SharingFixtures.synced, remotes: remotes, interval: 45, progress: nil)
        // Then the screen lists them
        XCTAssertEqual(state.remotesScreen?.remotes, remotes)
        XCTAssertEqual(state.remotesScreen?.interval, 45)
        XCTAssertEqual(state.remotesScreen?.continuous, true)
    }
    func testGivenAHeldRemoteVersionWhenAcceptIsChosenThenYTakesItAndAnyOtherKeyOnlyCancels() {
        // Given a shared document whose remote version is held because it changes the content type
        var held = SharingFixtures.synced
        held.heldContentType = "held back origin/main at 1a2b3c4: it changes the document's content type"
        let app = SharingFixtures.app(held)
        // When "accept" is chosen from the palette
        let (asked, none) = app.pressing([.ctrl("p")] + typing("accept the held") + [.enter])
        // Then nothing runs yet: the window asks first
        XCTAssertEqual(none, [])
        XCTAssertEqual(asked.confirming, .acceptContentType(summary: held.heldContentType ?? ""))
        // And y takes the version (a sync that accepts the type), any other key only takes the question back
        XCTAssertEqual(asked.pressing([.character("y")]).1, [.sharing(.perform(.acceptContentType))])
        let (declined, nothing) = asked.pressing([.character("i")])
        XCTAssertEqual(nothing, [])
        XCTAssertNil(declined.confirming)
        // And with nothing held, the command says so and asks nothing
        let (plain, effects) = SharingFixtures.app(SharingFixtures.synced).pressing([.ctrl("p")] + typing("accept the held") + [.enter])
        XCTAssertEqual(effects, [])
        XCTAssertEqual(plain.editorShown?.hint, "Nothing held: no remote version changes this document's content type")
    }
}
