import FolioTerminal

extension AppState {
    /// Keys in the history browser. Returns whether the browser stays open (false when the key left it for the
    /// editor or the tag form; `screen` is then already set).
    /// Moving the selection asks for that commit's diff; PgUp/PgDn always scroll the diff, ↑↓/j/k scroll it when it
    /// has focus (Tab), ←/→ scroll it sideways, `w` wraps long lines; on a narrow terminal Enter opens it full-screen.
    mutating func historyKey(_ key: Key, history: inout HistoryState, editor: EditorState, effects: inout [AppEffect]) -> Bool {
        history.error = nil
        switch key {
        case .escape:
            if history.focus == .diff { history.focus = .list; history.clampScroll(); return true }
            screen = .editor(editor)
            return false
        case .tab, .backTab:
            history.focus = history.focus == .list ? .diff : .list
            history.clampScroll()
        case .enter:
            if history.selectedID != nil, history.focus == .list { history.focus = .diff; history.clampScroll() }
        case .pageUp: history.scrollDiff(by: -history.layout.diffPage)
        case .pageDown: history.scrollDiff(by: history.layout.diffPage)
        case .left: history.scrollDiffSideways(by: -8)
        case .right: history.scrollDiffSideways(by: 8)
        case .character("w"):
            history.wrap.toggle()
            history.diffColumn = 0
            history.clampScroll()
        case .up, .down, .character("k"), .character("j"), .home, .end:
            if history.focus == .diff { diffMovement(key, history: &history) } else { listMovement(key, history: &history, effects: &effects) }
        case .character("r"): if let id = history.selectedID { effects.append(.restore(commitID: id)) }
        case .character("i"): restoreItemKey(history: &history, effects: &effects)
        case .character("t"):
            if let id = history.selectedID {
                screen = .form(FormState(title: "Tag \(String(id.prefix(7)))", purpose: .tag(commitID: id), fields: [
                    .init(name: "tag", label: "Tag name", value: "", choices: [], required: true, pattern: "[A-Za-z0-9._/-]+", message: nil),
                ], focus: 0, back: .history(history, editor)))
                return false
            }
        case .character("c"):
            if let id = history.selectedID {
                if let mark = history.compareMark, mark != id {
                    history.compareMark = nil
                    if let effect = history.want(.compare(mark, id)) { effects.append(effect) }
                } else {
                    history.compareMark = history.compareMark == id ? nil : id
                }
            }
        default: break
        }
        return true
    }

    /// ↑↓ j/k Home/End on the commit list: move the selection, ask for its diff, and load more near the end.
    private func listMovement(_ key: Key, history: inout HistoryState, effects: inout [AppEffect]) {
        let last = max(0, history.entries.count - 1)
        switch key {
        case .up, .character("k"): history.selection = max(0, history.selection - 1)
        case .down, .character("j"): history.selection = min(last, history.selection + 1)
        case .home: history.selection = 0
        case .end: history.selection = last
        default: return
        }
        if let effect = history.followSelection() { effects.append(effect) }
        // Load the next page lazily when the selection nears the end of what is loaded.
        if !history.exhausted, !history.loading, history.selection >= history.entries.count - 3, !history.entries.isEmpty {
            history.loading = true
            effects.append(.loadHistoryPage(after: history.next))
        }
    }

    /// ↑↓ j/k Home/End in the diff pane: scroll it.
    private func diffMovement(_ key: Key, history: inout HistoryState) {
        switch key {
        case .up, .character("k"): history.scrollDiff(by: -1)
        case .down, .character("j"): history.scrollDiff(by: 1)
        case .home: history.diffScroll = 0
        case .end: history.scrollDiff(by: Int.max / 2)
        default: break
        }
    }
}
