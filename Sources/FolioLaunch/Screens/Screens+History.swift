import FolioTerminal

extension Screens {
    /// The history browser: commits newest first (more load as the selection nears the end), and the selected
    /// commit's diff beside them; on a narrow terminal the list alone, or the diff full-screen once opened.
    package static func history(_ state: HistoryState, title: String, width: Int, height: Int, tick: Int = 0) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        if state.preview.shown { return historyWithPreview(state, title: title, width: width, height: height, tick: tick) }
        let layout = HistoryLayout(width: width, height: height)
        let fullScreen = !layout.split && state.focus == .diff
        chrome(&grid, title: state.item.map { "History of item \($0.key) — \(title)" } ?? "History — \(title)", right: state.compareMark.map { "comparing with \($0.prefix(7))" } ?? state.timeline.total.map { "\($0) versions" } ?? "",
               hints: historyHints(state, split: layout.split, fullScreen: fullScreen))
        historyFooter(&grid, state)
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
        return historyListHints(state, split: split)
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
        historyTimelineList(&grid, state, y: y, width: listWidth, bottom: bottom, tick: tick)
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
            let number = state.entries.indices.contains(state.selection) && state.entries[state.selection].id == id ? state.number(ofEntry: state.selection) : nil
            line((number.map { "@\($0) · " } ?? "") + "\(entry.shortID) · \(entry.author) · \(entry.date)", theme.subtitle)
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
