import FolioTerminal

/// One line of editable text: the text, a cursor between characters and a horizontal scroll, measured in terminal
/// cells with `DisplayWidth` (wide CJK and emoji are two cells; a tab and a kept newline show as one cell).
/// Pure: keys go in, the field comes out; drawing is a function of the field and the room it has.
package struct TextField: Equatable, Sendable {
    /// The text, as typed or pasted.
    package private(set) var text: String
    /// The cursor: how many characters (grapheme clusters) are before it, 0…`text.count`.
    package private(set) var cursor: Int
    /// The first cell shown when the text is wider than its box (kept so the view does not jump while editing).
    package var scroll: Int = 0
    /// Whether the text is a default or a suggestion not edited yet: it is shown dim and the first character typed
    /// or pasted replaces it (moving or deleting edits it instead, as the text it is).
    package private(set) var isSuggested = false

    package init(_ text: String = "", cursor: Int? = nil) {
        self.text = text
        self.cursor = min(max(0, cursor ?? text.count), text.count)
    }

    /// The field as a secret shows it: a `•` for each character, the cursor and scroll where they are.
    package var masked: TextField {
        var shown = TextField(String(repeating: "•", count: text.count), cursor: cursor)
        shown.scroll = scroll
        shown.isSuggested = isSuggested
        return shown
    }

    /// A field holding `text` as a suggestion (a default, a current value): dim until edited, replaced by typing.
    package static func suggesting(_ text: String) -> TextField {
        var field = TextField(text)
        field.isSuggested = !text.isEmpty
        return field
    }

    /// An editing action of a text field, bound to keys in `bindings`.
    package enum Edit: Equatable, Sendable, CaseIterable {
        case left, right, home, end, deleteBackward, deleteForward, deleteWordBackward, deleteToStart, deleteToEnd
    }

    /// The keys every text field understands, with what they do: the table behind `handle(_:)` and the help overlay.
    package static let bindings: [(keys: [Key], edit: Edit, label: String, help: String)] = [
        ([.left], .left, "←", "move left"),
        ([.right], .right, "→", "move right"),
        ([.home, .ctrl("a")], .home, "Home ^A", "start of the line"),
        ([.end, .ctrl("e")], .end, "End ^E", "end of the line"),
        ([.backspace], .deleteBackward, "⌫", "delete before the cursor"),
        ([.delete], .deleteForward, "Del", "delete under the cursor"),
        ([.ctrl("w")], .deleteWordBackward, "^W", "delete the word before the cursor"),
        ([.ctrl("u")], .deleteToStart, "^U", "delete to the start"),
        ([.ctrl("k")], .deleteToEnd, "^K", "delete to the end"),
    ]

    /// The text replaced, cursor at its end.
    package mutating func set(_ newText: String) { text = newText; cursor = newText.count; scroll = 0; isSuggested = false }

    /// Applies `key` if it edits text: a printable character is inserted at the cursor, the keys of `bindings` move
    /// or delete. Returns false for any other key (the screen handles it).
    @discardableResult
    package mutating func handle(_ key: Key) -> Bool {
        if case let .character(character) = key { insert(String(character)); return true }
        guard let binding = Self.bindings.first(where: { $0.keys.contains(key) }) else { return false }
        apply(binding.edit)
        return true
    }

    /// Inserts `string` at the cursor and moves the cursor after it.
    package mutating func insert(_ string: String) {
        guard !string.isEmpty else { return }
        if isSuggested { set("") }
        let index = text.index(text.startIndex, offsetBy: cursor)
        let before = String(text[..<index]), after = String(text[index...])
        text = before + string + after
        // Counted after joining: a combining mark typed after a letter joins its cluster.
        cursor = min(text.count, max(0, text.count - after.count))
    }

    package mutating func apply(_ edit: Edit) {
        isSuggested = false
        switch edit {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = text.count
        case .deleteBackward: if cursor > 0 { remove(cursor - 1..<cursor) }
        case .deleteForward: if cursor < text.count { remove(cursor..<cursor + 1) }
        case .deleteWordBackward: remove(wordStart()..<cursor)
        case .deleteToStart: remove(0..<cursor)
        case .deleteToEnd: remove(cursor..<text.count)
        }
    }

    /// Where the word before the cursor starts: spaces before the cursor, then the word.
    func wordStart() -> Int {
        let characters = Array(text)
        var index = cursor
        while index > 0, characters[index - 1].isWhitespace { index -= 1 }
        while index > 0, !characters[index - 1].isWhitespace { index -= 1 }
        return index
    }

    private mutating func remove(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let lower = text.index(text.startIndex, offsetBy: range.lowerBound), upper = text.index(text.startIndex, offsetBy: range.upperBound)
        text.removeSubrange(lower..<upper)
        cursor = range.lowerBound
    }

    // MARK: Drawing

    /// How one character shows in a one-line field: a kept newline as "⏎", a tab as a space, other control and bidi
    /// characters as their visible escapes (`TerminalText.visible`: `\e`, `\u{202E}`), as every screen shows them.
    static func shown(_ character: Character) -> String {
        if character == "\n" || character == "\r\n" || character == "\r" { return "⏎" }
        if character == "\t" { return " " }
        return TerminalText.visible(String(character))
    }

    /// The cells of each character as shown.
    func cells() -> [(shown: String, width: Int)] {
        text.map { character in
            let shown = Self.shown(character)
            return (shown, DisplayWidth.width(of: shown))
        }
    }

    /// The first cell shown in a box `width` cells wide: the stored scroll, moved just enough that the cursor (and a
    /// cell for it at the end of the text) is inside the box.
    package func visibleScroll(width: Int) -> Int { visibleScroll(width: width, cells: cells()) }

    func visibleScroll(width: Int, cells: [(shown: String, width: Int)]) -> Int {
        let column = cells.prefix(cursor).reduce(0) { $0 + $1.width }
        guard width > 1 else { return column }
        let cursorWidth = cursor < cells.count ? max(1, cells[cursor].width) : 1
        var start = min(max(0, scroll), column)
        if column + cursorWidth > start + width { start = column + cursorWidth - width }
        return max(0, start)
    }

    /// The cell column of the cursor from the start of the text.
    package var cursorColumn: Int { cells().prefix(cursor).reduce(0) { $0 + $1.width } }

    /// Keeps the cursor inside a box `width` cells wide from now on (the run loop calls it with the box's width).
    package mutating func reveal(width: Int) { scroll = visibleScroll(width: width) }

    /// What a box `width` cells wide shows: the text from the scroll (a wide character cut by either edge shows as a
    /// blank) and the cursor's column inside the box.
    package func window(width: Int, fromStart: Bool = false) -> (text: String, cursorX: Int) {
        guard width > 0 else { return ("", 0) }
        let cells = cells()
        let start = fromStart ? 0 : visibleScroll(width: width, cells: cells)
        var out = "", column = 0
        for cell in cells {
            let end = column + cell.width
            defer { column = end }
            if end <= start { continue }
            if column >= start + width { break }
            if column < start || end > start + width { out += String(repeating: " ", count: min(end, start + width) - max(column, start)); continue }
            out += cell.shown
        }
        return (out, cells.prefix(cursor).reduce(0) { $0 + $1.width } - start)
    }

    /// Draws the field in a box at (`x`, `y`) `width` cells wide; with `focused`, the cell under the cursor is shown
    /// reversed (a reversed blank after the text); without, the start of the text. A suggested text is dim.
    package func draw(into grid: inout CellGrid, x: Int, y: Int, width: Int, style: CellStyle = .plain, focused: Bool) {
        guard width > 0 else { return }
        var (shown, cursorX) = window(width: width, fromStart: !focused)
        if !focused, width > 1 {
            let whole = cells().map(\.shown).joined()
            if DisplayWidth.width(of: whole) > width { shown = DisplayWidth.truncate(whole, to: width) }  // the start, "…" where it goes on
        }
        var style = style
        if isSuggested { style.dim = true }
        grid.put(DisplayWidth.pad(shown, to: width), x: x, y: y, style: style)
        guard focused, cursorX >= 0, cursorX < width else { return }
        var cursorStyle = style
        cursorStyle.reverse.toggle()
        let cell = grid[x + cursorX, y]
        if cell.isContinuation { return }
        grid[x + cursorX, y] = Cell(cell.grapheme, style: cursorStyle)
        if grid[x + cursorX + 1, y].isContinuation, x + cursorX + 1 < grid.width { grid[x + cursorX + 1, y].style = cursorStyle }
    }
}
