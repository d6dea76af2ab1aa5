import XCTest
import FolioBasics
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// Every message readable: a message wraps instead of being cut, the message log keeps the last 100 in full with
/// their time, unbound keys say what to press, the help's End scrolls and F1 opens the current context's section,
/// and the palette box stays put while its list shrinks.
final class MessagesTests: XCTestCase {
    let scene = LaunchScene.defaultScene
    let services = LaunchServices(recent: NoRecent(), templates: NoTemplates())
    let longError = "checklist rename: N must be one item, got the range 1-2: select one item with v, or put the cursor on the item to rename and press r again"
    let utc = ClockZone.utc

    func editorState(width: Int = 60, height: Int = 16, commands: [EditorCommand] = FakeEditor().commands()) -> AppState {
        var editor = EditorState(path: "stories/the-lighthouse", title: "The Lighthouse", contentType: "org.folio.story",
                                 commitID: "4f2a9c8d", commitMessage: "Add the stairs scene", commands: commands)
        editor.columns = width
        var state = AppState()
        state.columns = width; state.rows = height
        state.screen = .editor(editor)
        state.messageLog.timeZone = utc
        state.now = Date(timeIntervalSince1970: 1_764_612_000)  // 2025-12-01 18:00:00 UTC
        return state
    }

    func press(_ keys: [Key], _ state: AppState) -> AppState { keys.reduce(state) { $0.handling($1, scene: scene).0 } }

    func draw(_ state: AppState, _ width: Int = 60, _ height: Int = 16) -> String {
        guard case let .editor(editor) = state.screen else { return LaunchApp.frame(state, scene: scene, services: services, width: width, height: height).plainText() }
        var grid = Screens.editor(editor, view: FakeEditor(), width: width, height: height)
        Screens.decorate(&grid, state: state, scene: scene)
        return grid.plainText()
    }

    /// The editor with `text` as the failure a finished command reported (as the run loop takes it in).
    func failing(_ text: String, _ state: AppState) -> AppState {
        var state = state
        let before = state
        var pending: [AppEffect] = [], replay: [Key] = []
        LaunchApp.receive(.failure(text), state: &state, pending: &pending, replay: &replay)
        state.noteMessages(since: before)
        return state
    }

    // MARK: Wrapping

    func testGivenALongErrorAt60ColumnsWhenTheEditorShowsItThenEveryWordIsOnScreen() {
        // Given the editor at 60×16 and a 150-character error
        let state = failing(longError, editorState())
        // When the frame is drawn
        let screen = draw(state)
        // Then the message is wrapped over several rows above the status bar, nothing cut
        let shown = screen.split(separator: "\n").suffix(4).joined(separator: " ").split(separator: " ").joined(separator: " ")
        XCTAssertTrue(shown.contains("✗ " + longError), screen)
    }

    // MARK: The log

    func testGivenMessagesShownWhenMIsPressedThenTheLogShowsEachInFullWithItsTime() {
        // Given two failures, a minute apart
        var state = failing("the first thing went wrong", editorState())
        state.now = state.now.addingTimeInterval(61)
        state = failing(longError, state)
        // When M is pressed
        let open = press([.character("M")], state)
        // Then the log overlay lists both, oldest first, with their times, the long one wrapped in full
        XCTAssertTrue(open.messageLogOpen)
        XCTAssertEqual(open.messageLog.entries.map(\.text), ["✗ the first thing went wrong", "✗ " + longError])
        let screen = draw(open, 160, 45)
        XCTAssertTrue(screen.contains("18:00:00 ✗ the first thing went wrong"), screen)
        XCTAssertTrue(screen.contains("18:01:01 ✗ " + longError.prefix(40)), screen)
        XCTAssertTrue(screen.contains("cursor on the item to rename and press r again"), screen)
        // And esc closes it, back to the editor
        XCTAssertFalse(press([.escape], open).messageLogOpen)
    }

    func testGivenMoreThanAHundredMessagesWhenLoggedThenTheNewestHundredAreKept() {
        // Given 105 messages
        var log = MessageLog()
        for number in 1...105 { log.append(.note("message \(number)"), at: Date(timeIntervalSince1970: Double(number))) }
        // Then the oldest five are gone
        XCTAssertEqual(log.entries.count, 100)
        XCTAssertEqual(log.entries.first?.text, "message 6")
        XCTAssertEqual(log.entries.last?.text, "message 105")
    }

    func testGivenTheLogLongerThanTheScreenWhenOpenedThenItShowsTheNewestAndHomeAndEndMove() {
        // Given 30 messages at 60×16
        var state = editorState()
        for number in 1...30 { state.messageLog.append(.note("message number \(number)"), at: state.now) }
        // When opened: the newest at the bottom
        let open = press([.character("M")], state)
        XCTAssertTrue(draw(open).contains("message number 30"), draw(open))
        XCTAssertFalse(draw(open).contains("message number 1 "), draw(open))
        // Home: the oldest; End: the newest again
        let top = press([.home], open)
        XCTAssertTrue(draw(top).contains("message number 1 "), draw(top))
        XCTAssertTrue(draw(press([.end], top)).contains("message number 30"))
    }

    func testGivenThePaletteWhenMessageLogIsChosenThenTheLogOpens() {
        let state = press([.ctrl("p")] + "message".map(Key.character) + [.enter], editorState())
        XCTAssertTrue(state.messageLogOpen)
        guard case let .editor(editor) = state.screen else { return XCTFail("the editor stays under the log") }
        XCTAssertFalse(editor.paletteOpen)
    }

    func testGivenTheConflictScreenWhenMIsPressedThenItIsThatScreensKeyNotTheLog() {
        var state = editorState()
        guard case let .editor(editor) = state.screen else { return XCTFail() }
        state.screen = .sharing(.conflicts(ConflictScreenState()), editor)
        XCTAssertFalse(press([.character("M")], state).messageLogOpen)
    }

    func testGivenAMessageLogWhenTheLauncherReturnsThenTheNextScreenCarriesItOn() {
        // Given a log with one message, handed to the launcher as the program's log so far
        var services = self.services
        services.messageLog.append(.note("Created notes"), at: Date(timeIntervalSince1970: 0))
        services.message = .note("folio templates update: 3 templates")
        // When a launcher state starts with those services (as LaunchApp.run does)
        var state = AppState()
        state.takingMessages(from: services, at: Date())
        // Then the message is shown, and the log has both, the old one first
        XCTAssertEqual(state.message, .note("folio templates update: 3 templates"))
        XCTAssertEqual(state.messageLog.entries.map(\.text), ["Created notes", "folio templates update: 3 templates"])
    }

    // MARK: Unbound keys

    func testGivenTheEditorWhenUQOrXIsPressedThenAOneLineHintSaysWhatToPress() {
        let state = editorState()
        func hint(_ key: Key) -> String? { if case let .editor(e) = press([key], state).screen { return e.hint } else { return nil } }
        XCTAssertEqual(hint(.character("u")), "undo is ^Z (redo ^Y)")
        XCTAssertEqual(hint(.character("q")), "q does nothing here: ^W closes the document, ^Q quits")
        XCTAssertEqual(hint(.character("x")), "x does nothing here: ? lists the keys, ^P the commands")
        // A key the editor binds gives no hint
        XCTAssertNil(hint(.character("j")))
    }

    func testGivenHistoryWhenCtrlPOrCtrlWIsPressedThenTheStatusLineSaysWhereTheyWork() {
        var state = editorState()
        guard case let .editor(editor) = state.screen else { return XCTFail() }
        var history = HistoryState()
        _ = history.receive(HistoryPage(entries: [HistoryEntry(id: "c0", message: "m")], next: nil))
        state.screen = .history(history, editor)
        func status(_ key: Key) -> String? { if case let .history(h, _) = press([key], state).screen { return h.timeline.status } else { return nil } }
        XCTAssertEqual(status(.ctrl("p")), "no command palette in History: esc goes back to the editor, ^P there")
        XCTAssertEqual(status(.ctrl("w")), "^W closes the document from the editor: esc goes back to it first")
    }

    func testGivenTheFileViewWhenCtrlPIsPressedThenItSaysThereIsNoPalette() {
        var state = editorState()
        state.screen = .generic(GenericViewState(path: "/docs/pkg", title: "Pkg", contentType: "org.folio.project", reason: .noEditor(contentType: "org.folio.project")))
        guard case let .generic(view) = press([.ctrl("p")], state).screen else { return XCTFail() }
        XCTAssertEqual(view.message, .note("no command palette in the file view: ? lists its keys"))
    }

    // MARK: Confirmations

    func testGivenARecentDocumentWhenPinnedOrUnpinnedThenTheLauncherSaysSoAndLogsIt() {
        // Given the launcher with a recent document selected
        var state = AppState(recent: [RecentDocument(path: "notes/groceries", title: "Groceries", detail: "checklist")])
        state.selection = scene.actions.count
        // When p pins it, then p again unpins it
        let pinned = press([.character("p")], state)
        XCTAssertEqual(pinned.message, .note("Pinned “Groceries”"))
        let unpinned = press([.character("p")], pinned)
        XCTAssertEqual(unpinned.message, .note("Unpinned “Groceries”"))
        // Then both are in the log
        XCTAssertEqual(unpinned.messageLog.entries.map(\.text), ["Pinned “Groceries”", "Unpinned “Groceries”"])
    }

    func testGivenATagMadeInHistoryWhenItSucceedsThenTheStatusLineConfirmsIt() {
        var state = editorState()
        guard case let .editor(editor) = state.screen else { return XCTFail() }
        var history = HistoryState()
        _ = history.receive(HistoryPage(entries: [HistoryEntry(id: "4f2a9c8d00", message: "m")], next: nil))
        state.screen = .history(history, editor)
        state.historyTagged("4f2a9c8d00", name: "draft-2")
        guard case let .history(tagged, _) = state.screen else { return XCTFail() }
        XCTAssertEqual(tagged.timeline.status, "✓ Tagged 4f2a9c8 “draft-2”")
    }

    // MARK: Help

    func testGivenTheHelpOverlayWhenEndIsPressedThenItScrollsToTheEndAndStaysOpen() {
        let open = press([.character("?")], editorState())
        let end = press([.end], open)
        XCTAssertTrue(end.helpOpen, "End scrolls, it does not close the help")
        let lines = Screens.helpDisplayRows(end.helpLines(scene: scene), width: end.columns).count
        XCTAssertEqual(end.helpScroll, lines - Screens.helpRows(height: 16))
        XCTAssertTrue(draw(end).contains("^Q"), draw(end))
        XCTAssertEqual(press([.home], end).helpScroll, 0)
    }

    func testGivenAPromptWhenF1IsPressedThenTheHelpOpensAtThePromptSection() {
        // Given the prompt of "New Act" open (a asks its TITLE)
        let commands = FakeEditor().commands().map { command in
            var command = command
            if command.id == "story.act" { command.usage = "add-act TITLE" }
            return command
        }
        let prompting = press([.character("a")], editorState(width: 100, height: 30, commands: commands))
        guard case let .editor(editor) = prompting.screen, editor.prompt != nil else { return XCTFail("a opens the prompt") }
        // When F1
        let help = press([.f1], prompting)
        // Then the help shows the Prompt section (scrolled as far as the overlay goes), not the top's "Moving"
        let screen = draw(help, 100, 30)
        XCTAssertTrue(screen.contains("Prompt (⏎ answers, esc cancels)"), screen)
        XCTAssertFalse(screen.contains("Moving"), screen)
        // While without a prompt it opens at the top ("Moving")
        XCTAssertEqual(press([.f1], editorState(width: 100, height: 30)).helpScroll, 0)
    }

    // MARK: Palette

    func testGivenThePaletteWhenTypingNarrowsItsListThenTheBoxKeepsItsPositionAndSize() {
        let open = press([.ctrl("p")], editorState(width: 100, height: 30))
        let narrowed = press("note".map(Key.character), open)
        func box(_ screen: String) -> (top: Int?, bottom: Int?) {
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return (rows.firstIndex { $0.contains("╭─ Commands") }, rows.firstIndex { $0.contains("╰") })
        }
        let before = box(draw(open, 100, 30)), after = box(draw(narrowed, 100, 30))
        XCTAssertNotNil(before.top)
        XCTAssertEqual(before.top, after.top, draw(narrowed, 100, 30))
        XCTAssertEqual(before.bottom, after.bottom, draw(narrowed, 100, 30))
    }
}

/// The message log as a user sees it at 60×16 and 160×45 (each golden inspected by eye before it was committed).
final class MessageLogGoldenTests: XCTestCase {
    func testMessageLogAt60x16And160x45() {
        let utc = ClockZone.utc
        var log = MessageLog(timeZone: utc)
        let start = 1_764_612_000.0
        log.append(.note("Created notes/groceries from checklist/groceries"), at: Date(timeIntervalSince1970: start))
        log.append(.failure("shapes move: N must be a shape number from 1 to 2, got '1-2'; select one shape with v, or move the cursor to it"), at: Date(timeIntervalSince1970: start + 75))
        log.append(.note("folio templates update: folio-templates: 12 templates (a1b2c3d)"), at: Date(timeIntervalSince1970: start + 3_600))
        log.append(.note("Pinned “Groceries”"), at: Date(timeIntervalSince1970: start + 3_725))
        for (w, h) in [(60, 16), (160, 45)] {
            var editor = EditorState(path: "stories/the-lighthouse", title: "The Lighthouse", contentType: "org.folio.story",
                                     commitID: "4f2a9c8d", commitMessage: "Add the stairs scene", commands: FakeEditor().commands())
            editor.columns = w
            var state = AppState()
            state.columns = w; state.rows = h
            state.screen = .editor(editor)
            state.messageLog = log
            state = state.handling(.character("M"), scene: .defaultScene).0
            var grid = Screens.editor(editor, view: FakeEditor(), width: w, height: h)
            Screens.decorate(&grid, state: state, scene: .defaultScene)
            assertGolden(grid.plainText(), "sizes/message-log-\(w)x\(h)")
        }
    }
}
