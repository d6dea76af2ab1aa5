import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// Golden frames of the sharing parts of the screens: the status line in each phase, the conflict banner, the
/// launcher's badges, the remote settings screen and the conflict screen. `now` is fixed, so "N s ago" is too.
final class SharingScreenGoldenTests: XCTestCase {
    let now = SharingFixtures.now

    func editorFrame(_ sharing: SharingState?, width: Int = 80, height: Int = 8) -> String {
        Screens.editor(SharingFixtures.editor(sharing), view: FakeEditor(), width: width, height: height, now: now).plainText()
    }

    func testTheStatusLineShowsTheSyncStateInEachPhase() {
        // Given a shared document in each phase
        let phases: [(String, SharingState)] = [
            ("synced", SharingState(phase: .synced, remote: "origin", lastSynced: now.addingTimeInterval(-5), continuous: true)),
            ("ahead-behind", SharingState(phase: .synced, remote: "origin", lastSynced: now.addingTimeInterval(-125), ahead: 2, behind: 1)),
            ("syncing", SharingState(phase: .syncing, remote: "origin", progress: "12/40 objects, 3 KiB")),
            ("offline", SharingState(phase: .offline, remote: "origin", ahead: 3, problem: "could not reach example.com")),
            ("conflict", SharingFixtures.conflicted),
            ("held-type", SharingState(phase: .synced, remote: "origin", lastSynced: now.addingTimeInterval(-5), continuous: true,
                                       heldContentType: "held back origin/main at 1a2b3c4: it changes the content type")),
        ]
        // Then the status line leads with its summary (the commit is what gets cut), and a conflict has its banner
        for (name, state) in phases { assertGolden(editorFrame(state), "sharing/editor-status-\(name)") }
        XCTAssertTrue(editorFrame(phases[0].1).contains("⇅ synced 5 s ago · 4f2a9c8"))
        XCTAssertTrue(editorFrame(phases[3].1).contains("⇅ offline · 3 changes waiting"))
        XCTAssertTrue(editorFrame(phases[4].1).contains("A remote version conflicts with yours — press C to settle"))
        XCTAssertTrue(editorFrame(phases[5].1).contains("⚠ Held: a remote version changes the type (another plugin) — ^P Accept"))
        XCTAssertTrue(editorFrame(phases[5].1).contains("⇅ synced 5 s ago · held: new content type"))
        // And "N s ago" moves with the clock
        let later = Screens.editor(SharingFixtures.editor(phases[0].1), view: FakeEditor(), width: 80, height: 8, now: now.addingTimeInterval(7)).plainText()
        XCTAssertTrue(later.contains("synced 12 s ago"))
    }

    func testANotSharedDocumentOrNoSharingAddsNothing() {
        // Given the same editor without sharing, and with sharing but not shared
        // Then the frames are the editor's own
        XCTAssertEqual(editorFrame(.notShared), editorFrame(nil))
        XCTAssertFalse(editorFrame(.notShared).contains("⇅"))
    }

    func testTheStatusLineKeepsTheSyncStateOnANarrowTerminal() {
        // Given a 40-column terminal
        let text = editorFrame(SharingState(phase: .offline, ahead: 3), width: 40)
        // Then no line is wider than the terminal and the sync state is whole
        XCTAssertTrue(text.split(separator: "\n").allSatisfy { DisplayWidth.width(of: String($0)) <= 40 })
        XCTAssertTrue(text.contains("offline · 3 changes waiting"), text)
    }

    func testTheRunningActionsLineOverTheStatusLine() {
        // Given a push running with progress
        var state = SharingFixtures.app(SharingFixtures.synced)
        state.sharingActivity = SharingActivity(label: "push")
        state.sharingActivity?.progress = "7/9 objects, 2 KiB"
        let services = LaunchServices(recent: FakeRecent(), templates: FakeCatalog(), document: GoldenSession())
        // Then the frame shows it where the status line was
        assertGolden(LaunchApp.frame(state, scene: .defaultScene, services: services, width: 80, height: 8, now: now).plainText(),
                     "sharing/editor-push-running")
    }

    func testTheRecentListShowsABadgePerDocument() {
        // Given recent documents in each sharing state
        let recent = [
            RecentDocument(path: "lists/groceries", title: "Groceries", detail: "checklist", badge: "✓"),
            RecentDocument(path: "stories/tale", title: "The Lighthouse", detail: "story", badge: "↑2"),
            RecentDocument(path: "notes/plan", title: "Plan", detail: "text", badge: "offline ↑3"),
            RecentDocument(path: "lists/trip", title: "A trip with a very long title indeed", detail: "checklist", badge: "conflict"),
            RecentDocument(path: "notes/local", title: "Local", detail: "text"),
        ]
        for (width, height) in [(80, 24), (40, 16)] {
            let text = renderLaunchFrame(scene: .defaultScene, width: width, height: height, ansi: false, recent: recent)
            // Then each badge sits before the detail, and no line is wider than the terminal
            assertGolden(text, "sharing/launcher-badges-\(width)x\(height)")
            XCTAssertTrue(text.split(separator: "\n").allSatisfy { DisplayWidth.width(of: String($0)) <= width })
        }
        let wide = renderLaunchFrame(scene: .defaultScene, width: 80, height: 24, ansi: false, recent: recent)
        XCTAssertTrue(wide.contains("conflict  checklist"), wide)
        // And a hostile badge is shown as text
        let hostile = renderLaunchFrame(scene: .defaultScene, width: 80, height: 24, ansi: false,
                                        recent: [RecentDocument(path: "x", detail: "text", badge: "\u{1b}[2J")])
        XCTAssertFalse(hostile.contains("\u{1b}"))
    }

    func testTheRemoteSettingsScreen() {
        // Given two remotes, the interval and continuous sync on
        var state = RemoteSettingsState(interval: 30)
        state.remotes = [SharingRemote(name: "origin", url: "https://example.com/groceries.git"), SharingRemote(name: "backup", url: "/srv/backup/groceries.git")]
        state.continuous = true
        state.selection = 1
        assertGolden(Screens.remoteSettings(state, title: "Groceries", width: 80, height: 18).plainText(), "sharing/remotes")
        // And with the add form open on a bad name
        state.begin(.add)
        state.fields = [TextField("-x"), TextField("https://h/g.git")]
        state.problem = RemoteSettingsState.nameProblem("-x")
        assertGolden(Screens.remoteSettings(state, title: "Groceries", width: 80, height: 18).plainText(), "sharing/remotes-add-problem")
        // And asking before removing
        var removing = RemoteSettingsState(interval: 30)
        removing.remotes = state.remotes
        removing.removing = "origin"
        XCTAssertTrue(Screens.remoteSettings(removing, title: "Groceries", width: 100, height: 18).plainText()
            .contains("? Remove origin? y removes it"))
    }

    func testTheConflictScreenListsItemsChoicesAndThePreview() {
        // Given a loaded conflict with one choice made and its preview drawn
        var state = ConflictScreenState()
        state.loaded([SharingFixtures.checklistConflict, SharingFixtures.wholeFileConflict])
        state.choices = ["2": .theirs]
        state.selection = 1
        for (width, height) in [(120, 24), (80, 24)] {
            var shown = state
            if let effect = shown.followPreview(width: Screens.conflictLayout(width: width, height: height).previewWidth),
               case let .sharing(.preview(subject)) = effect {
                shown.receivePreview(["Groceries", "  1 [x] Bread", "  2 [x] Milk", "  3 [ ] Eggs"], for: subject)
            }
            assertGolden(Screens.conflicts(shown, title: "Groceries", width: width, height: height).plainText(), "sharing/conflicts-\(width)x\(height)")
        }
        // And while loading, and for a whole-file conflict
        assertGolden(Screens.conflicts(ConflictScreenState(), title: "Groceries", width: 80, height: 12).plainText(), "sharing/conflicts-loading")
        var whole = ConflictScreenState()
        whole.loaded([SharingFixtures.wholeFileConflict])
        whole.choices = [SharingConflict.wholeFile: .mine]
        assertGolden(Screens.conflicts(whole, title: "Notes", width: 80, height: 14).plainText(), "sharing/conflicts-whole-file")
    }

    func testConflictTextFromTheRemoteIsShownAsEscapes() {
        // Given a conflict whose summaries and wordings carry terminal controls
        let evil = "\u{1b}]0;pwned\u{07}\u{1b}[2J\u{9b}31m"
        var state = ConflictScreenState()
        state.loaded([SharingConflict(ref: "refs/folio/conflicts/9", summary: evil, items: [
            ItemConflict(key: "1", base: evil, mine: evil, theirs: evil, mineChange: evil, theirsChange: evil),
        ])])
        _ = state.followPreview(width: 40)
        if let subject = state.previewWanted { state.receivePreview([evil], for: subject) }
        // Then nothing of them reaches the terminal raw
        let grid = Screens.conflicts(state, title: evil, width: 120, height: 20)
        let ansi = grid.ansiText(capability: .ansi16)
        XCTAssertFalse(ansi.contains("\u{07}"))
        XCTAssertFalse(ansi.contains("\u{9b}"))
        XCTAssertFalse(ansi.contains("\u{1b}]0;"))
        XCTAssertFalse(ansi.contains("\u{1b}[2J"))
        XCTAssertTrue(grid.plainText().contains("\\e]0;pwned"), grid.plainText())
    }

    func testSettingsCallsTheFsyncSettingDurabilityAndSaysWhatItMeans() {
        // Given the settings screen being edited
        let text = Screens.settings(Settings(), path: "~/.config/folio/settings.json", width: 100, height: 24,
                                    editing: SettingsState(settings: Settings())).plainText()
        // Then the field is Durability with its help, and "Sync mode" is gone
        XCTAssertTrue(text.contains("Durability"), text)
        XCTAssertTrue(text.contains("full: every change is flushed to disk before it counts (safe on power loss)"))
        XCTAssertTrue(text.contains("none: faster, safe against crashes but not power loss"))
        XCTAssertFalse(text.contains("Sync mode"))
        // And the read-only view says the same
        let shown = Screens.settings(Settings(), path: "p", width: 100, height: 30).plainText()
        XCTAssertTrue(shown.contains("Durability") && shown.contains("safe on power loss"), shown)
    }
}

/// A document session for frames that draw the editor through the run loop's frame function.
struct GoldenSession: DocumentSession {
    var path = "lists/groceries", title = "Groceries", contentType: ContentType = "org.folio.checklist"
    func latestCommit() -> (id: String, message: String) { ("4f2a9c81d3e0b7aa", "checked 'Bread'") }
    var editor: any EditorViewProvider { FakeEditor() }
    var history: any HistoryPageProvider { GoldenHistory() }
    func perform(_ effect: AppEffect) async throws {}
}

struct GoldenHistory: HistoryPageProvider {
    func page(after cursor: String?, limit: Int) async throws -> HistoryPage { HistoryPage(entries: [], next: nil) }
    func diff(of commitID: String) async throws -> [String] { [] }
    func itemHistory(item: String, at: String?) async throws -> ItemHistoryPage { ItemHistoryPage(summary: "", entries: [], keys: [:]) }
}
