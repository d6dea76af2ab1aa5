import FolioTerminal

extension AppState {
    /// The timeline's keys in the history browser: the filter and jump fields while open, `/` and `g` to open them,
    /// `r` to restore (after a confirmation line), `u`/^Z and ^Y to undo and redo here. Returns whether it took `key`.
    mutating func timelineKey(_ key: Key, history: inout HistoryState, effects: inout [AppEffect]) -> Bool {
        if history.timeline.jumpField != nil { jumpFieldKey(key, history: &history, effects: &effects); return true }
        if history.timeline.filterField != nil { filterFieldKey(key, history: &history, effects: &effects); return true }
        switch key {
        case .character("/"):
            history.focus = .list
            history.timeline.filterField = TextField(history.timeline.filter.text)
        case .character("g"):
            history.focus = .list
            history.timeline.jumpField = TextField()
        case .character("r"):
            guard let id = history.selectedID else { return true }
            let version = history.label(ofEntry: history.selection)
            if history.selection == 0 {
                history.timeline.status = "\(version) is the current version: nothing to restore"
            } else {
                confirming = .restoreVersion(commitID: id, version: version, summary: history.entries[history.selection].message)
            }
        case .character("u"), .ctrl("z"):
            history.timeline.change = .undo
            effects.append(.runEditorCommand("folio.undo"))
        case .ctrl("y"):
            history.timeline.change = .redo
            effects.append(.runEditorCommand("folio.redo"))
        default: return false
        }
        return true
    }

    /// The filter field: text narrows the list as it is typed, ↑↓ PgUp/PgDn move in it, ⏎ keeps the filter, Esc
    /// clears it.
    private func filterFieldKey(_ key: Key, history: inout HistoryState, effects: inout [AppEffect]) {
        switch key {
        case .enter:
            history.timeline.filterField = nil
            if let item = history.timeline.filter.item { showItemHistory(item, history: &history, effects: &effects) }
        case .escape:
            history.timeline.filterField = nil
            history.setFilter("", effects: &effects)
        case .up, .down, .pageUp, .pageDown: history.moveInList(key, effects: &effects)
        default:
            guard var field = history.timeline.filterField, field.handle(key) else { return }
            history.timeline.filterField = field
            history.setFilter(field.text, effects: &effects)
        }
    }

    /// The jump field: ⏎ jumps (or says why the text is not a date), Esc closes it.
    private func jumpFieldKey(_ key: Key, history: inout HistoryState, effects: inout [AppEffect]) {
        switch key {
        case .enter: history.jump(history.timeline.jumpField?.text ?? "", effects: &effects)
        case .escape:
            history.timeline.jumpField = nil
            history.timeline.jumpProblem = nil
        default:
            guard var field = history.timeline.jumpField, field.handle(key) else { return }
            history.timeline.jumpField = field
            history.timeline.jumpProblem = nil
        }
    }

    /// `r` again on the restore question: the restore runs, remembered so the reloaded list selects its result.
    func confirmedRestore(commitID: String, version: String) -> (AppState, [AppEffect]) {
        var state = self
        if case .history(var history, let editor) = screen {
            history.timeline.change = .restore(commitID: commitID, label: version)
            state.screen = .history(history, editor)
        }
        return (state, [.restore(commitID: commitID)])
    }

    /// A paste in the history browser goes into its open field; without one it is ignored with a hint.
    mutating func pastingIntoHistory(_ text: String, history: inout HistoryState, effects: inout [AppEffect]) -> Bool {
        if var field = history.timeline.jumpField { field.insert(text); history.timeline.jumpField = field; return true }
        if var field = history.timeline.filterField {
            field.insert(text)
            history.timeline.filterField = field
            history.setFilter(field.text, effects: &effects)
            return true
        }
        return false
    }

    /// `/item:KEY` ⏎: the list becomes the versions that changed item KEY (numbered as the current version's view
    /// numbers it), as `H` on that item in the editor shows them.
    private func showItemHistory(_ item: String, history: inout HistoryState, effects: inout [AppEffect]) {
        var fresh = history.reloaded()
        fresh.item = ItemHistoryFocus(key: item)
        history = fresh
        effects.append(.openItemHistory(item: item, at: nil))
    }
}
