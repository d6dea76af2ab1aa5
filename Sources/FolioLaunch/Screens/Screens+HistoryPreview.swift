import FolioTerminal

extension Screens {
    /// The history browser with the versions rendered (`v`): the list narrower on a wide terminal, then the selected
    /// version and the current one side by side (120 columns or more) or one of them (`o` switches), rows aligned
    /// and marked, and changed text word by word below.
    static func historyWithPreview(_ state: HistoryState, title: String, width: Int, height: Int, tick: Int) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        let layout = HistoryLayout(width: width, height: height)
        let fullScreen = !layout.split && state.focus == .diff
        chrome(&grid, title: "History — \(title)", right: state.compareMark.map { "comparing with \($0.prefix(7))" } ?? "",
               hints: previewHints(state, layout: layout, fullScreen: fullScreen))
        if !fullScreen {
            historyList(&grid, state, width: layout.previewListWidth, bottom: height - 1, tick: tick)
            guard layout.split else { return grid }
            vline(&grid, x: layout.previewListWidth, from: 1, to: height - 1)
        }
        historyPreviewPane(&grid, state, layout: layout, fullScreen: fullScreen, bottom: height - 1, tick: tick)
        return grid
    }

    static func previewHints(_ state: HistoryState, layout: HistoryLayout, fullScreen: Bool) -> String {
        let other = layout.sideBySide ? "" : " · o \(state.preview.side == .old ? "current" : "old")"
        let legend = " · + added - removed ~ changed ↕ moved"
        if fullScreen { return "↑↓ PgUp/PgDn scroll · v diff\(other) · esc list" + legend }
        if state.focus == .diff { return "↑↓ PgUp/PgDn scroll · v diff\(other) · tab list" + legend }
        return (layout.split ? "↑↓ PgUp/PgDn select · tab scroll" : "↑↓ · ⏎ open") + " · v diff\(other) · r restore · c compare · esc back" + legend
    }

    /// The preview pane: what it shows, the versions' titles, then the rows — never another version's rows under
    /// this header (then "loading…").
    static func historyPreviewPane(_ grid: inout CellGrid, _ state: HistoryState, layout: HistoryLayout, fullScreen: Bool, bottom: Int, tick: Int) {
        let x = layout.previewX(fullScreen: fullScreen), width = layout.previewWidth(fullScreen: fullScreen)
        var y = 1
        func line(_ text: String, _ style: CellStyle) {
            guard y < bottom else { return }
            grid.put(text, x: x, y: y, style: style, maxWidth: width)
            y += 1
        }
        let preview = state.preview
        let subject = preview.wanted
        if let subject, let new = subject.new {
            line("Versions \(subject.old.prefix(7)) and \(new.prefix(7)) as drawn", theme.title)
            line("", .plain)
        } else {
            guard let id = state.selectedID, let entry = state.entries.first(where: { $0.id == id }) else { return }
            line(entry.message, theme.title)
            line("\(entry.shortID) · \(entry.author) · \(entry.date)", theme.subtitle)
        }
        if let problem = preview.error {
            for row in HistoryLayout.wrapWords("✗ " + problem, width: width) { line(row, theme.error) }
            return
        }
        guard preview.isCurrent, let comparison = preview.comparison, let subject else { line("\(Spinner.frame(tick)) loading…", theme.subtitle); return }
        let columns = layout.previewColumns(fullScreen: fullScreen)
        previewTitles(&grid, subject: subject, comparison: comparison, side: preview.side, columns: columns, y: y)
        y += 1
        if let note = comparison.note { line(note, theme.subtitle) }
        let content = state.previewContent(width: width)
        for row in content.dropFirst(preview.scroll).prefix(max(0, bottom - y)) {
            guard y < bottom else { break }
            switch row {
            case let .pair(old, new, change):
                if columns.count == 2 {
                    grid.put("│", x: columns[0].x + columns[0].width, y: y, style: theme.border)
                    previewCell(&grid, old, change: change, column: columns[0], y: y)
                    previewCell(&grid, new, change: change, column: columns[1], y: y)
                } else {
                    previewCell(&grid, old ?? new, change: change, column: columns[0], y: y)
                }
            case let .text(runs):
                var column = x
                for run in runs { column = grid.put(run.text, x: column, y: y, style: wordStyle(run.kind), maxWidth: max(0, x + width - column)) }
            }
            y += 1
        }
        // The divider runs down to the bottom past the last row (the word-level diff rows span both columns).
        if columns.count == 2, content.dropFirst(preview.scroll).allSatisfy({ if case .pair = $0 { true } else { false } }) {
            vline(&grid, x: columns[0].x + columns[0].width, from: y, to: bottom)
        }
    }

    /// The versions' titles above their columns: which version each is, the current one named so.
    static func previewTitles(_ grid: inout CellGrid, subject: HistoryPreview.Subject, comparison: VersionComparison, side: HistoryPreview.Side,
                              columns: [(x: Int, width: Int)], y: Int) {
        let oldTitle = "\(comparison.oldID.prefix(7))" + (comparison.oldID == comparison.newID && subject.new == nil ? " (the current version)" : "")
        let newTitle = subject.new == nil ? "current \(comparison.newID.prefix(7))" : "\(comparison.newID.prefix(7))"
        if columns.count == 2 {
            grid.put("then: " + oldTitle, x: columns[0].x, y: y, style: theme.heading, maxWidth: columns[0].width)
            grid.put("│", x: columns[0].x + columns[0].width, y: y, style: theme.border)
            grid.put("now: " + newTitle, x: columns[1].x, y: y, style: theme.heading, maxWidth: columns[1].width)
        } else {
            let shown = side == .old ? "then: " + oldTitle : "now: " + newTitle
            let other = side == .old ? "o: " + newTitle : "o: " + oldTitle
            grid.put(shown + "  (" + other + ")", x: columns[0].x, y: y, style: theme.heading, maxWidth: columns[0].width)
        }
    }

    /// One version's row in its column: the change's mark in the gutter, then the row as the editor drew it.
    static func previewCell(_ grid: inout CellGrid, _ text: String?, change: RowChange?, column: (x: Int, width: Int), y: Int) {
        guard let text else { return }
        let style = change.map(changeStyle) ?? .plain
        if let change { grid.put(change.symbol, x: column.x, y: y, style: style) }
        grid.put(text, x: column.x + 2, y: y, style: style, maxWidth: max(0, column.width - 2))
    }

    static func changeStyle(_ change: RowChange) -> CellStyle {
        switch change {
        case .added: return theme.success
        case .removed: return theme.error
        case .changed: return CellStyle(foreground: .named(.yellow))
        case .moved: return theme.key
        }
    }

    static func wordStyle(_ kind: WordRun.Kind) -> CellStyle {
        switch kind {
        case .same: return .plain
        case .removed: return CellStyle(foreground: .named(.red), underline: false)
        case .added: return CellStyle(foreground: .named(.green), bold: true)
        }
    }
}
