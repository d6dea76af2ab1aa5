/// How a cell is drawn: colors and attributes.
public struct CellStyle: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(foreground: TerminalColor = .default, background: TerminalColor = .default,
                bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground; self.background = background
        self.bold = bold; self.dim = dim; self.reverse = reverse; self.underline = underline
    }

    /// The default style: terminal colors, no attributes.
    public static let plain = CellStyle()

    /// This style with every color downgraded to what `capability` can show.
    public func downgraded(to capability: ColorCapability) -> CellStyle {
        if capability == .none { return .plain }
        var copy = self
        copy.foreground = foreground.downgraded(to: capability)
        copy.background = background.downgraded(to: capability)
        return copy
    }

    /// The SGR sequence that sets exactly this style from any previous one (starts with a reset).
    public func sgr(for capability: ColorCapability) -> String {
        if capability == .none { return "" }
        let style = downgraded(to: capability)
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        codes.append(contentsOf: Self.colorCodes(style.foreground, background: false))
        codes.append(contentsOf: Self.colorCodes(style.background, background: true))
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    static func colorCodes(_ color: TerminalColor, background: Bool) -> [String] {
        switch color {
        case .default: return []
        case let .named(named):
            let base = named.rawValue < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            return [String(base + named.rawValue % 8)]
        case let .indexed(index): return [background ? "48" : "38", "5", String(index)]
        case let .rgb(r, g, b): return [background ? "48" : "38", "2", String(r), String(g), String(b)]
        }
    }
}

/// One terminal cell: a grapheme cluster (empty for the right half of a wide character) and its style.
public struct Cell: Hashable, Sendable {
    public var grapheme: String
    public var style: CellStyle
    public init(_ grapheme: String = " ", style: CellStyle = .plain) { self.grapheme = grapheme; self.style = style }
    /// Whether this cell is the right half of a wide character drawn in the cell to its left.
    public var isContinuation: Bool { grapheme.isEmpty }
}

/// A rectangle of cells, in columns and rows.
public struct Rect: Hashable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    public var minX: Int { x }
    public var minY: Int { y }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var midX: Int { x + width / 2 }
    public var midY: Int { y + height / 2 }
    /// Whether the two rectangles share a cell.
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY && width > 0 && height > 0 && other.width > 0 && other.height > 0
    }
    /// Whether `other` lies entirely inside this rectangle.
    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }
    /// This rectangle grown by `dx` columns and `dy` rows on each side.
    public func insetBy(dx: Int, dy: Int) -> Rect { Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy) }
}

/// A screen's worth of cells; wide characters occupy two cells. Drawing is clipped to the grid, never traps.
public struct CellGrid: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int, fill: Cell = Cell()) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// The cell at column `x`, row `y`; a blank cell outside the grid.
    public subscript(x: Int, y: Int) -> Cell {
        get { contains(x, y) ? cells[y * width + x] : Cell() }
        set { if contains(x, y) { cells[y * width + x] = newValue } }
    }

    func contains(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    /// The whole grid as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Draws `text` on one line from column `x`, clipped to the grid and truncated with "…" to `maxWidth`;
    /// a `.default` background keeps the background already there. Returns the column after the last cell written.
    /// This is where every screen's text becomes cells, so it is where untrusted text is made safe: control
    /// characters (C0 with newline and tab, DEL, C1) and bidi controls are drawn as their visible escapes
    /// (`TerminalText.visible`: `\e`, `\n`, `\u{202E}`…), never sent to the terminal or silently dropped.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil) -> Int {
        let shown = TerminalText.visible(text)
        let text = maxWidth.map { DisplayWidth.truncate(shown, to: $0) } ?? shown
        guard y >= 0, y < height else { return x + DisplayWidth.width(of: text) }
        let limit = maxWidth.map { x + max(0, $0) } ?? Int.max
        var column = x
        for (grapheme, w) in DisplayWidth.clusters(text) {
            if w == 0 {
                // Zero-width clusters (lone combining marks) join the previous cell when there is one.
                if column - 1 >= 0, column - 1 < width, column <= limit {
                    var previous = self[column - 1, y]
                    if previous.isContinuation, column - 2 >= 0 { previous = self[column - 2, y]; previous.grapheme += grapheme; self[column - 2, y] = previous }
                    else { previous.grapheme += grapheme; self[column - 1, y] = previous }
                }
                continue
            }
            if column + w > limit { break }
            if column >= 0, column + w <= width {
                set(column, y, grapheme: grapheme, style: style)
                if w == 2 { set(column + 1, y, grapheme: "", style: style) }
            } else if column >= 0, column < width {
                // A wide character cut by the right edge shows as a blank.
                set(column, y, grapheme: " ", style: style)
            }
            column += w
        }
        return column
    }

    private mutating func set(_ x: Int, _ y: Int, grapheme: String, style: CellStyle) {
        guard contains(x, y) else { return }
        // Overwriting half of a wide character blanks its other half.
        let old = self[x, y]
        if old.isContinuation, x > 0, grapheme != "" { self[x - 1, y].grapheme = " " }
        if !old.isContinuation, x + 1 < width, self[x + 1, y].isContinuation, grapheme == " " || DisplayWidth.width(of: grapheme) < 2 {
            self[x + 1, y].grapheme = " "
        }
        var resolved = style
        if style.background == .default { resolved.background = old.style.background }
        self[x, y] = Cell(grapheme, style: resolved)
    }

    /// Fills `rect` (clipped) with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell) {
        for row in max(0, rect.minY)..<max(max(0, rect.minY), min(height, rect.maxY)) {
            for column in max(0, rect.minX)..<max(max(0, rect.minX), min(width, rect.maxX)) { self[column, row] = cell }
        }
    }

    /// Sets the background color of the cells in `rect`, keeping their text.
    public mutating func paintBackground(_ rect: Rect, _ color: TerminalColor) {
        for row in max(0, rect.minY)..<max(max(0, rect.minY), min(height, rect.maxY)) {
            for column in max(0, rect.minX)..<max(max(0, rect.minX), min(width, rect.maxX)) { self[column, row].style.background = color }
        }
    }

    /// The text of row `y`, trailing spaces trimmed.
    public func line(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var text = ""
        for x in 0..<width { text += cells[y * width + x].grapheme }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The grid as plain text: one line per row, trailing spaces trimmed, rows separated by newlines.
    public func plainText() -> String {
        (0..<height).map(line).joined(separator: "\n")
    }

    /// The grid as text with SGR styling for `capability`, one line per row, each ending with a reset.
    public func ansiText(capability: ColorCapability) -> String {
        if capability == .none { return plainText() }
        var lines: [String] = []
        for y in 0..<height {
            var text = ""
            var pen: CellStyle? = nil
            for x in 0..<width {
                let cell = cells[y * width + x]
                if cell.isContinuation { continue }
                let style = cell.style.downgraded(to: capability)
                if style != pen { text += style.sgr(for: capability); pen = style }
                text += cell.grapheme
            }
            lines.append(text + "\u{1B}[0m")
        }
        return lines.joined(separator: "\n")
    }
}

extension CellGrid {
    /// Replaces row `y` with `text`: every cell of the row is blanked first, so nothing of the line it replaces is
    /// left beside a shorter one (status lines, messages, prompts). The text is truncated to the width.
    public mutating func putLine(_ text: String, y: Int, style: CellStyle = .plain) {
        guard y >= 0, y < height else { return }
        fill(Rect(x: 0, y: y, width: width, height: 1), with: Cell(" ", style: CellStyle(background: style.background)))
        put(text, x: 0, y: y, style: style, maxWidth: width)
    }
}
