import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// The launcher's recent list (issue 23): as many rows as fit, scrolled to the selection; the filter searches every
/// recent document; documents sharing a name show where they are; a long title does not widen the box over the banners.
final class LauncherRecentTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    static let home = "/home/ada"
    /// Eight documents, two called "Notes" (in different folders), three gone.
    static let eight: [RecentDocument] = [
        RecentDocument(path: "/home/ada/work/notes", title: "Notes", detail: "checklist"),
        RecentDocument(path: "/home/ada/stories/the-lighthouse", title: "The Lighthouse", detail: "story"),
        RecentDocument(path: "/home/ada/private/notes", title: "Notes", detail: "checklist"),
        RecentDocument(path: "/home/ada/drawings/garden", title: "Garden plan", detail: "shapes"),
        RecentDocument(path: "/home/ada/lists/groceries", title: "Groceries", detail: "checklist"),
        RecentDocument(path: "/mnt/usb/old-draft", title: "Old draft", detail: "missing", missing: true),
        RecentDocument(path: "/home/ada/gone/recipes", title: "Recipes", detail: "missing", missing: true),
        RecentDocument(path: "/home/ada/gone/zebra-crossing", title: "Zebra crossing survey", detail: "missing", missing: true),
    ]

    func launcher(_ width: Int, _ height: Int, recent: [RecentDocument] = eight) -> AppState {
        var state = AppState(recent: recent, templates: Fixtures.loaded.filter { $0.name != "team" })
        state.home = Self.home
        state.columns = width; state.rows = height
        return state
    }

    func press(_ keys: [Key], _ state: AppState) -> AppState { keys.reduce(state) { $0.handling($1, scene: scene).0 } }

    func text(_ state: AppState) -> String {
        LaunchLayout(scene: scene, width: state.columns, height: state.rows, context: state.launchContext).grid.plainText()
    }

    func testWideScreenShowsAllEightRecentDocuments() {
        // Given eight recent documents at 160×45
        let state = launcher(160, 45)
        // When the launcher is drawn
        let layout = LaunchLayout(scene: scene, width: 160, height: 45, context: state.launchContext)
        // Then all eight rows are shown, the last one too
        XCTAssertEqual(layout.visibleRecent, 8)
        XCTAssertTrue(layout.grid.plainText().contains("Zebra crossing survey"))
    }

    func testFilterFindsADocumentBeyondTheRowsShown() {
        // Given the launcher at 60×16, where not all eight fit
        let state = launcher(60, 16)
        XCTAssertLessThan(LaunchLayout(scene: scene, width: 60, height: 16, context: state.launchContext).visibleRecent, 8)
        // When "/zebra" is typed and ⏎ pressed on the match
        let filtered = press([.character("/")] + "zebra".map(Key.character), state)
        // Then the eighth document is the one match, and it is selectable
        XCTAssertEqual(LaunchLayout.visibleRows(scene: scene, context: filtered.launchContext).map(\.title), ["Zebra crossing survey"])
        XCTAssertTrue(text(filtered).contains("Zebra crossing survey"))
    }

    func testMovingDownPastTheLastRowShownScrollsTheList() {
        // Given the launcher at 60×16
        let state = launcher(60, 16)
        // When ↓ goes to the last recent document
        let bottom = press([.end], state)
        // Then it is selected and shown, with the list's position in its heading
        XCTAssertEqual(bottom.selection, scene.actions.count + 7)
        let shown = text(bottom)
        XCTAssertTrue(shown.contains("▸ Zebra crossing survey"), shown)
        XCTAssertTrue(shown.contains(" of 8"), shown)
        // And going back up to the first scrolls back
        let top = press(Array(repeating: .up, count: 7), bottom)
        XCTAssertTrue(text(top).contains("▸ Notes"), text(top))
    }

    func testDocumentsSharingANameShowTheirFolders() {
        // Given two recent documents called "Notes"
        let shown = text(launcher(100, 30))
        // Then each row says where it is, home as ~, and a name no other document has shows no path
        XCTAssertTrue(shown.contains("~/work"), shown)
        XCTAssertTrue(shown.contains("~/private"), shown)
        XCTAssertFalse(shown.contains("~/stories"), shown)
    }

    func testLongRecentTitleKeepsTheBoxWidthAndTheBanners() {
        // Given the same launcher with and without a very long recent title
        var long = Self.eight
        long[1].title = "The Lighthouse, the Keeper, the Storm and Everything That Came After It in the Long Winter"
        let plain = LaunchLayout(scene: scene, width: 160, height: 45, context: launcher(160, 45).launchContext)
        let wide = LaunchLayout(scene: scene, width: 160, height: 45, context: launcher(160, 45, recent: long).launchContext)
        // Then the box is as wide and the banners are all drawn; the title is cut with "…"
        XCTAssertEqual(wide.contentFrames.filter { $0.height > 1 }, plain.contentFrames.filter { $0.height > 1 }, "the box")
        XCTAssertEqual(wide.contentFrames.map(\.width).max(), plain.contentFrames.map(\.width).max(), "the recent rows")
        XCTAssertEqual(wide.bannerFrames.count, scene.banners.count)
        XCTAssertTrue(wide.grid.plainText().contains("…"))
    }

    func testGoldenLauncherWithEightRecentDocuments() {
        for (w, h) in [(60, 16), (100, 30), (160, 45)] {
            assertGolden(text(launcher(w, h)), "launcher23/recent-\(w)x\(h)")
        }
        assertGolden(text(press([.end], launcher(60, 16))), "launcher23/recent-60x16-end")
    }
}

/// A recent list that hands out at most `limit` documents, as the real one does.
struct EightRecent: RecentDocumentsProvider {
    func recentDocuments(limit: Int) -> [RecentDocument] { Array(LauncherRecentTests.eight.prefix(limit)) }
}

extension LauncherRecentTests {
    func testLauncherLoadsEveryRecentDocumentNotOnlyTheRowsOfTheScene() {
        // Given a provider keeping eight recent documents and the bundled scene
        // When the launcher loads its recent list
        let loaded = RecentList.loaded(scene: .bundled, from: EightRecent())
        // Then all eight are there for the list and its filter
        XCTAssertEqual(loaded.map(\.title), Self.eight.map(\.title))
    }
}

extension LauncherRecentTests {
    func testFilterMatchesThePathAsShownWithTilde() {
        // Given the eight documents under /home/ada
        // When "/~/private" is typed
        let filtered = press([.character("/")] + "~/private".map(Key.character), launcher(100, 30))
        // Then the document in ~/private is the one match
        XCTAssertEqual(LaunchLayout.visibleRows(scene: scene, context: filtered.launchContext).map(\.path), ["/home/ada/private/notes"])
    }
}
