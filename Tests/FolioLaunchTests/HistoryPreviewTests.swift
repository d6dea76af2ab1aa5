@testable import FolioLaunch
import FolioTerminal
import XCTest

/// The history browser's rendered preview (`v`): the selected version as its editor draws it beside the current one,
/// following the selection without showing a stale frame; two versions compared row by row with marks, and changed
/// text word by word.
final class HistoryPreviewTests: XCTestCase {
    let scene = LaunchScene.defaultScene

    private func browser(commits: Int = 4, width: Int = 160, height: Int = 45) -> AppState {
        var history = HistoryState(viewWidth: width, viewHeight: height)
        let messages = ["checked 'Milk'", "added 'Saffron'", "renamed 'Sencha' to 'Green tea'", "Create from checklist/groceries"]
        _ = history.receive(HistoryPage(entries: (0..<commits).map {
            HistoryEntry(id: "c\($0)aaaaaaaa", message: messages[$0 % messages.count], author: "Ada", date: "2025-03-0\(4 - $0 % 4) 10:00")
        }, next: nil))
        return .showing(history, of: EditorState(path: "l", title: "Groceries", contentType: "org.folio.checklist"))
    }

    private func press(_ keys: [Key], _ state: AppState) -> (AppState, [AppEffect]) { state.pressing(keys, scene: scene) }

    private func answered(_ state: AppState, _ subject: HistoryPreview.Subject, _ comparison: VersionComparison) -> AppState {
        var state = state
        state.updateHistory { $0.receivePreview(comparison, for: subject) }
        return state
    }

    private func screen(_ state: AppState) -> String {
        let h = history(state)
        return Screens.history(h, title: "Groceries", width: h.viewWidth, height: h.viewHeight).plainText()
    }

    /// A checklist view as the checklist editor draws it.
    static func checklist(_ items: [(Bool, String)], title: String = "Groceries") -> [String] {
        let done = items.filter(\.0).count
        return ["\(title)  (\(done)/\(items.count) done)"] + items.enumerated().map { index, item in
            " \(index + 1) [\(item.0 ? "x" : " ")] \(item.1)"
        }
    }

    static let then = checklist([(false, "Milk"), (false, "Sencha"), (false, "Line one of the list"), (false, "Eggs")])
    static let now = checklist([(true, "Milk"), (false, "Tea, green"), (false, "Eggs"), (false, "Saffron")])

    static func comparison(old: String = "c2aaaaaaaa", new: String = "c0aaaaaaaa") -> VersionComparison {
        VersionComparison.make(oldID: old, newID: new, old: then, new: now, summary: ["checked 'Milk'"]) { _, _ in nil }
    }

    func testGivenTheDiffShownWhenVIsPressedThenTheSelectedVersionAndTheCurrentOneAreAskedForAtTheColumnWidth() {
        // Given the browser at 160×45 showing the newest commit
        // When v is pressed
        let (shown, effects) = press([.character("v")], browser())
        // Then the preview of the selected version against the current one is asked for, at the width of a column
        let width = HistoryLayout(width: 160, height: 45).previewRenderWidth(fullScreen: false)
        XCTAssertEqual(effects, [.loadPreview(HistoryPreview.Subject(old: "c0aaaaaaaa", new: nil, width: width))])
        XCTAssertTrue(history(shown).preview.shown)
        XCTAssertTrue(screen(shown).contains("loading…"), screen(shown))
        // And v again shows the diff, asking for nothing new
        let (back, again) = press([.character("v")], shown)
        XCTAssertEqual(again, [])
        XCTAssertFalse(history(back).preview.shown)
    }

    func testGivenThePreviewShownWhenTheSelectionMovesThenTheNextVersionIsAskedForAndTheOldFrameIsNeverShownUnderItsHeader() {
        // Given the preview of c0 shown
        let (start, first) = press([.character("v")], browser())
        guard case let .loadPreview(subject0)? = first.last else { return XCTFail("no preview asked for") }
        let shown = answered(start, subject0, Self.comparison(old: "c0aaaaaaaa"))
        XCTAssertTrue(screen(shown).contains("Tea, green"), screen(shown))
        // When the selection moves down twice in one batch of keys
        let (moved, effects) = press([.down, .down], shown)
        // Then one preview is asked for (the last), with the diffs, and the pane says loading… rather than c0's rows
        let previews = HistoryState.latestPreviewOnly(effects).filter { if case .loadPreview = $0 { true } else { false } }
        XCTAssertEqual(previews, [.loadPreview(HistoryPreview.Subject(old: "c2aaaaaaaa", new: nil, width: subject0.width))])
        XCTAssertTrue(screen(moved).contains("loading…"), screen(moved))
        XCTAssertFalse(screen(moved).contains("Tea, green"), screen(moved))
        // And a late answer for c1 is dropped; c2's is shown
        let late = answered(moved, HistoryPreview.Subject(old: "c1aaaaaaaa", new: nil, width: subject0.width), Self.comparison(old: "c1aaaaaaaa"))
        XCTAssertTrue(screen(late).contains("loading…"))
        let settled = answered(late, HistoryPreview.Subject(old: "c2aaaaaaaa", new: nil, width: subject0.width), Self.comparison())
        XCTAssertTrue(screen(settled).contains("then: c2aaaaa"), screen(settled))
    }

    func testGivenARenameAndADeletionWhenComparedThenTheRowsStandSideBySideWithBothVersionsNamesReadable() {
        // Given a list where 'Sencha' became 'Tea, green', 'Line one…' was deleted, 'Milk' checked and 'Saffron' added
        let comparison = Self.comparison()
        // Then each old row stands beside what it became, marked
        func row(_ old: String?, _ new: String?) -> AlignedRow? {
            comparison.rows.first { r in r.old.map { comparison.old[$0].hasSuffix(old ?? "\u{0}") } ?? (old == nil) && r.new.map { comparison.new[$0].hasSuffix(new ?? "\u{0}") } ?? (new == nil) }
        }
        XCTAssertEqual(row("[ ] Milk", "[x] Milk")?.change, .changed)
        XCTAssertEqual(row("[ ] Sencha", "[ ] Tea, green")?.change, .changed)
        XCTAssertEqual(row("[ ] Line one of the list", nil)?.change, .removed)
        XCTAssertEqual(row("[ ] Eggs", "[ ] Eggs")?.change, nil, "an item renumbered is not a change")
        XCTAssertEqual(row(nil, "[ ] Saffron")?.change, .added)
    }

    func testGivenAnItemMovedWhenComparedThenItIsMarkedMovedOnBothSidesAndTheOthersStay() {
        let old = Self.checklist([(false, "A"), (false, "B"), (false, "C"), (false, "D")])
        let new = Self.checklist([(false, "B"), (false, "C"), (false, "D"), (false, "A")])
        let rows = RowAlignment.align(old: old, new: new)
        XCTAssertEqual(rows.filter { $0.change == .moved }.count, 2, "\(rows)")
        XCTAssertEqual(rows.filter { $0.change == nil }.count, 4, "the header and B, C, D stay")
        XCTAssertEqual(rows.first { $0.change == .moved && $0.old != nil }?.old, 1)
        XCTAssertEqual(rows.first { $0.change == .moved && $0.new != nil }?.new, 4)
    }

    func testGivenASceneMovedToAnotherActWhenComparedThenItIsMovedOnBothSidesAndTheActsStandSideBySide() {
        // Given a scene that went from act 1 to act 2, and a scene added where it was
        let old = ["Tale", " 1 Act I  20 words", "   1.1 Call  10 words", "   1.2 Mentor  10 words", " 2 Act II  0 words"]
        let new = ["Tale", " 1 Act I  10 words", "   1.1 Call  10 words", "   1.2 Storm  0 words", " 2 Act II  10 words", "   2.1 Mentor  10 words"]
        // When the rows are aligned
        let rows = RowAlignment.align(old: old, new: new)
        // Then the scene is moved (old 1.2, new 2.1), the acts pair as changed, the new scene is added; each side in order
        XCTAssertEqual(rows.filter { $0.change == .moved }.map { [$0.old, $0.new] }, [[3, nil], [nil, 5]])
        XCTAssertEqual(rows.first { $0.old == 4 }?.new, 4)
        XCTAssertEqual(rows.first { $0.old == 4 }?.change, .changed)
        XCTAssertEqual(rows.first { $0.new == 3 }?.change, .added)
        XCTAssertEqual(rows.compactMap(\.old), Array(old.indices))
        XCTAssertEqual(rows.compactMap(\.new), Array(new.indices))
    }

    func testGivenASceneRewrittenWhenComparedThenItsOldAndNewWordsAreBothReadableWordByWord() {
        // Given a story outline whose scene 1.1 kept its word count but not its words
        let old = ["Tale  20 words", " 1 Act I  10 words", "   1.1 The ordinary world  10 words", "   1.2 The call  10 words"]
        let oldText = ["── 1.1 The ordinary world ──", "│ The keeper never slept at all."]
        let newText = ["── 1.1 The ordinary world ──", "│ The keeper slept all day long."]
        // When the two versions are compared, the editor saying it changed that scene's text
        let comparison = VersionComparison.make(oldID: "a", newID: "b", old: old, new: old,
                                                summary: ["changed the text of scene 'The ordinary world' (10 words, −0)"]) { side, row in
            row == 2 ? (side == .old ? oldText : newText) : []
        }
        // Then the scene is marked changed and its words are shown old and new
        XCTAssertEqual(comparison.rows[2].change, .changed)
        XCTAssertEqual(comparison.textChanges.map(\.item), ["1.1 The ordinary world — 10 words"])
        XCTAssertEqual(comparison.textChanges.first?.words, [WordRun(.same, "The keeper"), WordRun(.removed, "never"), WordRun(.same, "slept"),
                                                               WordRun(.removed, "at all."), WordRun(.added, "all day long.")])
        // And drawn in rows of the pane, the removed words read [-…-] and the added ones {+…+}, broken between words
        XCTAssertEqual(PreviewRow.wrap(comparison.textChanges[0].words, width: 200).map { $0.map(\.text).joined() },
                       ["The keeper [-never-] slept [-at all.-] {+all day long.+}"])
        XCTAssertEqual(PreviewRow.wrap(comparison.textChanges[0].words, width: 24).map { $0.map(\.text).joined() },
                       ["The keeper [-never-]", "slept [-at all.-] {+all", "day long.+}"])
    }

    func testGoldenFramesOfThePreviewAt60x16And100x30And160x45() {
        for (width, height) in [(60, 16), (100, 30), (160, 45)] {
            var state = press([.down, .down, .character("v")], browser(width: width, height: height)).0
            let render = HistoryLayout(width: width, height: height).previewRenderWidth(fullScreen: width < 70)
            state = answered(state, HistoryPreview.Subject(old: "c2aaaaaaaa", new: nil, width: render), Self.comparison())
            if width < 70 { state = press([.enter], state).0 }
            assertGolden(screen(state), "history-preview-\(width)x\(height)")
            if width < 120 {
                assertGolden(screen(press([.character("o")], state).0), "history-preview-\(width)x\(height)-current")
            }
        }
    }
}

/// The preview's text as a user reads it: a word wider than the pane, text from a plugin with control characters,
/// and a story comparison's frame.
final class HistoryPreviewTextTests: XCTestCase {
    func testGivenAWordWiderThanThePaneWhenWrappedThenItIsCutAcrossRowsAndNothingIsLost() {
        // Given a removed word of 30 letters and a pane 12 cells wide
        let runs = [WordRun(.same, "a"), WordRun(.removed, String(repeating: "x", count: 30)), WordRun(.added, "b")]
        // When the runs are laid out
        let rows = PreviewRow.wrap(runs, width: 12).map { $0.map(\.text).joined() }
        // Then no row is wider than the pane and every letter is there
        XCTAssertTrue(rows.allSatisfy { DisplayWidth.width(of: $0) <= 12 }, "\(rows)")
        XCTAssertEqual(rows.joined().filter { $0 == "x" }.count, 30, "\(rows)")
        XCTAssertTrue(rows.joined().contains("{+b+}"), "\(rows)")
    }

    func testGivenAnItemWithControlCharactersWhenDrawnInThePreviewThenTheyShowAsEscapesNotTerminalCommands() {
        // Given a version whose item title holds an escape sequence and a bidi override
        let old = ["List  (0/1 done)", " 1 [ ] \u{1B}[2Jwipe\u{202E}txt"]
        let new = ["List  (0/1 done)", " 1 [ ] plain"]
        var history = HistoryState()
        history.viewWidth = 160
        history.viewHeight = 20
        _ = history.receive(HistoryPage(entries: [HistoryEntry(id: "c0aaaaaaaa", message: "m")], next: nil))
        history.preview.shown = true
        guard case let .loadPreview(subject)? = history.followPreview() else { return XCTFail("no preview asked for") }
        history.receivePreview(VersionComparison.make(oldID: "c0aaaaaaaa", newID: "c1aaaaaaaa", old: old, new: new) { _, _ in nil }, for: subject)
        // When the browser draws it
        let text = Screens.history(history, title: "L", width: 160, height: 20).plainText()
        // Then the escape and the override are visible escapes on the marked row
        XCTAssertTrue(text.contains("\\e[2Jwipe\\u{202E}txt"), text)
        XCTAssertFalse(text.contains("\u{1B}"), text)
    }

    func testGoldenFrameOfAStoryComparisonAt160x45() {
        // Given two versions of a story: scene 1.1 rewritten, a scene added, one moved to act 2
        let old = ["Tale  40 words", " 1 Act I  30 words", "   1.1 The ordinary world  10 words", "   1.2 The call  10 words", "   1.3 The mentor  10 words",
                   " 2 Act II  10 words", "   2.1 Trials  10 words"]
        let new = ["Tale  52 words", " 1 Act I  32 words", "   1.1 The ordinary world  12 words", "   1.2 The call  10 words", "   1.3 The storm  0 words",
                   " 2 Act II  20 words", "   2.1 The mentor  10 words", "   2.2 Trials  10 words"]
        let texts = [2: (["── 1.1 The ordinary world ──", "│ The keeper never slept at all, and watched the sea."],
                         ["── 1.1 The ordinary world ──", "│ The keeper slept all day long, and dreamt of the sea."])]
        let comparison = VersionComparison.make(oldID: "9b1c77e0aa01", newID: "4f2a9c81d3e0", old: old, new: new,
                                                summary: ["changed the text of scene 'The ordinary world' (12 words, +2)", "added scene 'The storm' to act 1",
                                                          "moved scene 'The mentor' to act 2, position 1"]) { side, row in
            texts[row].map { side == .old ? $0.0 : $0.1 } ?? ["── x ──", "│ (no text)"]
        }
        var history = HistoryState()
        history.viewWidth = 160
        history.viewHeight = 45
        _ = history.receive(HistoryPage(entries: [HistoryEntry(id: "4f2a9c81d3e0", message: "moved scene 'The mentor' to act 2", author: "Ada", date: "2025-03-02 10:14"),
                                                  HistoryEntry(id: "9b1c77e0aa01", message: "added scene 'The mentor' to act 1", author: "Ada", date: "2025-03-01 18:40")],
                                        next: nil))
        _ = history.want(.compare("9b1c77e0aa01", "4f2a9c81d3e0"))
        history.preview.shown = true
        guard case let .loadPreview(subject)? = history.followPreview() else { return XCTFail("no preview asked for") }
        XCTAssertEqual(subject.old, "9b1c77e0aa01")
        XCTAssertEqual(subject.new, "4f2a9c81d3e0")
        history.receivePreview(comparison, for: subject)
        // Then the frame shows both outlines aligned and marked, and the scene's old and new words
        assertGolden(Screens.history(history, title: "Tale", width: 160, height: 45).plainText(), "history-compare-story-160x45")
    }
}
