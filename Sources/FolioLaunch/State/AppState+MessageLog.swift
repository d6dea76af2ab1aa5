import FoundationEssentials
import Glibc
import FolioTerminal

extension AppState {
    /// The messages the current screen shows (errors, confirmations, results; not key hints), each in full.
    var shownMessages: [StatusLine] {
        var shown = [message]
        switch screen {
        case let .editor(editor): shown.append(editor.message)
        case let .history(history, _): shown += [history.error.map(StatusLine.failure), history.timeline.status.map(StatusLine.note)]
        case let .generic(view): shown.append(view.message)
        case let .settings(settings): shown.append(settings.message)
        case let .sharing(.remotes(remotes), _): shown += [remotes.message, remotes.problem.map(StatusLine.failure)]
        case let .sharing(.conflicts(conflicts), _): shown += [conflicts.message, conflicts.error.map(StatusLine.failure)]
        case .launch, .picker, .form: break
        }
        return shown.compactMap { $0 }.filter { !$0.text.isEmpty }
    }

    /// Starts a screen with the run's log so far and the message it opens with (logged too).
    mutating func takingMessages(from services: LaunchServices, at time: Date) {
        message = services.message
        messageLog = services.messageLog
        if let message { messageLog.append(message, at: time) }
    }

    /// Adds to the log each message shown now that `previous` did not show, at `now`; the hint for an unbound `key`
    /// (shown where History and the file view show messages) is not a message.
    mutating func noteMessages(since previous: AppState, key: Key? = nil) {
        let before = previous.shownMessages
        let hints = key.map { key in [UnboundKeyPlace.editor, .history, .files].compactMap { Self.unboundKeyHint(key, on: $0) } } ?? []
        for line in shownMessages where !before.contains(line) && !hints.contains(line.text) { messageLog.append(line, at: now) }
    }

    /// Whether `M` is the current screen's own key (an editor command's shortcut, a launcher action's letter), so
    /// the log is left to the palette there.
    func screenBindsM(scene: LaunchScene) -> Bool {
        switch screen {
        case let .editor(editor): return (editor.commands + editor.sharingCommands).contains { Self.matches(.character("M"), $0.shortcut) }
        case .launch: return scene.actions.contains { $0.key.map { String($0).lowercased() } == "m" }
        case .sharing: return true  // the conflict screen's M takes every item as mine
        default: return false
        }
    }

    /// Opens the message log at its newest message.
    mutating func openMessageLog() {
        messageLogOpen = true
        messageLogScroll = Int.max
        if case var .editor(editor) = screen, editor.paletteOpen { editor.paletteOpen = false; screen = .editor(editor) }
    }

    /// Keys while the message log is open: ↑↓ j k PgUp PgDn Home End scroll it; esc, M, q or ⏎ close it (any other
    /// key too, as in the help overlay).
    mutating func messageLogKey(_ key: Key) {
        let total = Screens.messageLogLines(messageLog, width: columns).count
        let rows = Screens.messageLogRows(height: self.rows)
        let last = max(0, total - rows)
        let top = min(messageLogScroll, last)
        let page = max(1, rows - 1)
        if let top = OverlayScroll.top(after: key, from: top, last: last, page: page) {
            messageLogScroll = top
        } else {
            messageLogOpen = false
        }
    }
}
