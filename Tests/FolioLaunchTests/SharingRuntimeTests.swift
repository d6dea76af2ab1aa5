import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// The run loop's side of sharing with an in-memory session: actions run off the UI thread, report progress and
/// stop on Esc; conflicts, previews and settling reach the session and come back through the mailbox.
final class SharingRuntimeTests: XCTestCase {
    /// Drains `mailbox` until `done` holds for a message (at most 5 s), handing each to `state`.
    func waitFor(_ mailbox: Mailbox, state: inout AppState, file: StaticString = #filePath, line: UInt = #line,
                 _ done: (SharingEvent) -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            for message in mailbox.drain() {
                guard case let .sharing(event) = message else { continue }
                state.receiveSharing(event)
                if done(event) { return }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTFail("no such sharing result within 5 s", file: file, line: line)
    }

    func testASyncShowsItsProgressAndEscStopsItWithItsReasonOnOneLine() {
        // Given a session whose sync blocks after reporting progress, and S pressed
        let fake = FakeSharing(.init(state: SharingFixtures.synced, blocks: true))
        let mailbox = Mailbox()
        let runtime = SharingRuntime(sharing: fake, mailbox: mailbox)
        var (state, effects) = SharingFixtures.app(SharingFixtures.synced).pressing([.character("S")])
        for case let .sharing(request) in effects { runtime.carryOut(request) }
        // When the run loop observes it running
        let deadline = Date().addingTimeInterval(5)
        while runtime.progress == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        state.observeSharing(fake.state(), remotes: [], interval: nil, progress: runtime.progress)
        // Then the status line shows the action's progress and how to stop it
        var grid = CellGrid(width: 80, height: 10)
        Screens.decorateSharing(&grid, state: state)
        XCTAssertTrue(grid.plainText().contains("sync now: 3/10 objects, 1 KiB (esc cancels)"), grid.plainText())
        // When Esc is pressed
        (state, effects) = state.pressing([.escape])
        for case let .sharing(request) in effects { runtime.carryOut(request) }
        // Then the session saw the cancel, and its reason is the editor's one-line message
        waitFor(mailbox, state: &state) { if case .performed = $0 { return true } else { return false } }
        XCTAssertEqual(state.editorShown?.message, .failure("sync cancelled: nothing was sent"))
        XCTAssertNil(state.sharingActivity)
        XCTAssertEqual(fake.calls.withLock { $0.performed }, [.syncNow])
    }

    func testConflictsLoadPreviewAndSettleThroughTheSession() {
        // Given a session holding one conflict, and C pressed
        let fake = FakeSharing(.init(state: SharingFixtures.conflicted, conflicts: [SharingFixtures.checklistConflict]))
        let mailbox = Mailbox()
        let runtime = SharingRuntime(sharing: fake, mailbox: mailbox)
        var (state, effects) = SharingFixtures.app(SharingFixtures.conflicted).pressing([.character("C")])
        for case let .sharing(request) in effects { runtime.carryOut(request) }
        // When the conflicts arrive
        waitFor(mailbox, state: &state) { if case .conflicts = $0 { return true } else { return false } }
        XCTAssertEqual(state.conflictScreen?.current, SharingFixtures.checklistConflict)
        // And the choices are made and the preview follows
        (state, _) = state.pressing([.character("m"), .down, .character("t")])
        if case let .sharing(request)? = state.followConflictPreview(columns: 120, rows: 30) { runtime.carryOut(request) }
        waitFor(mailbox, state: &state) { if case .preview = $0 { return true } else { return false } }
        // Then the preview is the session's drawing of these choices
        XCTAssertEqual(state.conflictScreen?.preview, ["item 2: mine", "item 4: theirs"])
        // When Enter settles
        (state, effects) = state.pressing([.enter])
        for case let .sharing(request) in effects { runtime.carryOut(request) }
        waitFor(mailbox, state: &state) { if case .settled = $0 { return true } else { return false } }
        // Then the session settled once with the choices, and the editor shows its summary
        let settled = fake.calls.withLock { $0.settled }
        XCTAssertEqual(settled.map(\.ref), ["refs/folio/conflicts/1"])
        XCTAssertEqual(settled.first?.choices, ["2": .mine, "4": .theirs])
        XCTAssertEqual(state.editorShown?.hint, "settled 1: 1 merge commit")
    }

    func testPreviewsAskedInARowDrawOnlyTheLast() {
        // Given three previews asked for at once (keys pressed together)
        let fake = FakeSharing()
        let mailbox = Mailbox()
        let runtime = SharingRuntime(sharing: fake, mailbox: mailbox)
        let subjects = [ItemChoice.mine, .theirs, .both].map { ConflictPreviewSubject(ref: "r", choices: ["1": $0], width: 40) }
        for subject in subjects { runtime.carryOut(.preview(subject)) }
        // When they have had time to run
        let deadline = Date().addingTimeInterval(5)
        var events: [SharingEvent] = []
        while events.isEmpty, Date() < deadline {
            events += mailbox.drain().compactMap { if case let .sharing(event) = $0 { return event } else { return nil } }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: 0.3)
        events += mailbox.drain().compactMap { if case let .sharing(event) = $0 { return event } else { return nil } }
        // Then only the last was drawn by the session
        XCTAssertEqual(fake.calls.withLock { $0.previews }, [subjects[2]])
        XCTAssertEqual(events, [.preview(subjects[2], ["item 1: both"])])
    }

    func testWithoutSharingAnActionEndsWithAReason() {
        // Given a runtime for a session without sharing
        let mailbox = Mailbox()
        SharingRuntime(sharing: nil, mailbox: mailbox).carryOut(.perform(.push))
        // Then the action ends at once with a reason (the activity never hangs)
        guard case let .sharing(event)? = mailbox.drain().first else { return XCTFail("no result") }
        XCTAssertEqual(event, .performed(.push, .failed("this document is not shared here")))
    }

    func testGivenAnOpenWindowWhenInUseThenTheRemoteIsLookedAtEvery5sAndAtTheDocumentsIntervalOnceIdleOrLeft() {
        // Given an editor on a shared session
        let fake = FakeSharing(.init(state: SharingState(phase: .synced, remote: "origin"), interval: 30))
        let runtime = SharingRuntime(sharing: fake, mailbox: Mailbox())
        var state = SharingFixtures.app(nil)
        var last = Date()
        let services = LaunchServices(recent: BadgedRecent(), templates: FakeCatalog())
        func frame(lastUsed: Date) {
            LaunchApp.updateSharing(&state, runtime: runtime, services: services, width: 80, height: 24, lastBadges: &last, lastUsed: lastUsed)
        }
        // When frames are drawn while keys come (twice: told once), then once idle for a minute
        frame(lastUsed: Date())
        frame(lastUsed: Date().addingTimeInterval(-10))
        frame(lastUsed: Date().addingTimeInterval(-ForegroundSync.idleAfter - 1))
        // And when the window leaves the document for the launcher while in use
        frame(lastUsed: Date())
        state.screen = .launch
        frame(lastUsed: Date())
        // Then the sharing was told 5 s, the document's interval again, 5 s, and the interval again
        XCTAssertEqual(fake.calls.withLock { $0.foreground }, [5, nil, 5, nil])
        XCTAssertEqual(Screens.intervalText(30), "every 30 s (every 5 s while this window is in use)")
        XCTAssertEqual(Screens.intervalText(2), "every 2 s")
    }

    func testTheRunLoopReadsTheSessionsStateAndTheLaunchersBadges() {
        // Given an editor on a session that is offline with 3 changes waiting
        let fake = FakeSharing(.init(state: SharingState(phase: .offline, remote: "origin", ahead: 3),
                                     remotes: [SharingRemote(name: "origin", url: "u")], interval: 60))
        let runtime = SharingRuntime(sharing: fake, mailbox: Mailbox())
        var state = SharingFixtures.app(nil)
        var last = Date()
        let services = LaunchServices(recent: BadgedRecent(), templates: FakeCatalog())
        // When a frame is prepared
        LaunchApp.updateSharing(&state, runtime: runtime, services: services, width: 80, height: 24, lastBadges: &last)
        // Then the editor knows the state
        XCTAssertEqual(state.editorShown?.sharing?.summary(), "offline · 3 changes waiting")
        // And on the launcher, the badges are read again once their interval passed
        state.screen = .launch
        state.recent = [RecentDocument(path: "a"), RecentDocument(path: "b")]
        last = Date().addingTimeInterval(-LaunchApp.badgeInterval)
        LaunchApp.updateSharing(&state, runtime: runtime, services: services, width: 80, height: 24, lastBadges: &last)
        XCTAssertEqual(state.recent.map(\.badge), ["conflict", ""])
    }
}

struct BadgedRecent: RecentDocumentsProvider {
    func recentDocuments(limit: Int) -> [RecentDocument] { [] }
    func sharingState(path: String) -> SharingState { path == "a" ? SharingState(phase: .conflict, conflicts: ["r"]) : .notShared }
}
