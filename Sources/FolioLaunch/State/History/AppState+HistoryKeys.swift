import FolioTerminal

extension AppState {
    /// Keys in the history browser. Returns whether the browser stays open (false when the key left it for the
    /// editor or the tag form; `screen` is then already set).
    /// esc and q go back: the diff pane to the list, a filter cleared, then to the editor.
    /// Moving the selection asks for that commit's diff; ↑↓/j/k, Home/End and PgUp/PgDn move in the pane with focus
    /// (Tab: the list or the diff), ←/→ scroll the diff sideways, `w` wraps long lines; on a narrow terminal Enter
    /// opens it full-screen. The timeline's keys (`/`, `g`, `r`, `u`) are in `AppState+HistoryTimelineKeys.swift`.
    mutating func historyKey(_ key: Key, history: inout HistoryState, editor: EditorState, effects: inout [AppEffect]) -> Bool {
        history.error = nil
        history.timeline.status = nil
        if timelineKey(key, history: &history, effects: &effects) { return true }
        switch key {
        case .escape, .character("q"):
            // q as in tig and lazygit: the same way back as esc.
            if history.focus == .diff { history.focus = .list; history.clampScroll(); return true }
            if !history.timeline.filter.isEmpty { history.setFilter("", effects: &effects); return true }
            screen = .editor(editor)
            return false
        case .tab, .backTab:
            history.focus = history.focus == .list ? .diff : .list
            history.clampScroll()
        case .enter:
            if history.selectedID != nil, history.focus == .list { history.focus = .diff; history.clampScroll() }
        case .left: history.scrollDiffSideways(by: -8)
        case .right: history.scrollDiffSideways(by: 8)
        case .character("w"):
            history.wrap.toggle()
            history.diffColumn = 0
            history.clampScroll()
        case .up, .down, .character("k"), .character("j"), .home, .end, .pageUp, .pageDown:
            if history.focus == .diff { diffMovement(key, history: &history) } else { history.moveInList(key, effects: &effects) }
        case .character("v"): history.togglePreview()
        case .character("o"): history.switchPreviewSide()
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
        default: history.timeline.status = Self.unboundKeyHint(key, on: .history)
        }
        // The rendered preview follows the selection (and a comparison) like the diff.
        if let effect = history.followPreview() { effects.append(effect) }
        return true
    }

    /// ↑↓ j/k Home/End PgUp/PgDn in the diff pane: scroll it.
    private func diffMovement(_ key: Key, history: inout HistoryState) {
        switch key {
        case .up, .character("k"): history.scrollDiff(by: -1)
        case .down, .character("j"): history.scrollDiff(by: 1)
        case .home: history.scrollDiff(by: -(Int.max / 2))
        case .end: history.scrollDiff(by: Int.max / 2)
        case .pageUp: history.scrollDiff(by: -history.layout.diffPage)
        case .pageDown: history.scrollDiff(by: history.layout.diffPage)
        default: break
        }
    }
}
