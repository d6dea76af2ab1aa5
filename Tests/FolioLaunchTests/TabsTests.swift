import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
import FolioTerminal

/// Several documents open in one `folio`: ^T lists them, ⏎ shows one, x or ^W closes one, n opens another from the
/// launcher; the window remembers each one's cursor.
final class TabsTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    /// An editor on Groceries, the first of two open documents.
    func twoTabs() -> AppState {
        var state = AppState()
        state.screen = .editor(EditorState(path: "/d/groceries", title: "Groceries", contentType: "org.folio.checklist", commitID: "c1"))
        state.tabs = TabBar(titles: ["Groceries", "Story"], current: 0)
        return state
    }

    func run(_ keys: [Key], from state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func testGivenTwoOpenDocumentsWhenTheTabListIsUsedThenItShowsClosesOrOpensAnother() {
        // ^T opens the list on the shown document
        let (listed, none) = run([.ctrl("t")], from: twoTabs())
        XCTAssertTrue(listed.tabs.listOpen)
        XCTAssertEqual(listed.tabs.selection, 0)
        XCTAssertEqual(none, [])
        // ↓ ⏎ shows the second; x closes the selected; n opens the launcher; esc only closes the list
        XCTAssertEqual(run([.down, .enter], from: listed).1, [.switchTab(1)])
        XCTAssertEqual(run([.down, .character("x")], from: listed).1, [.closeTab(1)])
        XCTAssertEqual(run([.character("n")], from: listed).1, [.newTab])
        let (closed, nothing) = run([.escape], from: listed)
        XCTAssertFalse(closed.tabs.listOpen)
        XCTAssertEqual(nothing, [])
        // ⏎ on the one shown just closes the list
        XCTAssertEqual(run([.enter], from: listed).1, [])
    }

    func testGivenADocumentInATabWhenCtrlWIsPressedThenItsTabIsClosedAndWithoutTabsTheLauncherShows() {
        XCTAssertEqual(run([.ctrl("w")], from: twoTabs()).1, [.closeTab(0)])
        var single = twoTabs()
        single.tabs = TabBar()
        let (after, effects) = run([.ctrl("w")], from: single)
        XCTAssertEqual(effects, [])
        guard case .launch = after.screen else { return XCTFail("the launcher shows: \(after.screen)") }
    }

    func testGivenTwoOpenDocumentsThenTheTitleRowNamesBothAndTheListShowsThem() {
        let (listed, _) = run([.ctrl("t")], from: twoTabs())
        let text = LaunchApp.frame(listed, scene: scene, services: LaunchServices(recent: TabsNoRecent(), templates: TabsNoTemplates()),
                                   view: NumberedEditor(), width: 80, height: 12).plainText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.first?.contains("1 Groceries") == true && lines.first?.contains("2 Story") == true, text)
        XCTAssertTrue(text.contains("▸ • 1  Groceries") && text.contains("2  Story"), text)
    }

    func testTabRowAndTabListAt60x16And160x45() {
        for (w, h) in [(60, 16), (160, 45)] {
            var state = twoTabs()
            state.tabs.titles.append("A rather long title for a third document that does not fit")
            state.columns = w; state.rows = h
            let services = LaunchServices(recent: TabsNoRecent(), templates: TabsNoTemplates(), document: TabsFakeSession(path: "/d/groceries"))
            assertGolden(LaunchApp.frame(state, scene: scene, services: services, view: NumberedEditor(), width: w, height: h).plainText(), "sizes/tabs-\(w)x\(h)")
            let (listed, _) = run([.ctrl("t"), .down], from: state)
            assertGolden(LaunchApp.frame(listed, scene: scene, services: services, view: NumberedEditor(), width: w, height: h).plainText(), "sizes/tabs-list-\(w)x\(h)")
        }
    }

    func testGivenTheTabListWhenADigitIsTypedThenThatDocumentShowsAtOnceAndANumberWithoutADocumentDoesNothing() {
        let (listed, _) = run([.ctrl("t")], from: twoTabs())
        // ^T 2 shows the second document
        XCTAssertEqual(run([.character("2")], from: listed).1, [.switchTab(1)])
        // ^T 1 on the one shown closes the list; ^T 7 with two documents does nothing
        let (same, none) = run([.character("1")], from: listed)
        XCTAssertEqual(none, [])
        XCTAssertFalse(same.tabs.listOpen)
        let (stays, nothing) = run([.character("7")], from: listed)
        XCTAssertEqual(nothing, [])
        XCTAssertTrue(stays.tabs.listOpen)
        // And help lists the key
        let help = listed.helpLines(scene: scene).map { "\($0.keys) \($0.text)" }
        XCTAssertTrue(help.contains { $0.hasPrefix("1…9 show that document at once") }, help.joined(separator: "\n"))
    }

    func testGivenTheLauncherOpenedWithCtrlTNWhenEscIsPressedThenTheDocumentShownBeforeShowsAgain() {
        // Given the launcher over two open documents, opened from the second (^T n)
        var state = AppState()
        state.screen = .launch
        state.tabs = TabBar(titles: ["Groceries", "Story"], current: nil, returnTo: 1)
        // When Esc is pressed, then the second document shows again
        XCTAssertEqual(run([.escape], from: state).1, [.switchTab(1)])
        // And a launcher not opened from a document keeps its Esc (a hint, nothing leaves)
        var plain = AppState()
        plain.screen = .launch
        plain.tabs = TabBar(titles: ["Groceries"], current: nil)
        XCTAssertEqual(run([.escape], from: plain).1, [])
        // And with the filter open, Esc ends the filter first
        let (filtering, _) = run([.character("/")], from: state)
        XCTAssertEqual(run([.escape], from: filtering).1, [])
    }

    /// The screens a window with two documents shows: the editor, its history, its settings, the file view, the
    /// launcher over them.
    func screensWithTabs() -> [(String, AppState)] {
        let editor = twoTabs()
        guard case let .editor(groceries) = editor.screen else { return [] }
        var history = editor
        history.screen = .history(HistoryState(), groceries)
        var settings = editor
        var screen = SettingsState(settings: Settings())
        screen.returnTo = groceries
        settings.screen = .settings(screen)
        var files = editor
        files.screen = .generic(GenericViewStateTests.view())
        var launcher = editor
        launcher.screen = .launch
        launcher.tabs.current = nil
        return [("editor", editor), ("history", history), ("settings", settings), ("file view", files), ("launcher", launcher)]
    }

    func testGivenTwoOpenDocumentsThenEveryScreenAtEverySizeNamesBothOnItsTopRow() {
        let services = LaunchServices(recent: TabsNoRecent(), templates: TabsNoTemplates(), document: TabsFakeSession(path: "/d/groceries"))
        for (name, state) in screensWithTabs() {
            for (w, h) in [(40, 12), (60, 16), (80, 24), (200, 50)] {
                let top = LaunchApp.frame(state, scene: scene, services: services, view: NumberedEditor(), width: w, height: h).plainText()
                    .split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
                XCTAssertTrue(top.contains(" 1 Gro") && top.contains(" 2 Story") && top.contains("^T"), "\(name) at \(w)×\(h): \(top)")
            }
        }
    }

    func testGivenManyTabsAt60ColumnsThenTheShownOneIsAlwaysOnTheTopRow() {
        var state = twoTabs()
        state.tabs = TabBar(titles: (1...12).map { "Document number \($0)" }, current: 10)
        let services = LaunchServices(recent: TabsNoRecent(), templates: TabsNoTemplates(), document: TabsFakeSession(path: "/d/groceries"))
        let top = LaunchApp.frame(state, scene: scene, services: services, view: NumberedEditor(), width: 60, height: 16).plainText()
            .split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(top.contains(" 11 "), top)
        XCTAssertTrue(top.hasPrefix("‹"), top)
    }

    func testGivenTheTabListOpenThenItIsABorderedBoxTheScreenDoesNotShowThrough() {
        let (listed, _) = run([.ctrl("t")], from: twoTabs())
        let services = LaunchServices(recent: TabsNoRecent(), templates: TabsNoTemplates(), document: TabsFakeSession(path: "/d/groceries"))
        for (w, h) in [(60, 16), (80, 24)] {
            let lines = LaunchApp.frame(listed, scene: scene, services: services, view: NumberedEditor(), width: w, height: h).plainText()
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // The box's own cells, from its left border (the screen beside it stays as it was)
            let box = lines[1...4].map { String($0.drop { !"╭│╰".contains($0) }).trimmingCharacters(in: .whitespaces) }
            XCTAssertTrue(box[0].hasPrefix("╭─ Open documents") && box[0].hasSuffix("╮"), box.joined(separator: "\n"))
            XCTAssertTrue(box[1].hasPrefix("│") && box[1].hasSuffix("│") && box[1].contains("1  Groceries"), box.joined(separator: "\n"))
            XCTAssertTrue(box[2].hasPrefix("│") && box[2].hasSuffix("│") && box[2].contains("2  Story"), box.joined(separator: "\n"))
            XCTAssertTrue(box[3].hasPrefix("╰") && box[3].hasSuffix("╯"), box.joined(separator: "\n"))
            // The editor's rows under the box do not show through it
            XCTAssertFalse(box.joined().contains("Milk") || box.joined().contains("(0/3 done)"), box.joined(separator: "\n"))
        }
    }

    func testGivenASavedWindowWithTwoTabsWhenTheOtherDocumentIsShownThenItsCursorIsWhereItWas() {
        let saved = SceneState(documentPath: "/d/groceries", selection: EditorSelection(start: 1, end: 1), panel: .editor,
                               tabs: [SceneState.Tab(path: "/d/groceries", selection: EditorSelection(start: 1, end: 1)),
                                      SceneState.Tab(path: "/d/story", selection: EditorSelection(start: 2, end: 2), scroll: 1)])
        let screen = LaunchApp.initialScreen(document: TabsFakeSession(path: "/d/story"), saved: saved)
        guard case let .editor(editor) = screen else { return XCTFail("editor") }
        XCTAssertEqual(editor.cursor, 2)
        XCTAssertEqual(editor.scroll, 1)
        // And the scene saved from it keeps both tabs, the shown one's cursor updated
        var windows = Dictionary(uniqueKeysWithValues: (saved.tabs ?? []).map { ($0.path, $0) })
        var state = AppState()
        var moved = editor
        moved.cursor = 0
        state.screen = .editor(moved)
        let scene = LaunchApp.sceneState(state, tabs: ["/d/groceries", "/d/story"], windows: &windows)
        XCTAssertEqual(scene.tabs?.map(\.path), ["/d/groceries", "/d/story"])
        XCTAssertEqual(scene.tabs?.last?.selection, EditorSelection(start: 0, end: 0))
        XCTAssertEqual(scene.tabs?.first?.selection, EditorSelection(start: 1, end: 1))
    }
}

private struct TabsNoRecent: RecentDocumentsProvider {
    func recentDocuments(limit: Int) -> [RecentDocument] { [] }
}

private struct TabsNoTemplates: TemplateCatalog {
    func sourceNames() -> [String] { [] }
    func templates(in source: String) async throws -> [TemplateSummary] { [] }
}

private struct TabsFakeSession: DocumentSession {
    let path: String
    var title: String { "Story" }
    var contentType: ContentType { "org.folio.story" }
    func latestCommit() -> (id: String, message: String) { ("c1", "x") }
    var editor: any EditorViewProvider { NumberedEditor() }
    var history: any HistoryPageProvider { TabsNoHistory() }
    func perform(_ effect: AppEffect) async throws {}
}

private struct TabsNoHistory: HistoryPageProvider {
    func page(after cursor: String?, limit: Int) async throws -> HistoryPage { HistoryPage(entries: [], next: nil) }
    func diff(of commitID: String) async throws -> [String] { [] }
    func itemHistory(item: String, at: String?) async throws -> ItemHistoryPage { throw CancellationError() }
}
