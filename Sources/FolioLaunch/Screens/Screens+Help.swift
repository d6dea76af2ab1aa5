import FolioTerminal

extension Screens {
    /// The rows of help lines the overlay has on a screen `height` rows high.
    static func helpRows(height: Int) -> Int { max(1, height - 4) }

    /// One drawn row of the help overlay: a line's keys (on its first row only) and a piece of its text.
    package struct HelpRow: Equatable, Sendable {
        package var keys: String
        package var text: String
        package var heading: Bool
    }

    /// The help box's width and its keys column's on a screen `width` cells wide.
    static func helpBox(_ lines: [HelpLine], width: Int) -> (box: Int, keys: Int) {
        let keysWidth = min(14, (lines.filter { !$0.heading }.map { DisplayWidth.width(of: $0.keys) }.max() ?? 0))
        let natural = (lines.map { DisplayWidth.width(of: $0.text) + ($0.heading ? 0 : keysWidth + 3) }.max() ?? 0) + 4
        return (min(width - 2, max(36, natural)), keysWidth)
    }

    /// The help lines as drawn on a screen `width` cells wide: text too long for the box wraps onto rows of its own
    /// under the text column (never cut), and keys wider than their column take a row of their own.
    package static func helpDisplayRows(_ lines: [HelpLine], width: Int) -> [HelpRow] {
        let (box, keysWidth) = helpBox(lines, width: width)
        var rows: [HelpRow] = []
        for line in lines {
            if line.heading {
                rows += HistoryLayout.wrapWords(line.text, width: max(1, box - 3)).map { HelpRow(keys: "", text: $0, heading: true) }
                continue
            }
            var keys = line.keys
            if DisplayWidth.width(of: keys) > keysWidth { rows.append(HelpRow(keys: keys, text: "", heading: false)); keys = "" }
            let pieces = HistoryLayout.wrapWords(line.text, width: max(1, box - keysWidth - 5))
            for (index, piece) in pieces.enumerated() { rows.append(HelpRow(keys: index == 0 ? keys : "", text: piece, heading: false)) }
        }
        return rows
    }

    /// The help overlay: a box over the screen listing `lines` (wrapped), from drawn row `scroll`, with the position
    /// when more are above or below and, when typed, the filter in its title.
    package static func help(_ lines: [HelpLine], scroll: Int, filter: String = "", into grid: inout CellGrid) {
        let (boxWidth, keysWidth) = helpBox(lines, width: grid.width)
        let drawn = helpDisplayRows(lines, width: grid.width)
        let rows = min(helpRows(height: grid.height), drawn.count)
        let boxHeight = rows + 2
        guard boxWidth > 8, rows > 0 else { return }
        let x = (grid.width - boxWidth) / 2, y = max(1, (grid.height - boxHeight) / 2)
        let first = max(0, min(scroll, drawn.count - rows))
        grid.fill(Rect(x: x, y: y, width: boxWidth, height: boxHeight), with: Cell())
        let title = filter.isEmpty ? "╭─ Keys " : "╭─ Keys matching “\(DisplayWidth.truncate(filter, to: max(1, boxWidth / 3)))” "
        let position = drawn.count > rows ? " \(first + 1)–\(first + rows) of \(drawn.count) ↑↓ " : ""
        grid.put(title + String(repeating: "─", count: max(0, boxWidth - DisplayWidth.width(of: title) - DisplayWidth.width(of: position) - 1)) + position + "╮",
                 x: x, y: y, style: theme.border, maxWidth: boxWidth)
        for (offset, line) in drawn.dropFirst(first).prefix(rows).enumerated() {
            let row = y + 1 + offset
            grid.put("│", x: x, y: row, style: theme.border)
            grid.put("│", x: x + boxWidth - 1, y: row, style: theme.border)
            if line.heading {
                grid.put(" " + line.text, x: x + 1, y: row, style: theme.heading, maxWidth: boxWidth - 2)
            } else if line.text.isEmpty {
                grid.put(" " + line.keys, x: x + 1, y: row, style: theme.key, maxWidth: boxWidth - 2)
            } else {
                grid.put(" " + DisplayWidth.pad(line.keys, to: keysWidth), x: x + 1, y: row, style: theme.key)
                grid.put(line.text, x: x + keysWidth + 4, y: row, style: theme.action, maxWidth: max(0, boxWidth - keysWidth - 5))
            }
        }
        let close = boxWidth >= 40 ? " type to filter · esc closes " : " esc closes "
        grid.put("╰" + String(repeating: "─", count: max(0, boxWidth - 2 - DisplayWidth.width(of: close))) + close + "╯", x: x, y: y + boxHeight - 1, style: theme.border)
    }

    /// What goes over any screen: the help overlay and a question waiting for its answer.
    package static func decorate(_ grid: inout CellGrid, state: AppState, scene: LaunchScene) {
        decorateTabs(&grid, state: state)
        if state.helpOpen { help(state.shownHelpLines(scene: scene), scroll: state.helpScroll, filter: state.helpFilter.text, into: &grid) }
        if state.messageLogOpen { messageLog(state.messageLog, scroll: state.messageLogScroll, into: &grid) }
        if let question = state.confirming, grid.height > 0 {
            grid.putLine(" ? " + question.question, y: grid.height - 1, style: CellStyle(foreground: .named(.yellow), bold: true))
        }
    }
}
