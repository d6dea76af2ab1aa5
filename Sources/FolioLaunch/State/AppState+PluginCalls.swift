import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

/// A call into the open document running off the UI thread: an editor command (or undo, redo, restore, tag), or a
/// render of the plugin's view. The run loop reports how long it has run; the state machine decides what keys do
/// meanwhile.
package struct PluginCall: Equatable, Sendable {
    /// What the spinner says: "tally: spin", "tally: render", "undo".
    package var label: String
    /// A command changes the document: other keys wait until it ends. A render lets keys through.
    package var isCommand: Bool
    /// Seconds since the call started.
    package var elapsed: TimeInterval = 0
    /// Esc was pressed: the call is being stopped.
    package var cancelling = false
    /// The run loop's number for the call (0 until it is known), so that a cancel never reaches the next call.
    package var job = 0
    package init(label: String, isCommand: Bool, elapsed: TimeInterval = 0, job: Int = 0) {
        self.label = label; self.isCommand = isCommand; self.elapsed = elapsed; self.job = job
    }

    /// How long a call runs before the spinner shows.
    package static let spinnerDelay: TimeInterval = 0.2
    static let spinnerFrames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Whether the spinner shows (the call has run 200 ms).
    package var showsSpinner: Bool { elapsed >= Self.spinnerDelay }

    /// The status-line text while the spinner shows, nil before: "⠋ tally: spin… (esc cancels)".
    package func spinnerText(tick: Int) -> String? {
        guard showsSpinner else { return nil }
        let frame = Self.spinnerFrames[((tick % Self.spinnerFrames.count) + Self.spinnerFrames.count) % Self.spinnerFrames.count]
        return "\(frame) \(label)… " + (cancelling ? "(stopping)" : "(esc cancels)")
    }
}

/// The open document's head as the editor host shows it, read off the UI thread.
package struct DocumentSnapshot: Equatable, Sendable {
    package var commitID: String
    package var commitMessage: String
    package var items: ItemLayout?
    /// Where the item under the cursor went, when the snapshot was read following it (`read(_:following:)`): the
    /// version it was followed from and the item's position in this one, nil when it is gone or was not followed.
    package var followed: (from: String, position: [Int]?)?
    /// Who made the version and what changed, when the poll read it on a window that showed an older one
    /// (`DocumentSession.arrival(from:to:)`); nil for this window's own commands.
    package var arrival: DocumentArrival?
    package init(commitID: String, commitMessage: String, items: ItemLayout?) {
        self.commitID = commitID; self.commitMessage = commitMessage; self.items = items
    }

    package static func == (a: DocumentSnapshot, b: DocumentSnapshot) -> Bool {
        a.commitID == b.commitID && a.commitMessage == b.commitMessage && a.items == b.items
            && a.followed?.from == b.followed?.from && a.followed?.position == b.followed?.position && a.arrival == b.arrival
    }

    /// Reads the head and the item layout (a plugin call when the head changed); call it off the UI thread.
    package static func read(_ document: any DocumentSession) -> DocumentSnapshot {
        let head = document.latestCommit()
        return DocumentSnapshot(commitID: head.id, commitMessage: head.message, items: document.editor.itemLayout())
    }

    /// `read` after this window's command, with where its cursor goes (`DocumentSession.itemAfterCommand`).
    package static func read(_ document: any DocumentSession, afterCommandFrom cursor: (commit: String, position: [Int]?)?) -> DocumentSnapshot {
        read(document, from: cursor?.commit) { document.itemAfterCommand(at: cursor?.position, from: $0, to: $1) }
    }

    /// `read`, and when the head is no longer `item.commit`, where the item at `item.position` there is now (the
    /// editor's item list matches them: a version merged in from elsewhere keeps the cursor on the same item).
    package static func read(_ document: any DocumentSession, following item: (commit: String, position: [Int])?) -> DocumentSnapshot {
        read(document, from: item?.commit) { old, new in item.flatMap { document.followItem(at: $0.position, from: old, to: new) } }
    }

    /// `read`, with `place(old, new)` as where the cursor goes when the head moved on from version `old`.
    private static func read(_ document: any DocumentSession, from old: String?, place: (String, String) -> [Int]?) -> DocumentSnapshot {
        var snapshot = read(document)
        if let old, !old.isEmpty, old != snapshot.commitID { snapshot.followed = (old, place(old, snapshot.commitID)) }
        return snapshot
    }
}

/// How a command call ended.
package enum CallResult: Equatable, Sendable {
    /// It ran; the document is now at `snapshot`.
    case succeeded(DocumentSnapshot)
    /// It failed, or was cancelled or timed out: the one line to show (nothing was changed).
    case failed(String)
    /// It was made on a version the document has moved on from and conflicts with the newer change: the one line to
    /// show (nothing was changed) and the newest version, which the window shows instead.
    case conflicted(String, DocumentSnapshot)
}

extension EditorState {
    /// The window once it shows `snapshot`: its status line and item layout, the cursor on the item it followed (kept
    /// in view; an open form follows it too) unless a range is selected, and the cursor and range kept in range. The
    /// one rule for the state (`AppState.applying`) and for the render prepared off the UI thread before the state
    /// learns of the snapshot (`EditorViewCache.prerender`), so the frame that shows a command's version draws the
    /// cursor on its item.
    package func showing(_ snapshot: DocumentSnapshot) -> EditorState {
        var editor = self
        guard snapshot.commitID != editor.commitID || snapshot.commitMessage != editor.commitMessage else { return editor }
        let wasOn = editor.commitID
        let oldPath = editor.items.flatMap { $0.paths.indices.contains(editor.cursor) ? $0.paths[editor.cursor] : nil }
        editor.commitID = snapshot.commitID
        editor.commitMessage = snapshot.commitMessage
        editor.items = snapshot.items
        if let followed = snapshot.followed, followed.from == wasOn, editor.selectionAnchor == nil,
           let position = followed.position, let index = snapshot.items?.paths.firstIndex(of: position) {
            if let prompt = editor.prompt, prompt.base == wasOn, let oldPath {
                editor.prompt = prompt.following(row: editor.cursor, path: oldPath, toRow: index, path: position, commit: snapshot.commitID)
            }
            editor.cursor = index
            // Keep the item in view (an item added at the end of a long list).
            if editor.cursor < editor.scroll { editor.scroll = editor.cursor }
            if editor.cursor >= editor.scroll + editor.viewRows { editor.scroll = editor.cursor - editor.viewRows + 1 }
        }
        if let items = editor.items {
            editor.cursor = min(editor.cursor, max(0, items.count - 1))
            if let anchor = editor.selectionAnchor { editor.selectionAnchor = min(anchor, max(0, items.count - 1)) }
        }
        return editor
    }
}

extension AppEffect {
    /// Whether the effect runs on the open document (off the UI thread, with a spinner and Esc to cancel).
    package var isDocumentCall: Bool {
        switch self {
        case .runEditorCommand, .restore, .tag: return true
        default: return false
        }
    }
}

extension AppState {
    /// Keys while a call runs: ^Q cancels it and quits, Esc (or ^C) cancels it; other keys wait for a command (typed
    /// ahead, at most `typeAheadLimit`) and pass for a render. Nil when the key is handled as usual.
    func handlingDuringCall(_ key: Key) -> (AppState, [AppEffect])? {
        guard var running = call else { return nil }
        if key == .ctrl("q") { return (self, [.cancelPluginCall, .quit]) }
        let stops = key == .escape || key == .ctrl("c")
        if !running.isCommand, !(stops && running.showsSpinner) { return nil }
        var state = self
        if stops {
            running.cancelling = true
            state.call = running
            state.typeAhead = []
            return (state, [.cancelPluginCall])
        }
        if state.typeAhead.count < Self.typeAheadLimit { state.typeAhead.append(key) }
        return (state, [])
    }

    /// How many keys typed during a command are kept for after it.
    static let typeAheadLimit = 64

    /// Marks a command call as running when `effects` start one, so that the next keys already wait for it.
    mutating func beginCall(for effects: [AppEffect]) {
        guard let effect = effects.first(where: \.isDocumentCall) else { return }
        call = PluginCall(label: callLabel(effect), isCommand: true)
    }

    /// What the spinner calls `effect`: "tally: spin", "undo", "restore".
    func callLabel(_ effect: AppEffect) -> String {
        switch effect {
        case let .runEditorCommand(id, _, _, _):
            if id.hasPrefix("folio.") { return String(id.dropFirst("folio.".count)) }
            return currentEditor?.editorName.map { "\($0): \(id)" } ?? id
        case .restore: return "restore"
        case let .restoreItem(item, _): return "restore item \(item)"
        case .tag: return "tag"
        default: return ""
        }
    }

    /// The run loop's view of the call in progress (nil when none runs); keeps a cancel in progress for the same call
    /// (or one asked for before its number was known).
    package mutating func observeCall(_ running: PluginCall?) {
        guard var running else { call = nil; return }
        if let call, call.job == 0 || call.job == running.job { running.cancelling = call.cancelling }
        running.isCommand = running.isCommand || (call?.isCommand ?? false)
        call = running
    }

    /// A command call ended: the document's new head is shown, or the one-line failure. Returns the keys typed
    /// meanwhile to handle now (none after a failure: the user reads the line first).
    package mutating func finishingCall(_ result: CallResult) -> [Key] {
        call = nil
        let typed = typeAhead
        typeAhead = []
        switch result {
        case let .succeeded(snapshot): applying(snapshot); return typed
        case let .failed(text): showFailure(text); return []
        case let .conflicted(text, snapshot): applying(snapshot); showFailure(text); return []
        }
    }

    /// Shows a new head (a command here, another window, another process): the status line, the item layout, and
    /// the cursor kept in range (`EditorState.showing`).
    package mutating func applying(_ snapshot: DocumentSnapshot) {
        switch screen {
        case let .editor(editor): screen = .editor(editor.showing(snapshot))
        case let .history(history, editor): screen = .history(history, editor.showing(snapshot))
        default: break
        }
    }

    /// A one-line failure where the current screen shows messages.
    package mutating func showFailure(_ text: String) {
        switch screen {
        case .history(var history, let editor): history.error = text; history.loading = false; screen = .history(history, editor)
        case var .editor(editor): editor.message = .failure(text); screen = .editor(editor)
        case var .settings(settings): settings.message = .failure(text); screen = .settings(settings)
        default: message = .failure(text)
        }
    }

    /// The editor the current screen shows, if any.
    var currentEditor: EditorState? {
        switch screen {
        case let .editor(editor), let .history(_, editor): return editor
        case let .settings(settings): return settings.returnTo
        case let .sharing(_, editor): return editor
        default: return nil
        }
    }
}

extension EditorState {
    /// The item under the cursor and the version it is seen in, when the view numbers its items.
    var itemUnderCursor: (commit: String, position: [Int])? {
        guard let paths = items?.paths, paths.indices.contains(cursor) else { return nil }
        return (commitID, paths[cursor])
    }
}
