import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

final class AppStateTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func run(_ keys: [Key], from start: AppState? = nil) -> (AppState, [AppEffect]) {
        (start ?? AppState(recent: Fixtures.recent, templates: Fixtures.loaded)).pressing(keys, scene: scene)
    }

    func testArrowsAndJKMoveAcrossActionsAndRecent() {
        XCTAssertEqual(run([.down, .down]).0.selection, 2)
        XCTAssertEqual(run([.character("j"), .character("j"), .character("k")]).0.selection, 1)
        XCTAssertEqual(run([.up]).0.selection, 0)
        XCTAssertEqual(run(Array(repeating: .down, count: 20)).0.selection, scene.actions.count + Fixtures.recent.count - 1)
    }

    func testEnterOnRecentOpensIt() {
        let (_, effects) = run(Array(repeating: .down, count: scene.actions.count) + [.enter])
        XCTAssertEqual(effects, [.open(path: "notes/groceries.checklist")])
    }

    func testGivenTheLauncherWhenEscIsPressedThenNothingQuitsAndQOrCtrlQQuits() {
        let (state, effects) = run([.escape])
        XCTAssertEqual(effects, [], "Esc never quits")
        XCTAssertEqual(state.message, .note(AppState.escapeHint(editor: false)))
        XCTAssertEqual(run([.character("q")]).1, [.quit])
        XCTAssertEqual(run([.ctrl("q")]).1, [.quit])
    }

    func testGivenAnyScreenWhenCtrlQThenItQuitsAskingOnceWhenTypedTextWouldBeLost() {
        XCTAssertEqual(run([.character("t"), .ctrl("q")]).1, [.quit], "a picker has nothing to lose")
        XCTAssertEqual(run([.character("n"), .character("x"), .ctrl("q")]).1, [], "the form's typed text asks first")
        XCTAssertEqual(run([.character("n"), .character("x"), .ctrl("q")]).0.confirming, .quit)
        XCTAssertEqual(run([.character("n"), .character("x"), .ctrl("q"), .ctrl("q")]).1, [.quit])
        let (kept, none) = run([.character("n"), .character("x"), .ctrl("q"), .escape])
        XCTAssertEqual(none, [])
        guard case let .form(form) = kept.screen else { return XCTFail("the form stays") }
        XCTAssertEqual(form.fields[0].value, "x", "nothing typed is lost (typing replaced the default)")
    }

    func testNewDocumentFormCreatesBlankOnEnter() {
        let (state, effects) = run([.character("n"), .enter])
        XCTAssertEqual(effects, [.createBlank("public.plain-text", destination: "untitled")])
        XCTAssertEqual(state.screen, .launch)
    }

    func testDestinationCanBeChanged() {
        let keys: [Key] = [.character("n")] + Array(repeating: .backspace, count: 8) + "story-1".map(Key.character) + [.enter]
        XCTAssertEqual(run(keys).1, [.createBlank("public.plain-text", destination: "story-1")])
    }

    func testTemplateFlowInstantiatesWithAnswers() {
        // Picker sorted: Groceries (checklists), Novel, Short Story (stories).
        var keys: [Key] = [.character("t"), .down, .down, .enter]
        keys += [.enter]                         // Title: keep "Untitled"
        keys += [.right, .enter]                  // Tone: dark
        keys += "2025".map(Key.character) + [.enter] // Year
        keys += [.enter]                          // Destination: default, creates
        let (state, effects) = run(keys)
        XCTAssertEqual(effects, [.instantiate(templateID: "stories/short-story", answers: ["title": "Untitled", "tone": "dark", "year": "2025"], destination: "short-story")])
        XCTAssertEqual(state.screen, .launch)
    }

    func testValidationKeepsTheFormOpen() {
        let keys: [Key] = [.character("t"), .down, .down, .enter, .enter, .enter] + "19x4".map(Key.character) + [.enter]
        let (state, effects) = run(keys)
        XCTAssertEqual(effects, [])
        guard case let .form(form) = state.screen else { return XCTFail("expected the form") }
        XCTAssertEqual(form.focus, 2)
        XCTAssertEqual(form.fields[2].message, "'19x4' is not accepted: Year is not in the form this template asks for", "in words, no pattern")
    }

    func testFormWithNoFieldsCreatesOnEnter() {
        let template = TemplateSummary(id: "x", name: "X", contentType: "public.plain-text")
        var state = AppState()
        state.screen = .form(FormState(title: "X", purpose: .template(template), fields: [], focus: 0))
        XCTAssertEqual(run([.enter], from: state).1, [.instantiate(templateID: "x", answers: [:], destination: "x")])
    }

    func testEscapeAtAnyStepReturnsToLaunchWithNothingCreated() {
        // Esc on a template's form goes back to the picker (issue 23), a second Esc to the launcher.
        for keys: [Key] in [[.character("t"), .escape], [.character("t"), .enter, .escape, .escape], [.character("t"), .down, .down, .enter, .enter, .escape, .escape],
                            [.character("n"), .escape], [.character("o"), .escape]] {
            let (state, effects) = run(keys)
            XCTAssertEqual(state.screen, .launch, "\(keys)")
            XCTAssertEqual(effects, [], "\(keys)")
        }
    }

    func testPickerFiltersByTypedText() {
        let (state, _) = run([.character("t")] + "nov".map(Key.character))
        guard case let .picker(picker) = state.screen else { return XCTFail("expected the picker") }
        XCTAssertEqual(picker.visible(Fixtures.loaded).map(\.name), ["Novel"])
        let (after, effects) = run([.enter], from: state)
        guard case let .form(form) = after.screen else { return XCTFail("expected the form") }
        XCTAssertEqual(form.fields.map(\.name), ["destination"])
        XCTAssertEqual(run([.enter], from: after).1, [.instantiate(templateID: "stories/novel", answers: [:], destination: "novel")])
        XCTAssertEqual(effects, [])
    }

    func testSlashFiltersTheRecentList() {
        let (state, _) = run([.character("/")] + "light".map(Key.character))
        XCTAssertEqual(state.filter, "light")
        XCTAssertEqual(state.launchContext.filteredRecent.map(\.title), ["The Lighthouse"])
        XCTAssertEqual(run([.enter], from: state).1, [.open(path: "stories/the-lighthouse")])
        XCTAssertNil(run([.escape], from: state).0.filter, "Esc leaves the filter before quitting")
        XCTAssertEqual(run([.escape], from: state).1, [])
    }

    func testCommandAndOpenActions() {
        XCTAssertEqual(run([.character("u")]).1, [.runCommand(["templates", "update"])])
        XCTAssertEqual(run([.character("o")] + "a/b".map(Key.character) + [.enter]).1, [.open(path: "a/b")])
        XCTAssertEqual(run([.character("r")]).0.selection, scene.actions.count)
    }

    func editorState() -> AppState {
        var state = AppState()
        state.screen = .editor(EditorState(path: "s", title: "S", contentType: "org.folio.story", commands: FakeEditor().commands()))
        return state
    }

    func testEditorCommandsNeedingASelection() {
        XCTAssertEqual(run([.ctrl("b")], from: editorState()).1, [], "Bold needs a selection")
        XCTAssertEqual(run([.character("a")], from: editorState()).1, [.runEditorCommand("story.act", selection: ViewSelection.items(cursor: 0))])
        XCTAssertEqual(run([.character("v"), .down, .ctrl("b")], from: editorState()).1, [.runEditorCommand("story.bold", selection: ViewSelection.items(cursor: 1, anchor: 0))])
        XCTAssertEqual(run([.ctrl("p"), .enter], from: editorState()).1, [], "disabled in the palette too")
        XCTAssertEqual(run([.ctrl("p"), .down, .enter], from: editorState()).1, [.runEditorCommand("story.act", selection: ViewSelection.items(cursor: 0))])
        XCTAssertNotEqual(run([.escape], from: editorState()).0.screen, .launch, "Esc never closes the document")
        XCTAssertEqual(run([.ctrl("w")], from: editorState()).0.screen, .launch, "^W closes it")
    }

    func testHistoryLoadsLazilyAndOffersRestoreTagCompare() {
        var (state, effects) = run([.ctrl("g")], from: editorState())
        XCTAssertEqual(effects, [.openHistory, .loadHistoryPage(after: nil)])
        guard case .history(var history, let editor) = state.screen else { return XCTFail("expected history") }
        history.entries = (0..<5).map { HistoryEntry(id: "c\($0)", message: "m\($0)") }
        history.next = "c4"
        history.loading = false
        state.screen = .history(history, editor)
        XCTAssertEqual(run([.down], from: state).1, [.loadDiff(commitID: "c1")])
        XCTAssertEqual(run([.down, .down], from: state).1, [.loadDiff(commitID: "c1"), .loadDiff(commitID: "c2"), .loadHistoryPage(after: "c4")])
        XCTAssertEqual(run([.down, .down, .down], from: state).1.filter { if case .loadHistoryPage = $0 { true } else { false } },
                       [.loadHistoryPage(after: "c4")], "one request at a time")
        XCTAssertEqual(run([.character("r")], from: state).1, [], "r asks first")
        XCTAssertEqual(run([.down, .character("r"), .character("r")], from: state).1, [.loadDiff(commitID: "c1"), .restore(commitID: "c1")])
        XCTAssertEqual(run([.character("c"), .down, .character("c")], from: state).1, [.loadDiff(commitID: "c1"), .compare("c0", "c1")])
        XCTAssertEqual(run([.character("t")] + "v1".map(Key.character) + [.enter], from: state).1, [.tag(commitID: "c0", name: "v1")])
        XCTAssertEqual(run([.escape], from: state).0.screen, .editor(editor))
    }
}

final class SceneStoreTests: XCTestCase {
    func testSaveAndRestore() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-scenes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = SceneStore(environment: ["XDG_STATE_HOME": root.path, "HOME": "/nonexistent"])
        XCTAssertEqual(store.directory.path, root.appendingPathComponent("folio/scenes").path)
        XCTAssertNil(try store.load("left"))
        let state = SceneState(documentPath: "stories/the-lighthouse", selection: EditorSelection(start: 2, end: 4), scroll: 10, panel: .history)
        try store.save(state, id: "left")
        XCTAssertEqual(try store.load("left"), state)
        XCTAssertNil(try store.load("right"), "each window has its own state")
        try store.remove("left")
        XCTAssertNil(try store.load("left"))
    }

    func testDamagedFileIsAnErrorNamingIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-scenes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = SceneStore(directory: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(#"{"panel": "launch", "scroll": 0, "bogus": 1}"#.utf8).write(to: root.appendingPathComponent("x.json"))
        XCTAssertThrowsError(try store.load("x")) { error in
            XCTAssertTrue("\(error)".contains("x.json"))
            XCTAssertTrue("\(error)".contains("bogus"))
        }
    }

    func testGivenASceneStateOrLaunchFileThatIsAFIFOWhenLoadedThenTheErrorNamesItAsAFIFO() throws {
        // Given a scene's state file and a launch.json that are FIFOs
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-scene-fifo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let scene = root.appendingPathComponent("x.json"), launch = root.appendingPathComponent("launch.json")
        XCTAssertEqual(mkfifo(scene.path, 0o644), 0)
        XCTAssertEqual(mkfifo(launch.path, 0o644), 0)
        // When they are loaded, Then each error names the file and says it is a FIFO (nothing waits for a writer)
        XCTAssertThrowsError(try SceneStore(directory: root).load("x")) { error in
            XCTAssertEqual("\(error)", "\(scene.path): cannot read the file (it is a FIFO (named pipe), not a regular file)")
        }
        XCTAssertThrowsError(try LaunchScene.load(from: launch)) { error in
            XCTAssertEqual("\(error)", "\(launch.path): cannot read the file (it is a FIFO (named pipe), not a regular file)")
        }
    }

    func testSceneIDs() throws {
        XCTAssertEqual(try SceneStore.sceneID(requested: "left-pane"), "left-pane")
        XCTAssertTrue(try SceneStore.sceneID(requested: nil).hasPrefix("scene-"))
        XCTAssertThrowsError(try SceneStore.sceneID(requested: "../etc/passwd"))
        XCTAssertThrowsError(try SceneStore.sceneID(requested: ""))
    }
}
