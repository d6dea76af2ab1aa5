import Foundation
import Synchronization
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// The editor host's state while a call into the plugin runs off the UI thread: pure transitions on `AppState`
/// (keys, elapsed time, the result), and the view cache that keeps frames from ever waiting for a plugin.
final class PluginCallStateTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    func editorApp() -> AppState {
        var state = AppState()
        var editor = EditorState(path: "count", title: "Count", contentType: "org.test.tally", commitID: "aaaaaaa1", commitMessage: "Create",
                                 commands: [EditorCommand(id: "spin", title: "Spin", shortcut: "s", usage: "spin"),
                                            EditorCommand(id: "inc", title: "Count", shortcut: "i", usage: "inc")])
        editor.editorName = "tally"
        editor.items = ItemLayout(count: 3, headerLines: 1)
        state.screen = .editor(editor)
        return state
    }

    /// The app after `s`: the spin command asked for and marked running.
    func spinning(elapsed: TimeInterval = 0) -> AppState {
        var (state, effects) = editorApp().handling(.character("s"), scene: scene)
        XCTAssertEqual(effects, [.runEditorCommand("spin", arguments: [], base: "aaaaaaa1", selection: ViewSelection.items(cursor: 0))], "made on the version shown")
        state.observeCall(PluginCall(label: "tally: spin", isCommand: true, elapsed: elapsed, job: 1))
        return state
    }

    func editor(_ state: AppState) -> EditorState? {
        if case let .editor(editor) = state.screen { return editor }
        return nil
    }

    func testGivenACommandKeyWhenHandledThenTheCallIsMarkedRunningWithTheEditorAndCommandName() {
        let (state, _) = editorApp().handling(.character("s"), scene: scene)
        XCTAssertEqual(state.call, PluginCall(label: "tally: spin", isCommand: true))
        XCTAssertEqual(editorApp().handling(.ctrl("z"), scene: scene).0.call?.label, "undo")
    }

    func testGivenARunningCallWhenLessThan200msHavePassedThenNoSpinnerAndAfterThemTheStatusLineShowsIt() {
        let early = spinning(elapsed: 0.15)
        XCTAssertNil(early.call?.spinnerText(tick: 0))
        var grid = Screens.editor(editor(early)!, view: NumberedEditor(), width: 60, height: 10)
        LaunchApp.drawSpinner(early, into: &grid)
        XCTAssertFalse(grid.plainText().contains("tally: spin"), grid.plainText())

        let late = spinning(elapsed: 0.25)
        XCTAssertEqual(late.call?.spinnerText(tick: 0), "⠋ tally: spin… (esc cancels)")
        grid = Screens.editor(editor(late)!, view: NumberedEditor(), width: 60, height: 10)
        LaunchApp.drawSpinner(late, into: &grid)
        let statusLine = grid.plainText().split(separator: "\n", omittingEmptySubsequences: false)[8]
        XCTAssertTrue(statusLine.contains("⠋ tally: spin… (esc cancels)"), grid.plainText())
        XCTAssertNotEqual(late.call?.spinnerText(tick: 1), late.call?.spinnerText(tick: 0), "the spinner turns with the tick")
    }

    func testGivenARunningCommandWhenEscIsPressedThenACancelEffectAndTheEditorStaysOpen() {
        let (state, effects) = spinning(elapsed: 0.05).handling(.escape, scene: scene)
        XCTAssertEqual(effects, [.cancelPluginCall])
        XCTAssertEqual(state.call?.cancelling, true)
        XCTAssertNotNil(editor(state), "Esc stops the call; it does not close the editor")
        XCTAssertEqual(state.call?.spinnerText(tick: 0), nil)
        var shown = state
        shown.observeCall(PluginCall(label: "tally: spin", isCommand: true, elapsed: 0.4, job: 1))
        XCTAssertEqual(shown.call?.spinnerText(tick: 0), "⠋ tally: spin… (stopping)", "the cancel is kept while the call ends")
        var next = shown
        next.observeCall(PluginCall(label: "tally: render", isCommand: false, elapsed: 0.3, job: 2))
        XCTAssertEqual(next.call?.cancelling, false, "the render queued behind the cancelled call is not cancelled")
    }

    func testGivenEscBeforeTheCallsNumberIsKnownWhenTheWorkerReportsItThenTheCancelHolds() {
        var (state, _) = editorApp().handling(.character("s"), scene: scene)
        (state, _) = state.handling(.escape, scene: scene)
        state.observeCall(PluginCall(label: "tally: spin", isCommand: true, elapsed: 0.01, job: 7))
        XCTAssertEqual(state.call?.cancelling, true)
        XCTAssertEqual(state.call?.job, 7)
    }

    func testGivenARunningCommandWhenCtrlQIsPressedThenTheCallIsCancelledAndTheAppQuits() {
        XCTAssertEqual(spinning(elapsed: 3).handling(.ctrl("q"), scene: scene).1, [.cancelPluginCall, .quit])
    }

    /// Types `keys` into `state`; returns the state and every effect.
    func type(_ keys: [Key], into state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    func testGivenARunningCommandWhenOtherKeysArePressedThenNothingRunsUntilItSucceedsAndThenTheyRunInOrder() {
        let before = spinning(elapsed: 0.5)
        let (typed, effects) = type([.character("i"), .down, .character("i")], into: before)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(editor(typed)?.cursor, editor(before)?.cursor)
        var finished = typed
        let replay = finished.finishingCall(.succeeded(DocumentSnapshot(commitID: "b2", commitMessage: "counted 1", items: ItemLayout(count: 3, headerLines: 1))))
        XCTAssertEqual(replay, [.character("i"), .down, .character("i")])
        let (after, replayed) = type(replay, into: finished)
        XCTAssertEqual(replayed, [.runEditorCommand("inc", arguments: [], base: "b2", selection: ViewSelection.items(cursor: 0))], "the first replayed command starts a call; the rest wait for it")
        XCTAssertEqual(after.typeAhead, [.down, .character("i")])
    }

    func testGivenKeysTypedDuringACommandWhenItFailsOrIsCancelledThenTheyAreDropped() {
        var failed = type([.character("i"), .character("i")], into: spinning(elapsed: 0.5)).0
        XCTAssertEqual(failed.finishingCall(.failed("editor 'tally' crashed (SIGSEGV) in 'spin'; nothing was changed")), [])
        let cancelled = type([.character("i"), .escape], into: spinning(elapsed: 0.5)).0
        XCTAssertEqual(cancelled.typeAhead, [])
        let many = type(Array(repeating: Key.character("i"), count: 500), into: spinning(elapsed: 0.5)).0
        XCTAssertEqual(many.typeAhead.count, AppState.typeAheadLimit)
    }

    func testGivenARenderRunningWhenKeysArePressedThenTheyMoveAsUsualAndEscCancelsOnlyOnceTheSpinnerShows() {
        var state = editorApp()
        state.observeCall(PluginCall(label: "tally: render", isCommand: false, elapsed: 0.05))
        let (moved, none) = state.handling(.down, scene: scene)
        XCTAssertEqual(none, [])
        XCTAssertEqual(editor(moved)?.cursor, 1)
        XCTAssertEqual(state.handling(.escape, scene: scene).1, [], "a quick render does not take Esc (and Esc never closes the document)")
        state.observeCall(PluginCall(label: "tally: render", isCommand: false, elapsed: 0.3))
        XCTAssertEqual(state.handling(.escape, scene: scene).1, [.cancelPluginCall])
    }

    func testGivenARunningCommandWhenItSucceedsThenTheNewHeadAndItemsAreShownAndTheCursorKeptInRange() {
        var state = spinning(elapsed: 0.3)
        if case var .editor(e) = state.screen { e.cursor = 2; state.screen = .editor(e) }
        _ = state.finishingCall(.succeeded(DocumentSnapshot(commitID: "bbbbbbb2", commitMessage: "counted 1", items: ItemLayout(count: 2, headerLines: 1))))
        XCTAssertNil(state.call)
        XCTAssertEqual(editor(state)?.commitID, "bbbbbbb2")
        XCTAssertEqual(editor(state)?.commitMessage, "counted 1")
        XCTAssertEqual(editor(state)?.items?.count, 2)
        XCTAssertEqual(editor(state)?.cursor, 1)
        XCTAssertEqual(state.handling(.character("i"), scene: scene).1, [.runEditorCommand("inc", arguments: [], base: "bbbbbbb2", selection: ViewSelection.items(cursor: 1))], "keys work again")
    }

    func testGivenARunningCommandWhenItFailsThenTheOneLineIsShownAndTheHeadIsUnchanged() {
        var state = spinning(elapsed: 1.2)
        _ = state.finishingCall(.failed("editor 'tally' did not answer 'spin' within 1 s; nothing was changed"))
        XCTAssertNil(state.call)
        XCTAssertEqual(editor(state)?.message, .failure("editor 'tally' did not answer 'spin' within 1 s; nothing was changed"))
        XCTAssertEqual(editor(state)?.commitID, "aaaaaaa1")
    }

    func testGivenTheWorkerIdleWhenObservedThenTheCallEnds() {
        var state = spinning(elapsed: 0.3)
        state.observeCall(nil)
        XCTAssertNil(state.call)
        XCTAssertEqual(state.handling(.character("i"), scene: scene).1, [.runEditorCommand("inc", arguments: [], base: "aaaaaaa1", selection: ViewSelection.items(cursor: 0))])
    }

    // MARK: The view cache

    /// A view whose renders wait until `gate` is signalled, counting them.
    final class GatedView: EditorViewProvider, Sendable {
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let renders = Atomic<Int>(0)
        func render(_ request: RenderRequest) -> PluginView {
            entered.signal()
            gate.wait()
            renders.add(1, ordering: .relaxed)
            return ["width \(request.width)"]
        }
        func commands() -> [EditorCommand] { [] }
        func itemLayout() -> ItemLayout? { nil }
    }

    func request(_ width: Int) -> EditorViewCache.Request {
        .init(render: RenderRequest(width: width, height: 5), head: "h")
    }

    func testGivenARenderThatBlocksWhenFramesAskForTheViewThenTheyNeverWaitAndRendersCollapseToTheLatest() {
        let view = GatedView(), cache = EditorViewCache(), worker = DocumentWorker()
        XCTAssertEqual(cache.lines(for: request(10), view: view, worker: worker, label: "render"), [], "nothing rendered yet")
        XCTAssertEqual(worker.running?.label, "render")
        XCTAssertEqual(view.entered.wait(timeout: .now() + 5), .success, "the render started on the worker")
        // The render is blocked in the plugin; frames keep asking for newer sizes and get what there is at once.
        for width in 11...20 { XCTAssertEqual(cache.lines(for: request(width), view: view, worker: worker, label: "render"), []) }
        XCTAssertFalse(cache.isCurrent)
        view.gate.signal()  // the first render (width 10) ends …
        view.gate.signal()  // … and one more for the latest request, not ten
        XCTAssertTrue(worker.waitUntilIdle(timeout: .seconds(5)) {})
        XCTAssertEqual(view.renders.load(ordering: .relaxed), 2)
        XCTAssertEqual(cache.lines(for: request(20), view: view, worker: worker, label: "render"), ["width 20"])
        XCTAssertTrue(cache.isCurrent)
    }
}
