import FolioTerminal

extension Screens {
    /// The history browser: commits newest first (more load as the selection nears the end), and the selected
    /// commit's diff beside them; on a narrow terminal the list alone, or the diff full-screen once opened.
    public static func history(_ state: HistoryState, title: String, width: Int, height: Int, tick: Int = 0) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        let layout = HistoryLayout(width: width, height: height)
        let fullScreen = !layout.split && state.focus == .diff
        chrome(&grid, title: state.item.map { "History of item \($0.key) — \(title)" } ?? "History — \(title)", right: state.compareMark.map { "comparing with \($0.prefix(7))" } ?? "",
               hints: historyHints(state, split: layout.split, fullScreen: fullScreen))
        if fullScreen {
            historyDiffPane(&grid, state, x: layout.diffX(fullScreen: true), width: layout.diffWidth(fullScreen: true), bottom: height - 1, tick: tick)
            return grid
        }
        historyList(&grid, state, width: layout.listWidth, bottom: height - 1, tick: tick)
        if layout.split {
            vline(&grid, x: layout.listWidth, from: 1, to: height - 1)
            historyDiffPane(&grid, state, x: layout.diffX(fullScreen: false), width: layout.diffWidth(fullScreen: false), bottom: height - 1, tick: tick)
        }
        return grid
    }

    static func historyHints(_ state: HistoryState, split: Bool, fullScreen: Bool) -> String {
        let wrap = state.wrap ? "w unwrap" : "w wrap · ←→ scroll"
        if fullScreen { return "↑↓ j/k PgUp/PgDn scroll · \(wrap) · esc list" }
        if state.focus == .diff { return "↑↓ j/k PgUp/PgDn scroll · \(wrap) · tab list · esc list" }
        let restore = state.item == nil ? "r restore" : "i bring this item back · r restore all"
        return (split ? "↑↓ select · tab/⏎ diff · PgUp/PgDn scroll" : "↑↓ · ⏎ diff") + " · \(restore) · t tag · c compare · esc back"
    }

    /// The commit list, with an error wrapped above it.
    static func historyList(_ grid: inout CellGrid, _ state: HistoryState, width listWidth: Int, bottom: Int, tick: Int) {
        var y = 1
        if let error = state.error {
            for line in HistoryLayout.wrapWords("✗ " + error, width: max(1, listWidth - 2)).prefix(max(0, bottom - y - 1)) {
                grid.put(" " + line, x: 0, y: y, style: theme.error, maxWidth: listWidth)
                y += 1
            }
        }
        let room = max(0, bottom - y - (state.loading ? 1 : 0))
        let first = max(0, min(state.selection - room + 1, state.entries.count - room))
        for (offset, entry) in state.entries.dropFirst(first).prefix(room).enumerated() {
            let index = first + offset
            let selected = index == state.selection
            var style = selected ? theme.selected : theme.action
            if selected, state.focus == .diff { style.reverse = false; style.bold = true }
            grid.put(String(repeating: " ", count: max(0, listWidth - 1)), x: 0, y: y, style: style)
            grid.put(entry.compareMarkSymbol(state.compareMark), x: 0, y: y, style: theme.key)
            grid.put(entry.shortID, x: 2, y: y, style: selected ? style : CellStyle(foreground: .named(.yellow)))
            var message = entry.message
            if !entry.tags.isEmpty { message = "(" + entry.tags.joined(separator: ", ") + ") " + message }
            let dateWidth = listWidth >= 50 ? DisplayWidth.width(of: entry.date) : 0
            grid.put(message, x: 10, y: y, style: style, maxWidth: max(0, listWidth - 12 - dateWidth - (dateWidth > 0 ? 1 : 0)))
            if dateWidth > 0 { grid.put(entry.date, x: listWidth - dateWidth - 2, y: y, style: selected ? style : theme.subtitle) }
            y += 1
        }
        if state.loading, y < bottom { grid.put(" \(Spinner.frame(tick)) loading older commits…", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth) }
        else if state.exhausted, y < bottom, !state.entries.isEmpty { grid.put("   — first commit —", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth) }
    }

    /// The diff pane: what it describes, who described it, and the lines — never another commit's diff under this
    /// header (then "loading…").
    static func historyDiffPane(_ grid: inout CellGrid, _ state: HistoryState, x: Int, width: Int, bottom: Int, tick: Int) {
        var y = 1
        func line(_ text: String, _ style: CellStyle) {
            guard y < bottom else { return }
            grid.put(text, x: x, y: y, style: style, maxWidth: width)
            y += 1
        }
        switch state.wanted {
        case let .compare(a, b)?:
            line("Changes from \(a.prefix(7)) to \(b.prefix(7))", theme.title)
            line("", .plain)
        case .commit?, nil:
            guard let id = state.selectedID, let entry = state.entries.first(where: { $0.id == id }) else { return }
            line(entry.message, theme.title)
            line("\(entry.shortID) · \(entry.author) · \(entry.date)", theme.subtitle)
        }
        if let problem = state.diffError {
            for row in HistoryLayout.wrapWords("✗ " + problem, width: width) { line(row, theme.error) }
            return
        }
        guard state.diffIsCurrent else { line("\(Spinner.frame(tick)) loading…", theme.subtitle); return }
        // Why there is no semantic diff can be long (a plugin's error): wrapped, never cut.
        for row in HistoryLayout.wrapWords(diffKindLabel(state.diffKind), width: width) { line(row, theme.subtitle) }
        if state.diff.isEmpty { line("(no changes)", theme.subtitle); return }
        for row in state.diffRows(width: width, from: state.diffScroll, count: max(0, bottom - y)) {
            guard y < bottom else { break }
            let style: CellStyle = row.hasPrefix("+") ? theme.success : row.hasPrefix("-") ? theme.error : row.hasPrefix("@@") ? theme.key : .plain
            line(state.wrap ? row : HistoryLayout.dropCells(row, state.diffColumn), style)
        }
    }

    static func diffKindLabel(_ kind: HistoryDiff.Kind?) -> String {
        switch kind {
        case .semantic?: return "semantic diff"
        case let .text(note?)?: return "text diff — \(note)"
        case .text(nil)?, nil: return "text diff"
        }
    }
}

extension HistoryEntry {
    func compareMarkSymbol(_ mark: String?) -> String { mark == id ? "◆" : " " }
}
