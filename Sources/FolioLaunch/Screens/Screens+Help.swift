import FolioTerminal

extension Screens {
    /// The rows of help lines the overlay has on a screen `height` rows high.
    static func helpRows(height: Int) -> Int { max(1, height - 4) }

    /// The help overlay: a box over the screen listing `lines`, from `scroll`, with a note when more are above or
    /// below.
    package static func help(_ lines: [HelpLine], scroll: Int, into grid: inout CellGrid) {
        let keysWidth = min(14, (lines.filter { !$0.heading }.map { DisplayWidth.width(of: $0.keys) }.max() ?? 0))
        let natural = (lines.map { DisplayWidth.width(of: $0.text) + ($0.heading ? 0 : keysWidth + 3) }.max() ?? 0) + 4
        let boxWidth = min(grid.width - 2, max(36, natural))
        let rows = min(helpRows(height: grid.height), lines.count)
        let boxHeight = rows + 2
        guard boxWidth > 8, rows > 0 else { return }
        let x = (grid.width - boxWidth) / 2, y = max(1, (grid.height - boxHeight) / 2)
        let first = max(0, min(scroll, lines.count - rows))
        grid.fill(Rect(x: x, y: y, width: boxWidth, height: boxHeight), with: Cell())
        let title = "╭─ Keys "
        let position = lines.count > rows ? " \(first + 1)–\(first + rows) of \(lines.count) ↑↓ " : ""
        grid.put(title + String(repeating: "─", count: max(0, boxWidth - DisplayWidth.width(of: title) - DisplayWidth.width(of: position) - 1)) + position + "╮",
                 x: x, y: y, style: theme.border)
        for (offset, line) in lines.dropFirst(first).prefix(rows).enumerated() {
            let row = y + 1 + offset
            grid.put("│", x: x, y: row, style: theme.border)
            grid.put("│", x: x + boxWidth - 1, y: row, style: theme.border)
            if line.heading {
                grid.put(" " + line.text, x: x + 1, y: row, style: theme.heading, maxWidth: boxWidth - 2)
            } else {
                grid.put(" " + DisplayWidth.pad(line.keys, to: keysWidth), x: x + 1, y: row, style: theme.key)
                grid.put(line.text, x: x + keysWidth + 4, y: row, style: theme.action, maxWidth: max(0, boxWidth - keysWidth - 5))
            }
        }
        let close = " esc closes "
        grid.put("╰" + String(repeating: "─", count: max(0, boxWidth - 2 - DisplayWidth.width(of: close))) + close + "╯", x: x, y: y + boxHeight - 1, style: theme.border)
    }

    /// What goes over any screen: the help overlay and a question waiting for its answer.
    package static func decorate(_ grid: inout CellGrid, state: AppState, scene: LaunchScene) {
        decorateTabs(&grid, state: state)
        if state.helpOpen { help(state.helpLines(scene: scene), scroll: state.helpScroll, into: &grid) }
        if state.messageLogOpen { messageLog(state.messageLog, scroll: state.messageLogScroll, into: &grid) }
        if let question = state.confirming, grid.height > 0 {
            grid.putLine(" ? " + question.question, y: grid.height - 1, style: CellStyle(foreground: .named(.yellow), bold: true))
        }
    }
}
