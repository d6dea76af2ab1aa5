import FolioTerminal

extension Screens {
    /// The history list as a timeline: the filter line ("/ tea  12 of 340 versions") when filtering, a heading for
    /// each day ("── Today ──", "── Mon 30 Nov 2026 ──", the top version's day always shown), named versions with
    /// their tags set off, and the list scrolled so the selection is on screen.
    static func historyTimelineList(_ grid: inout CellGrid, _ state: HistoryState, y start: Int, width listWidth: Int, bottom: Int, tick: Int) {
        var y = start
        let timeline = state.timeline
        if timeline.filterField != nil || !timeline.filter.isEmpty, y < bottom {
            historyFilterLine(&grid, state, y: y, width: listWidth)
            y += 1
        }
        let visible = state.visible
        let searching = state.loading || (visible.isEmpty && !timeline.filter.isEmpty)
        let room = max(0, bottom - y - (searching ? 1 : 0))
        guard room > 0 || searching else { return }
        let position = state.selectedPosition(in: visible)
        let top = position.map { state.top(showing: $0, from: min(timeline.top, $0), room: room, visible: visible) } ?? min(timeline.top, max(0, visible.count - 1))
        let rows = state.rows(from: top, room: room, visible: visible)
        for row in rows {
            switch row {
            case let .day(day): historyDayRow(&grid, day: day, today: timeline.today, y: y, width: listWidth)
            case let .entry(index): historyEntryRow(&grid, state, index: index, y: y, width: listWidth)
            }
            y += 1
        }
        // The list's end: what it is waiting for, or the first version once it is on screen.
        guard y < bottom else { return }
        if state.loading {
            grid.put(" \(Spinner.frame(tick)) loading older commits…", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth)
        } else if visible.isEmpty, !timeline.filter.isEmpty {
            grid.put("   No version matches “\(timeline.filter.text)”", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth)
        } else if state.exhausted, let last = visible.last, rows.last == .entry(last) {
            grid.put("   — first commit —", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth)
        }
    }

    static func historyFilterLine(_ grid: inout CellGrid, _ state: HistoryState, y: Int, width: Int) {
        let count = state.filterCount
        let countWidth = DisplayWidth.width(of: count)
        let fieldWidth = max(1, width - 3 - countWidth - 3)
        grid.put(" / ", x: 0, y: y, style: theme.key)
        if let field = state.timeline.filterField {
            field.draw(into: &grid, x: 3, y: y, width: fieldWidth, style: CellStyle(bold: true), focused: true)
        } else {
            grid.put(state.timeline.filter.text, x: 3, y: y, style: CellStyle(bold: true), maxWidth: fieldWidth)
        }
        if 3 + fieldWidth + 1 + countWidth < width { grid.put(count, x: width - countWidth - 2, y: y, style: theme.subtitle) }
    }

    static func historyDayRow(_ grid: inout CellGrid, day: Int, today: Int?, y: Int, width: Int) {
        let heading = "── " + HistoryDay.heading(day, today: today) + " "
        let fill = max(2, width - 1 - DisplayWidth.width(of: heading))
        grid.put(heading + String(repeating: "─", count: fill), x: 0, y: y, style: CellStyle(foreground: .named(.cyan), bold: true), maxWidth: max(0, width - 1))
    }

    /// A version's row: the compare mark, its id, its tags as labels, its message, and its time (its date when
    /// the time is unknown).
    static func historyEntryRow(_ grid: inout CellGrid, _ state: HistoryState, index: Int, y: Int, width listWidth: Int) {
        let entry = state.entries[index]
        let selected = index == state.selection
        var style = selected ? theme.selected : theme.action
        if selected, state.focus == .diff { style.reverse = false; style.bold = true }
        grid.put(String(repeating: " ", count: max(0, listWidth - 1)), x: 0, y: y, style: style)
        grid.put(entry.compareMarkSymbol(state.compareMark), x: 0, y: y, style: theme.key)
        grid.put(entry.shortID, x: 2, y: y, style: selected ? style : CellStyle(foreground: .named(.yellow)))
        let when = entry.time.map { HistoryDay.clock(of: $0, in: state.timeline.timeZone) } ?? (listWidth >= 50 ? entry.date : "")
        let whenWidth = listWidth >= 30 ? DisplayWidth.width(of: when) : 0
        let end = max(10, listWidth - 2 - (whenWidth > 0 ? whenWidth + 1 : 0))
        var x = 10
        for tag in entry.tags where x < end {
            x = grid.put("⚑ " + tag, x: x, y: y, style: CellStyle(foreground: .named(.magenta), bold: true, reverse: !selected), maxWidth: end - x) + 1
        }
        if x < end { grid.put(entry.message, x: x, y: y, style: style, maxWidth: end - x) }
        if whenWidth > 0 { grid.put(when, x: listWidth - whenWidth - 2, y: y, style: selected ? style : theme.subtitle) }
    }

    /// The last row when it is not the key hints (`chrome` drew them): the status line, or the open jump field.
    static func historyFooter(_ grid: inout CellGrid, _ state: HistoryState) {
        let y = grid.height - 1
        guard y > 0 else { return }
        if let status = state.timeline.status {
            putMessage(status, bottom: y, style: CellStyle(foreground: .named(.yellow), bold: true), into: &grid)
        } else if let field = state.timeline.jumpField {
            grid.putLine(" Go to: ", y: y, style: theme.footer)
            let note = state.timeline.jumpProblem.map { "✗ " + $0 } ?? HistoryJump.accepted
            let noteWidth = min(DisplayWidth.width(of: note), max(0, grid.width - 8 - 16))
            let fieldWidth = max(1, grid.width - 8 - noteWidth - 2)
            field.draw(into: &grid, x: 8, y: y, width: fieldWidth, style: CellStyle(bold: true), focused: true)
            if noteWidth > 0 {
                grid.put(note, x: grid.width - noteWidth - 1, y: y, style: state.timeline.jumpProblem == nil ? theme.subtitle : theme.error, maxWidth: noteWidth)
            }
        }
    }

    /// The hints of the list: shorter on a narrow terminal, the filter's own while it is typed.
    static func historyListHints(_ state: HistoryState, split: Bool) -> String {
        if state.timeline.filterField != nil { return "type to filter (tag: named versions, item:N one item) · ⏎ keep · esc clear" }
        let restore = state.item == nil ? "r restore" : "i bring this item back · r restore all"
        if split { return "↑↓ PgUp/PgDn select · / filter · g go to date · tab/⏎ diff · v view · \(restore) · u undo · t tag · c compare · esc back" }
        return "↑↓ · ⏎ diff · v view · / filter · g date · \(restore) · u undo · t tag · esc back"
    }
}
