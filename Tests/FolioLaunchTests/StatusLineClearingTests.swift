import FolioCore
import XCTest
@testable import FolioLaunch
@testable import FolioTerminal

/// A line replaced by a shorter one leaves nothing of the old one, on the grid and on the terminal.
final class StatusLineClearingTests: XCTestCase {
    /// What a terminal shows after `bytes`: a tiny emulator of the sequences FrameBuffer writes (CUP, CHA, CUF, EL,
    /// ED, SGR ignored), one cell per character, like the frame's own measure.
    func screen(after outputs: [String], width: Int, height: Int) -> [String] {
        var rows = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        var x = 0, y = 0
        for output in outputs {
            var characters = Array(output)[...]
            while let c = characters.first {
                characters = characters.dropFirst()
                guard c == "\u{1B}" else {
                    if y < height, x < width { rows[y][x] = c }
                    x += DisplayWidth.width(of: String(c)) == 2 ? 2 : 1
                    continue
                }
                guard characters.first == "[" else { continue }
                characters = characters.dropFirst()
                var parameters = ""
                while let p = characters.first, p.isNumber || p == ";" || p == "?" { parameters.append(p); characters = characters.dropFirst() }
                guard let final = characters.first else { break }
                characters = characters.dropFirst()
                let numbers = parameters.split(separator: ";").compactMap { Int($0) }
                switch final {
                case "H": y = (numbers.first ?? 1) - 1; x = (numbers.count > 1 ? numbers[1] : 1) - 1
                case "G": x = (numbers.first ?? 1) - 1
                case "C": x += numbers.first ?? 1
                case "K": if y < height { for column in x..<width { rows[y][column] = " " } }
                case "J": rows = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
                default: break
                }
            }
        }
        return rows.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    func testGivenALongStatusLineWhenAShorterMessageReplacesItThenTheTerminalShowsOnlyTheMessage() {
        // Given a frame whose last row is a long status line
        var buffer = FrameBuffer(capability: .ansi16, synchronized: false)
        var first = CellGrid(width: 40, height: 2)
        first.putLine(" Groceries · org.folio.checklist  4f2a9c8 Add", y: 1, style: CellStyle(reverse: true))
        let before = buffer.update(to: first)
        // When the next frame puts a shorter message there
        var second = CellGrid(width: 40, height: 2)
        second.putLine(" ✗ ACT is needed", y: 1, style: CellStyle(foreground: .named(.red)))
        let after = buffer.update(to: second)
        // Then nothing of the old line is left on the terminal, and the tail was erased in one sequence
        XCTAssertEqual(screen(after: [before, after], width: 40, height: 2)[1], " ✗ ACT is needed")
        XCTAssertTrue(after.contains("\u{1B}[K"))
    }

    func testGivenAMessageOverAStatusLineWhenDrawnWithPutLineThenTheOldTextBesideItIsGone() {
        var grid = CellGrid(width: 30, height: 1)
        grid.put(String(repeating: "x", count: 30), x: 0, y: 0)
        grid.putLine("short", y: 0)
        XCTAssertEqual(grid.line(0), "short")
    }

    func testGivenTheEditorPromptWithAMessageWhenDrawnThenTheStatusRowHoldsOnlyTheMessage() {
        var editor = EditorState(path: "s", title: "Story", contentType: "org.folio.story", commitID: "4f2a9c8aaaa", commitMessage: "Add the stairs scene",
                                 commands: [EditorCommand(id: "add-act", title: "Add act", shortcut: "A", usage: "add-act ACT")])
        editor.prompt = EditorPrompt(command: editor.commands[0], values: [nil], names: ["ACT"], text: "", asking: 0)
        editor.message = .failure("ACT is needed (esc cancels)")
        let grid = Screens.editor(editor, view: FakeEditor(), width: 60, height: 10)
        XCTAssertEqual(grid.line(8), " ✗ ACT is needed (esc cancels)", "no commit text left beside it")
    }

    func testGivenF1SequencesWhenDecodedThenF1() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}OP".utf8)), [.f1])
        XCTAssertEqual(decoder.feed(Array("\u{1B}[11~".utf8)), [.f1])
    }
}
