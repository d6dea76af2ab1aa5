@testable import FolioLaunch
import FolioTerminal
import Foundation
import XCTest

/// Screens show a remote's text as text: a commit subject holding an OSC 52 clipboard write, an 8-bit CSI and a
/// bidi override is drawn with visible escapes in the history browser and the editor's status line, and the bytes
/// sent to the terminal carry none of them.
final class UntrustedTextScreenTests: XCTestCase {
    static let subject = "Fix\u{1B}]52;c;cHduZWQ=\u{07} typo\u{9B}2J\u{202E}gpj.exe"
    static let shown = "Fix\\e]52;c;cHduZWQ=\\x07 typo\\u{9B}2J\\u{202E}gpj.exe"

    /// The control characters left in what `grid` sends to a terminal once the frame's own CSI sequences are removed.
    private func controlsSent(_ grid: CellGrid) throws -> [UInt32] {
        var buffer = FrameBuffer(capability: .truecolor)
        let written = buffer.update(to: grid)
        let own = try NSRegularExpression(pattern: "\u{1B}\\[[0-9;?]*[A-Za-z]")
        let rest = own.stringByReplacingMatches(in: written, range: NSRange(written.startIndex..., in: written), withTemplate: "")
        return rest.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) }.map(\.value)
    }

    func testGivenAHostileCommitSubjectWhenTheHistoryBrowserIsDrawnThenItShowsTheEscapesAndSendsNone() throws {
        // Given a history whose newest commit came from a remote with a hostile subject
        var state = HistoryState()
        state.entries = [HistoryEntry(id: "4f2a9c81d3e0", message: Self.subject, author: "Mallory\u{1B}[8m", date: "2025-03-02"),
                         HistoryEntry(id: "9b1c77e0aa01", message: "Outline acts", author: "Ada", date: "2025-03-01")]
        state.loading = false
        state.exhausted = true
        _ = state.followSelection()
        // When the browser is drawn
        let grid = Screens.history(state, title: "The Lighthouse", width: 160, height: 12)
        // Then the list and the detail pane show the subject's escapes, and no control reaches the terminal
        let text = grid.plainText()
        XCTAssertTrue(text.contains(Self.shown), text)
        XCTAssertTrue(text.contains("Mallory\\e[8m"), text)
        XCTAssertEqual(try controlsSent(grid), [])
    }

    func testGivenAHostileCommitSubjectWhenTheEditorIsDrawnThenItsStatusLineShowsTheEscapesAndSendsNone() throws {
        // Given an editor whose document's newest commit has the hostile subject
        let state = EditorState(path: "stories/the-lighthouse", title: "The Lighthouse", contentType: "org.folio.story",
                                commitID: "4f2a9c81d3e0b7aa", commitMessage: Self.subject, commands: FakeEditor().commands())
        // When it is drawn
        let grid = Screens.editor(state, view: FakeEditor(), width: 120, height: 14)
        // Then the subject is shown with visible escapes, and no control reaches the terminal
        XCTAssertTrue(grid.plainText().contains(Self.shown), grid.plainText())
        XCTAssertEqual(try controlsSent(grid), [])
    }
}
