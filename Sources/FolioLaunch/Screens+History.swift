import FolioTerminal

extension Screens {
    /// The history browser: commits newest first (more load as the selection nears the end), and the selected
    /// commit's diff.
    public static func history(_ state: HistoryState, title: String, width: Int, height: Int, tick: Int = 0) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        chrome(&grid, title: "History — \(title)", right: state.compareMark.map { "comparing with \($0.prefix(7))" } ?? "",
               hints: "↑↓ select · ⏎ diff · r restore · t tag · c compare · esc back")
        let listWidth = width >= 70 ? width / 2 : width
        let bottom = height - 1
        var y = 1
        if let error = state.error { grid.put(" ✗ " + error, x: 0, y: y, style: theme.error, maxWidth: listWidth); y += 1 }
        let room = max(0, bottom - y - (state.loading ? 1 : 0))
        let first = max(0, min(state.selection - room + 1, state.entries.count - room))
        for (offset, entry) in state.entries.dropFirst(first).prefix(room).enumerated() {
            let index = first + offset
            let selected = index == state.selection
            let style = selected ? theme.selected : theme.action
            grid.put(String(repeating: " ", count: max(0, listWidth - 1)), x: 0, y: y, style: style)
            grid.put(entry.compareMarkSymbol(state.compareMark), x: 0, y: y, style: theme.key)
            grid.put(entry.shortID, x: 2, y: y, style: selected ? style : CellStyle(foreground: .named(.yellow)))
            var message = entry.message
            if !entry.tags.isEmpty { message = "(" + entry.tags.joined(separator: ", ") + ") " + message }
            let dateWidth = listWidth >= 50 ? DisplayWidth.width(of: entry.date) : 0
            grid.put(message, x: 10, y: y, style: style, maxWidth: max(0, listWidth - 12 - dateWidth))
            if dateWidth > 0 { grid.put(entry.date, x: listWidth - dateWidth - 2, y: y, style: selected ? style : theme.subtitle) }
            y += 1
        }
        if state.loading, y < bottom { grid.put(" \(Spinner.frame(tick)) loading older commits…", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth) }
        else if state.exhausted, y < bottom, !state.entries.isEmpty { grid.put("   — first commit —", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth) }
        if listWidth < width {
            vline(&grid, x: listWidth, from: 1, to: bottom)
            let x = listWidth + 2, paneWidth = width - x - 1
            var py = 1
            if state.entries.indices.contains(state.selection) {
                let entry = state.entries[state.selection]
                grid.put(entry.message, x: x, y: py, style: theme.title, maxWidth: paneWidth); py += 1
                grid.put("\(entry.shortID) · \(entry.author) · \(entry.date)", x: x, y: py, style: theme.subtitle, maxWidth: paneWidth); py += 2
            }
            for line in state.diff where py < bottom {
                let style: CellStyle = line.hasPrefix("+") ? theme.success : line.hasPrefix("-") ? theme.error : line.hasPrefix("@@") ? theme.key : .plain
                grid.put(line, x: x, y: py, style: style, maxWidth: paneWidth)
                py += 1
            }
        }
        return grid
    }
}

extension HistoryEntry {
    func compareMarkSymbol(_ mark: String?) -> String { mark == id ? "◆" : " " }
}
