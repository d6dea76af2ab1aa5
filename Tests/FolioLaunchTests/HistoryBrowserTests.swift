@testable import FolioLaunch
import FolioTerminal
import XCTest

/// The history browser's pure state: the diff follows the selection, stale answers are dropped, the diff scrolls,
/// and a narrow terminal opens it full-screen.
final class HistoryBrowserTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    private func browser(commits: Int = 5, width: Int = 160, height: Int = 45) -> AppState {
        var history = HistoryState(viewWidth: width, viewHeight: height)
        _ = history.receive(HistoryPage(entries: (0..<commits).map { HistoryEntry(id: "c\($0)", message: "change \($0)") }, next: nil))
        return .showing(history, of: EditorState(path: "s", title: "S", contentType: "org.folio.story"))
    }

    private func press(_ keys: [Key], _ state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    private func answered(_ state: AppState, _ subject: HistoryState.DiffSubject, _ lines: [String], kind: HistoryDiff.Kind = .semantic) -> AppState {
        var state = state
        guard case .history(var history, let editor) = state.screen else { return state }
        history.receive(HistoryDiff(lines: lines, kind: kind), for: subject)
        state.screen = .history(history, editor)
        return state
    }

    func testGivenTheFirstPageWhenItArrivesThenTheNewestCommitsDiffIsAskedFor() {
        var history = HistoryState()
        let effect = history.receive(HistoryPage(entries: [HistoryEntry(id: "c0", message: "m")], next: nil))
        XCTAssertEqual(effect, .loadDiff(commitID: "c0"))
        XCTAssertEqual(history.receive(HistoryPage(entries: [], next: nil)), nil, "a later page does not ask again")
    }

    func testGivenADiffShownWhenTheSelectionMovesThenThatCommitsDiffIsAskedForAndTheOldOneIsNotShownUnderTheNewHeader() {
        let start = answered(browser(), .commit("c0"), ["+first"])
        XCTAssertTrue(history(start).diffIsCurrent)
        let (moved, effects) = press([.down], start)
        XCTAssertEqual(effects, [.loadDiff(commitID: "c1")])
        XCTAssertFalse(history(moved).diffIsCurrent, "the pane shows loading…, not c0's diff under c1's header")
        let text = Screens.history(history(moved), title: "S", width: 160, height: 45).plainText()
        XCTAssertTrue(text.contains("loading…"), text)
        XCTAssertFalse(text.contains("+first"), text)
        let shown = answered(moved, .commit("c1"), ["+second"])
        XCTAssertEqual(history(shown).diff, ["+second"])
        XCTAssertTrue(Screens.history(history(shown), title: "S", width: 160, height: 45).plainText().contains("+second"))
    }

    func testGivenTheSelectionMovedTwiceWhenTheOlderAnswerArrivesLastThenItIsDropped() {
        let (moved, effects) = press([.down, .down], browser())
        XCTAssertEqual(effects, [.loadDiff(commitID: "c1"), .loadDiff(commitID: "c2")])
        XCTAssertEqual(HistoryState.latestDiffOnly(effects), [.loadDiff(commitID: "c2")], "keys in one batch ask for one diff")
        let late = answered(answered(moved, .commit("c2"), ["+c2"]), .commit("c1"), ["+c1"])
        XCTAssertEqual(history(late).diff, ["+c2"])
        XCTAssertEqual(history(late).diffSubject, .commit("c2"))
        var failing = history(moved)
        XCTAssertFalse(failing.receiveFailure("boom", for: .commit("c1")), "a stale failure is dropped too")
        XCTAssertNil(failing.diffError)
    }

    func testGivenALongDiffWhenPagedAndScrolledInTheDiffPaneThenItScrollsWithinItsLength() {
        let lines = (1...100).map { "+line \($0)" }
        let start = answered(browser(width: 160, height: 45), .commit("c0"), lines)
        let page = HistoryLayout(width: 160, height: 45).diffPage
        XCTAssertEqual(history(press([.tab, .pageDown], start).0).diffScroll, page, "PgUp/PgDn scroll the diff when it has focus")
        XCTAssertEqual(history(press([.tab, .pageDown, .pageUp, .pageUp], start).0).diffScroll, 0)
        let (focused, effects) = press([.tab, .character("j"), .character("j"), .down, .character("k")], start)
        XCTAssertEqual(effects, [], "j/k in the diff pane scroll it and load nothing")
        XCTAssertEqual(history(focused).diffScroll, 2)
        XCTAssertEqual(history(focused).selection, 0, "the selection stays")
        let bottom = history(press([.tab, .end, .pageDown], start).0)
        XCTAssertEqual(bottom.diffScroll, 100 - HistoryLayout(width: 160, height: 45).diffRows, "never past the last line")
        let text = Screens.history(history(press([.tab, .pageDown], start).0), title: "S", width: 160, height: 45).plainText()
        XCTAssertTrue(text.contains("+line \(page + 1)\n") || text.contains("+line \(page + 1) "), text)
        XCTAssertFalse(text.contains("+line \(page) "), text)
    }

    func testGivenAHugeDiffWhenItArrivesThenTheBrowserKeepsABoundedPartAndSaysHowMuchIsLeft() {
        let start = answered(browser(), .commit("c0"), (1...100_000).map { "+line \($0)" })
        let kept = history(start).diff
        XCTAssertEqual(kept.count, HistoryState.maximumDiffLines + 1)
        XCTAssertEqual(kept.last, "… 80000 more lines (the whole diff: folio diff)")
        let text = Screens.history(history(press([.tab, .end], start).0), title: "S", width: 160, height: 45).plainText()
        XCTAssertTrue(text.contains("80000 more lines"), text)
    }

    func testGivenLongLinesWhenScrolledSidewaysOrWrappedThenTheirEndIsShown() {
        let long = "+" + String(repeating: "a", count: 100) + "END"
        let start = answered(browser(width: 100, height: 20), .commit("c0"), [long])
        let plain = Screens.history(history(start), title: "S", width: 100, height: 20).plainText()
        XCTAssertFalse(plain.contains("END"))
        let scrolled = press(Array(repeating: .right, count: 20), start).0
        XCTAssertTrue(Screens.history(history(scrolled), title: "S", width: 100, height: 20).plainText().contains("END"))
        let wrapped = press([.character("w")], start).0
        XCTAssertTrue(history(wrapped).wrap)
        let text = Screens.history(history(wrapped), title: "S", width: 100, height: 20).plainText()
        XCTAssertTrue(text.contains("END"), text)
    }

    func testGivenANarrowTerminalWhenEnterIsPressedThenTheDiffOpensFullScreenAndEscReturnsToTheList() {
        let start = answered(browser(width: 60, height: 16), .commit("c0"), ["+the diff line"])
        XCTAssertFalse(Screens.history(history(start), title: "S", width: 60, height: 16).plainText().contains("+the diff line"),
                       "at 60 columns the list alone")
        let (open, _) = press([.enter], start)
        XCTAssertTrue(history(open).diffFullScreen)
        let text = Screens.history(history(open), title: "S", width: 60, height: 16).plainText()
        XCTAssertTrue(text.contains("+the diff line"), text)
        XCTAssertFalse(text.contains("change 1"), "the list is hidden while the diff fills the screen")
        let (back, _) = press([.escape], open)
        XCTAssertFalse(history(back).diffFullScreen)
        XCTAssertEqual(press([.escape], back).0.screen, .editor(EditorState(path: "s", title: "S", contentType: "org.folio.story")))
    }

    func testGivenATagMadeWhenItSucceedsThenItShowsOnItsCommitAtOnce() {
        var state = browser()
        state.historyTagged("c1", name: "v1")
        XCTAssertEqual(history(state).entries[1].tags, ["v1"])
        XCTAssertTrue(Screens.history(history(state), title: "S", width: 160, height: 45).plainText().contains("⚑ v1 change 1"))
    }

    func testGivenTheTagFormOpenWhenTheDiffArrivesThenItIsShownOnReturnNotLoadingForever() {
        let (moved, _) = press([.down], browser())
        var (form, _) = press([.character("t")], moved)
        guard case .form = form.screen else { return XCTFail("expected the tag form") }
        form.updateHistory { $0.receive(HistoryDiff(lines: ["+c1"], kind: .semantic), for: .commit("c1")) }
        let (back, _) = press([.escape], form)
        XCTAssertEqual(history(back).diff, ["+c1"])
        XCTAssertTrue(history(back).diffIsCurrent)
    }

    func testGivenALongErrorWhenShownThenItIsWrappedNotCutOff() {
        var state = browser(width: 60, height: 16)
        guard case .history(var h, let editor) = state.screen else { return XCTFail() }
        h.error = "editor 'story' crashed (SIGSEGV) in 'semantic diff'; nothing was changed and the FINAL-WORD"
        state.screen = .history(h, editor)
        let text = Screens.history(history(state), title: "S", width: 60, height: 16).plainText()
        XCTAssertTrue(text.contains("FINAL-WORD"), text)
    }

    func testGivenALongReasonForATextDiffWhenShownThenItIsWrappedNotCutOff() {
        let reason = "shapes semantic diff: not a shapes document: expected '{' at byte 12 and the LAST-WORD"
        let start = answered(browser(), .commit("c0"), ["+x"], kind: .text(note: reason))
        let text = Screens.history(history(start), title: "S", width: 100, height: 20).plainText()
        XCTAssertTrue(text.contains("LAST-WORD"), text)
        XCTAssertTrue(text.contains("+x"), text)
    }

    func testGivenATextDiffWhenShownThenThePaneSaysItIsATextDiffAndWhy() {
        let start = answered(browser(), .commit("c0"), ["+x"], kind: .text(note: "plaintext has no semantic diff"))
        XCTAssertTrue(Screens.history(history(start), title: "S", width: 160, height: 45).plainText().contains("text diff — plaintext has no semantic diff"))
        let semantic = answered(browser(), .commit("c0"), ["added scene 'X' to act 1"])
        XCTAssertTrue(Screens.history(history(semantic), title: "S", width: 160, height: 45).plainText().contains("semantic diff"))
    }

    func testGivenAnyTinyTerminalWhenTheBrowserDrawsAndScrollsThenNothingTraps() {
        let lines = ["+" + String(repeating: "漢", count: 30), "\tTAB", "", "-🎉🎉"]
        for (width, height) in [(0, 0), (1, 1), (2, 3), (5, 4), (10, 5), (69, 6), (70, 6)] {
            var state = answered(browser(width: width, height: height), .commit("c0"), lines, kind: .text(note: "why " + String(repeating: "x", count: 40)))
            for key: Key in [.character("w"), .enter, .pageDown, .right, .down, .end, .character("w"), .right, .tab, .end, .escape] {
                state = press([key], state).0
                guard case .history = state.screen else { break }
                _ = Screens.history(history(state), title: "Ṫitle", width: width, height: height)
            }
        }
    }

    func testGoldenFramesOfTheHistoryScreenAt60x16And160x45() {
        var state = browser(commits: 0)
        guard case .history(var h, let editor) = state.screen else { return XCTFail() }
        h.entries = [
            HistoryEntry(id: "4f2a9c81d3e0", message: "set the text of scene 'The Stairs' (12 words)", author: "Ada", date: "2025-03-02 10:14", tags: ["draft-2"]),
            HistoryEntry(id: "9b1c77e0aa01", message: "added scene 'The Stairs' to act 1", author: "Ada", date: "2025-03-01 18:40"),
            HistoryEntry(id: "0c3d5e6f7a8b", message: "Create from template stories/short-story", author: "Ada", date: "2025-02-28 09:00"),
        ]
        h.loading = false
        h.exhausted = true
        _ = h.followSelection()
        h.receive(HistoryDiff(lines: ["changed the text of scene 'The Stairs' (12 words, +12)",
                                      "moved scene 'The Keeper' to act 2, position 1 — a line long enough to be cut at sixty columns"],
                              kind: .semantic), for: .commit("4f2a9c81d3e0"))
        state.screen = .history(h, editor)
        for (width, height) in [(60, 16), (160, 45)] {
            h.viewWidth = width
            h.viewHeight = height
            assertGolden(Screens.history(h, title: "The Lighthouse", width: width, height: height).plainText(), "history-\(width)x\(height)")
        }
        h.viewWidth = 60
        h.viewHeight = 16
        h.focus = .diff
        assertGolden(Screens.history(h, title: "The Lighthouse", width: 60, height: 16).plainText(), "history-60x16-diff")
    }
}
