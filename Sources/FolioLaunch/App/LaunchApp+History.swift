import FoundationEssentials
import Glibc
import Synchronization

extension LaunchApp {
    /// The number of the latest history diff asked for: one superseded while it waits is never made.
    static let latestDiffRequest = Mutex<UInt64>(0)
    /// How long a diff request waits for a newer one (a held arrow key) before it is made.
    static let diffDebounce: Duration = .milliseconds(40)

    /// Makes a history diff off the UI thread after a short wait, unless a newer request came meanwhile; its answer
    /// names what it describes, so one that arrives after the selection moved on is dropped by the state.
    static func loadDiff(_ subject: HistoryState.DiffSubject, from a: String?, to b: String, history: any HistoryPageProvider, mailbox: Mailbox) {
        let request = latestDiffRequest.withLock { latest in latest &+= 1; return latest }
        Task {
            try? await Task.sleep(for: diffDebounce)
            guard latestDiffRequest.withLock({ $0 }) == request else { return }
            do { mailbox.post(.diff(subject, try await history.describedDiff(from: a, to: b))) }
            catch { mailbox.post(.diffFailed(subject, oneLine(error))) }
        }
    }
}

extension HistoryState {
    /// `effects` with only the last diff request kept: keys arriving together (a held arrow key) ask for one diff,
    /// the one the selection ended on; the earlier ones would be dropped as stale anyway.
    package static func latestDiffOnly(_ effects: [AppEffect]) -> [AppEffect] {
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
    /// Tells the history browser the terminal's size (it decides the split, full-screen and page sizes) and today's
    /// date (the "Today" heading).
    package mutating func sizeHistory(width: Int, height: Int) {
        guard case .history(var history, let editor) = screen else { return }
        let today = HistoryDay.day(of: Date(), in: history.timeline.timeZone)
        guard history.viewWidth != width || history.viewHeight != height || history.timeline.today != today else { return }
        history.viewWidth = width
        history.viewHeight = height
        history.timeline.today = today
        history.clampScroll()
        screen = .history(history, editor)
    }

    /// Shows a tag just made on its commit in the history list (also when the tag form is still the screen).
    package mutating func historyTagged(_ commitID: String, name: String) {
        updateHistory { history in
            history.tagged(commitID, name: name)
            history.timeline.status = "✓ Tagged \(commitID.prefix(7)) “\(name)”"
        }
    }

    /// Applies `change` to the history browser: the screen, or the one a form (the tag form) returns to, so an
    /// answer that arrives while the form is open is not lost.
    package mutating func updateHistory(_ change: (inout HistoryState) -> Void) {
        switch screen {
        case .history(var history, let editor):
            change(&history)
            screen = .history(history, editor)
        case var .form(form):
            guard case .history(var history, let editor)? = form.back else { return }
            change(&history)
            form.back = .history(history, editor)
            screen = .form(form)
        default: break
        }
    }
}
