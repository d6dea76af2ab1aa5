import FolioTerminal

extension AppState {
    /// Keys in the history browser. Returns whether the browser stays open (false when the key left it for the
    /// editor or the tag form; `screen` is then already set).
    mutating func historyKey(_ key: Key, history: inout HistoryState, editor: EditorState, effects: inout [AppEffect]) -> Bool {
        switch key {
        case .escape: screen = .editor(editor); return false
        case .up: history.selection = max(0, history.selection - 1)
        case .down: history.selection = min(max(0, history.entries.count - 1), history.selection + 1)
        case .enter: if history.entries.indices.contains(history.selection) { effects.append(.loadDiff(commitID: history.entries[history.selection].id)) }
        case .character("r"): if history.entries.indices.contains(history.selection) { effects.append(.restore(commitID: history.entries[history.selection].id)) }
        case .character("t"):
            if history.entries.indices.contains(history.selection) {
                let id = history.entries[history.selection].id
                screen = .form(FormState(title: "Tag \(String(id.prefix(7)))", purpose: .tag(commitID: id), fields: [
                    .init(name: "tag", label: "Tag name", value: "", choices: [], required: true, pattern: "[A-Za-z0-9._/-]+", message: nil),
                ], focus: 0, back: .history(history, editor)))
                return false
            }
        case .character("c"):
            if history.entries.indices.contains(history.selection) {
                let id = history.entries[history.selection].id
                if let mark = history.compareMark, mark != id { effects.append(.compare(mark, id)); history.compareMark = nil }
                else { history.compareMark = history.compareMark == id ? nil : id }
            }
        default: break
        }
        // Load the next page lazily when the selection nears the end of what is loaded.
        if !history.exhausted, !history.loading, history.selection >= history.entries.count - 3, !history.entries.isEmpty {
            history.loading = true
            effects.append(.loadHistoryPage(after: history.next))
        }
        return true
    }
}
