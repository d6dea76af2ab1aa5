import Foundation

extension LaunchApp {
    /// Makes a history diff off the UI thread; its answer names what it describes, so a late one is dropped.
    static func loadDiff(_ subject: HistoryState.DiffSubject, from a: String?, to b: String, history: any HistoryPageProvider, mailbox: Mailbox) {
        Task {
            do { mailbox.post(.diff(subject, try await history.describedDiff(from: a, to: b))) }
            catch { mailbox.post(.diffFailed(subject, oneLine(error))) }
        }
    }
}

extension HistoryState {
    /// `effects` with only the last diff request kept: keys arriving together (a held arrow key) ask for one diff,
    /// the one the selection ended on; the earlier ones would be dropped as stale anyway.
    public static func latestDiffOnly(_ effects: [AppEffect]) -> [AppEffect] {
        func isDiff(_ effect: AppEffect) -> Bool {
            switch effect {
            case .loadDiff, .compare: return true
            default: return false
            }
        }
        guard let last = effects.lastIndex(where: isDiff) else { return effects }
        return effects.enumerated().filter { !isDiff($0.element) || $0.offset == last }.map(\.element)
    }
}

extension AppState {
    /// Tells the history browser the terminal's size (it decides the split, full-screen and page sizes).
    public mutating func sizeHistory(width: Int, height: Int) {
        guard case .history(var history, let editor) = screen, history.viewWidth != width || history.viewHeight != height else { return }
        history.viewWidth = width
        history.viewHeight = height
        history.clampScroll()
        screen = .history(history, editor)
    }

    /// Shows a tag just made on its commit in the history list (also when the tag form is still the screen).
    public mutating func historyTagged(_ commitID: String, name: String) {
        switch screen {
        case .history(var history, let editor):
            history.tagged(commitID, name: name)
            screen = .history(history, editor)
        case var .form(form):
            if case .history(var history, let editor)? = form.back {
                history.tagged(commitID, name: name)
                form.back = .history(history, editor)
                screen = .form(form)
            }
        default: break
        }
    }
}
