import FolioTerminal

/// The documents open in this `folio` (its tabs): their titles in order, the one shown, and the tab list overlay.
package struct TabBar: Equatable, Sendable {
    /// The open documents' titles, in the order they were opened.
    package var titles: [String]
    /// The one shown (nil: none, the launcher is).
    package var current: Int?
    /// Whether the tab list (^T) is open, and its selected row.
    package var listOpen = false
    package var selection = 0
    /// The tab the launcher returns to with Esc, when it was opened from one (`^T n`).
    package var returnTo: Int?
    package init(titles: [String] = [], current: Int? = nil, returnTo: Int? = nil) {
        self.titles = titles; self.current = current; self.returnTo = returnTo
    }

    /// The tab Esc on the launcher shows again, nil when the launcher was not opened over open documents.
    package var escapeTarget: Int? {
        guard current == nil, let returnTo, titles.indices.contains(returnTo) else { return nil }
        return returnTo
    }
}

/// What a key does in the tab list.
package enum TabListAction: Sendable, Equatable {
    case up, down, open, close, new, back
    /// A digit: show the document with that number.
    case showNumbered
}

extension AppState {
    /// The tab list's keys (help lists them from here).
    package static let tabListKeys: [KeyBinding<TabListAction>] = [
        .init([.up, .character("k")], .up, "↑ k", "previous document"),
        .init([.down, .character("j")], .down, "↓ j", "next document"),
        .init([.enter], .open, "⏎", "show the selected document"),
        .init([.character("x"), .delete, .ctrl("w")], .close, "x Del ^W", "close the selected document"),
        .init([.character("n")], .new, "n", "open another document (the launcher; the open ones stay)"),
        .init([.escape, .ctrl("t")], .back, "esc ^T", "close the list"),
        .init((1...9).map { .character(Character(String($0))) }, .showNumbered, "1…9", "show that document at once (^T 2: the second)"),
    ]

    /// ^T opens the tab list wherever no text is being typed and a document is open.
    func openingTabList(_ key: Key) -> AppState? {
        guard key == .ctrl("t"), !tabs.titles.isEmpty, !isTyping else { return nil }
        var state = self
        state.tabs.listOpen = true
        state.tabs.selection = tabs.current ?? 0
        return state
    }

    /// A key while the tab list is open: move, show (a leaving effect), close one, open another, or back.
    func tabListKey(_ key: Key) -> (AppState, [AppEffect]) {
        var state = self
        guard let action: TabListAction = Self.tabListKeys.action(for: key) else { return (state, []) }
        let last = max(0, tabs.titles.count - 1)
        switch action {
        case .up: state.tabs.selection = max(0, tabs.selection - 1)
        case .down: state.tabs.selection = min(last, tabs.selection + 1)
        case .back: state.tabs.listOpen = false
        case .open:
            state.tabs.listOpen = false
            if tabs.selection != tabs.current, tabs.titles.indices.contains(tabs.selection) { return (state, [.switchTab(tabs.selection)]) }
        case .close:
            state.tabs.listOpen = false
            if tabs.titles.indices.contains(tabs.selection) { return (state, [.closeTab(tabs.selection)]) }
        case .new:
            state.tabs.listOpen = false
            return (state, [.newTab])
        case .showNumbered:
            guard case let .character(digit) = key, let number = digit.wholeNumberValue, tabs.titles.indices.contains(number - 1) else {
                return (state, [])
            }
            let index = number - 1
            state.tabs.listOpen = false
            if index != tabs.current { return (state, [.switchTab(index)]) }
        }
        return (state, [])
    }

    /// ^W in a document that is one of several tabs closes that tab (the next one is shown).
    var closingTab: [AppEffect]? {
        guard let current = tabs.current else { return nil }
        return [.closeTab(current)]
    }
}
