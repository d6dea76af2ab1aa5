/// A double buffer: remembers the frame on screen and emits only the bytes that turn it into the next one.
public struct FrameBuffer: Sendable {
    /// The frame currently on the terminal, nil before the first draw or after `invalidate()`.
    public private(set) var current: CellGrid?
    /// The color capability escape sequences are written for.
    public var capability: ColorCapability
    /// Whether to wrap each update in synchronized-output mode (`CSI ? 2026 h` … `CSI ? 2026 l`).
    public var synchronized: Bool

    public init(capability: ColorCapability, synchronized: Bool = true) {
        self.capability = capability
        self.synchronized = synchronized
    }

    /// Forgets the frame on screen so the next update redraws everything (after a resize or a resume).
    public mutating func invalidate() { current = nil }

    /// The bytes that draw `next` over the current frame: changed cells only, with minimal cursor moves;
    /// empty when nothing changed. A size change or the first frame clears and draws everything.
    ///
    /// Two rules keep the terminal equal to the frame even where the terminal measures a character differently
    /// from `DisplayWidth` (ambiguous-width symbols, new emoji): after any non-ASCII character the next cell is
    /// reached with an absolute move, never a relative one; and a row whose end became blank is cleared to its end
    /// with erase-in-line, so a shorter line that replaces a longer one (a status line, a message) leaves nothing
    /// of the old one.
    public mutating func update(to next: CellGrid) -> String {
        var out = ""
        let previous = current.flatMap { $0.width == next.width && $0.height == next.height ? $0 : nil }
        if previous == nil { out += "\u{1B}[0m\u{1B}[2J" }
        var cursor: (x: Int, y: Int)? = nil
        var pen = CellStyle.plain
        for y in 0..<next.height {
            let tail = Self.blankTail(of: next, y: y)
            for x in 0..<tail {
                let cell = next[x, y]
                if cell.isContinuation { continue }
                if let previous, previous[x, y] == cell, !(x + 1 < next.width && previous[x + 1, y] != next[x + 1, y] && next[x + 1, y].isContinuation) {
                    continue
                }
                out += Self.move(from: cursor, to: (x, y))
                let style = capability == .none ? .plain : cell.style.downgraded(to: capability)
                if style != pen { out += style.sgr(for: capability); pen = style }
                out += cell.grapheme
                let advance = x + 1 < next.width && next[x + 1, y].isContinuation ? 2 : 1
                cursor = cell.grapheme.utf8.allSatisfy({ $0 < 0x7F }) ? (x + advance, y) : nil
            }
            // The blank end of the row: erased in one go when anything there changed (or the terminal was cleared).
            if tail < next.width, let previous, (tail..<next.width).contains(where: { previous[$0, y] != next[$0, y] }) {
                out += Self.move(from: cursor, to: (tail, y))
                if pen != .plain, capability != .none { out += "\u{1B}[0m"; pen = .plain }
                out += "\u{1B}[K"
                cursor = (tail, y)
            }
        }
        current = next
        if out.isEmpty { return "" }
        if pen != .plain, capability != .none { out += "\u{1B}[0m" }
        return synchronized ? "\u{1B}[?2026h" + out + "\u{1B}[?2026l" : out
    }

    /// The first column from which row `y` is plain blanks to its end (the width when it does not end so).
    static func blankTail(of grid: CellGrid, y: Int) -> Int {
        var x = grid.width
        while x > 0, grid[x - 1, y] == Cell() { x -= 1 }
        return x
    }

    /// The shortest cursor movement from `from` (unknown when nil) to `to` (0-based).
    static func move(from: (x: Int, y: Int)?, to: (x: Int, y: Int)) -> String {
        if let from, from.y == to.y {
            if from.x == to.x { return "" }
            let delta = to.x - from.x
            if delta > 0 { return delta == 1 ? "\u{1B}[C" : "\u{1B}[\(delta)C" }
            return "\u{1B}[\(to.x + 1)G"
        }
        if to.x == 0, to.y == 0 { return "\u{1B}[H" }
        return "\u{1B}[\(to.y + 1);\(to.x + 1)H"
    }
}
