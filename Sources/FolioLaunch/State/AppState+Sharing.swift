import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

// The editor host's sharing: the keys and palette commands that sync, push, pull and share the open document, the
// network action running off the UI thread (Esc cancels it), and the results coming back. The remote settings
// screen is in AppState+RemoteSettings.swift, the conflict screen in AppState+Conflicts.swift.

/// A sharing action running off the UI thread (sync now, push, share, a remote change, settling a conflict): what
/// the status line says while it runs.
package struct SharingActivity: Equatable, Sendable {
    /// What runs ("sync now", "push", "settle").
    package var label: String
    /// Its latest progress line, as the action reports it (set by the run loop).
    package var progress: String?
    /// Esc was pressed: the action is being stopped.
    package var cancelling = false
    /// Whether Esc can stop it (settling a conflict is one local commit and runs to its end).
    package var cancellable = true
    package init(label: String, cancellable: Bool = true) { self.label = label; self.cancellable = cancellable }

    /// The status line while it runs: "⠋ sync now: 12/40 objects (esc cancels)".
    package func statusLine(tick: Int) -> String {
        let frames = PluginCall.spinnerFrames
        let frame = frames[((tick % frames.count) + frames.count) % frames.count]
        let tail = cancelling ? " (stopping)" : cancellable ? " (esc cancels)" : ""
        return "\(frame) \(label)" + (progress.map { ": \($0)" } ?? "…") + tail
    }
}

/// What the editor host asks of the open document's sharing, carried out off the UI thread by the run loop.
package enum SharingRequest: Equatable, Sendable {
    /// Runs `action` through `DocumentSharing.perform` (one at a time; its result arrives as `.performed`).
    case perform(SharingAction)
    /// Stops the action running (Esc): its `isCancelled` returns true from now on.
    case cancel
    /// Stops the sync loop's own round in progress (Esc while the status line says syncing and no action runs).
    case cancelRound
    /// Reads the kept conflicts (`.conflicts` or `.conflictsFailed` arrives).
    case loadConflicts
    /// Draws the document as a conflict's choices would make it (dropped when a newer request came meanwhile).
    case preview(ConflictPreviewSubject)
    /// Settles the conflict `ref` with `choices` (one merge commit).
    case settle(ref: String, choices: [String: ItemChoice])
}

/// How a sharing call ended: its one-line summary, or the one-line reason it failed (or was cancelled).
package enum SharingOutcome: Equatable, Sendable {
    case done(String)
    case failed(String)
}

/// A result of a sharing request, handed to the state by the run loop.
package enum SharingEvent: Equatable, Sendable {
    case performed(SharingAction, SharingOutcome)
    case conflicts([SharingConflict])
    case conflictsFailed(String)
    case preview(ConflictPreviewSubject, [String])
    case previewFailed(ConflictPreviewSubject, String)
    case settled(ref: String, SharingOutcome)
}

/// A screen of the open document's sharing, shown over its editor (Esc goes back to it).
package enum SharingScreen: Equatable, Sendable {
    case remotes(RemoteSettingsState)
    case conflicts(ConflictScreenState)
}

extension EditorState {
    /// The sharing commands, offered in the palette (and by their keys) when the document's session has sharing.
    package static let sharingCommands: [EditorCommand] = [
        EditorCommand(id: "folio.sync-now", title: "Sync now", shortcut: "S"),
        EditorCommand(id: "folio.push", title: "Push"),
        EditorCommand(id: "folio.pull", title: "Pull"),
        EditorCommand(id: "folio.share", title: "Share: add a remote, push, keep in sync"),
        EditorCommand(id: "folio.continuous", title: "Continuous sync on/off"),
        EditorCommand(id: "folio.remotes", title: "Remote settings"),
        EditorCommand(id: "folio.settle", title: "Settle conflicts", shortcut: "C"),
        EditorCommand(id: "folio.accept-type", title: "Accept the held remote version (new content type)"),
    ]

    /// The sharing commands this window offers: all of them when the session has sharing, none otherwise.
    package var sharingCommands: [EditorCommand] { sharing == nil ? [] : Self.sharingCommands }
}

extension AppState {
    /// Runs a sharing command from its key or the palette; false when `command` is not one.
    mutating func invokingSharing(_ command: EditorCommand, editor: inout EditorState, effects: inout [AppEffect]) -> Bool {
        guard EditorState.sharingCommands.contains(where: { $0.id == command.id }) else { return false }
        editor.paletteOpen = false
        guard let sharing = editor.sharing else { editor.message = .failure("this document is not set up for sharing here"); return true }
        switch command.id {
        case "folio.sync-now": startSharing(.syncNow, label: "sync now", editor: &editor, effects: &effects)
        case "folio.push": startSharing(.push, label: "push", editor: &editor, effects: &effects)
        case "folio.pull": startSharing(.pull, label: "pull", editor: &editor, effects: &effects)
        case "folio.continuous":
            let on = !sharing.continuous
            startSharing(.continuous(on), label: "continuous sync " + (on ? "on" : "off"), editor: &editor, effects: &effects)
        case "folio.share":
            screen = .sharing(.remotes(RemoteSettingsState(editing: .share)), editor)
        case "folio.remotes":
            screen = .sharing(.remotes(RemoteSettingsState()), editor)
        case "folio.settle":
            guard sharing.phase == .conflict || !sharing.conflicts.isEmpty else {
                editor.hint = "Nothing to settle: no remote version conflicts with yours"
                return true
            }
            screen = .sharing(.conflicts(ConflictScreenState()), editor)
            effects.append(.sharing(.loadConflicts))
        case "folio.accept-type":
            guard let held = sharing.heldContentType else {
                editor.hint = "Nothing held: no remote version changes this document's content type"
                return true
            }
            confirming = .acceptContentType(summary: held)
        default: return false
        }
        return true
    }

    /// Starts `action` off the UI thread unless one runs already (one at a time: the message says which runs).
    mutating func startSharing(_ action: SharingAction, label: String, editor: inout EditorState, effects: inout [AppEffect]) {
        if let busy = beginSharing(.perform(action), label: label, effects: &effects) { editor.message = .failure(busy) }
    }

    /// Starts `request` as the one sharing activity; the reason it cannot start (another runs) otherwise.
    mutating func beginSharing(_ request: SharingRequest, label: String, cancellable: Bool = true, effects: inout [AppEffect]) -> String? {
        if let running = sharingActivity { return "\(running.label) is still running (esc cancels it)" }
        sharingActivity = SharingActivity(label: label, cancellable: cancellable)
        effects.append(.sharing(request))
        return nil
    }

    /// Esc while a sharing action runs and nothing nearer takes Esc (a prompt, the palette, a selection, a field
    /// being edited): the action is asked to stop. Nil when the key is handled as usual.
    func handlingDuringSharing(_ key: Key) -> (AppState, [AppEffect])? {
        if key == .escape, sharingActivity == nil, !helpOpen, confirming == nil, case var .editor(editor) = screen,
           editor.sharing?.phase == .syncing, editor.prompt == nil, !editor.paletteOpen, editor.selectionAnchor == nil {
            var state = self
            editor.hint = "stopping the sync in progress; nothing is half-done"
            state.screen = .editor(editor)
            return (state, [.sharing(.cancelRound)])
        }
        guard key == .escape, var activity = sharingActivity, activity.cancellable, !activity.cancelling, !helpOpen, confirming == nil
        else { return nil }
        switch screen {
        case let .editor(editor) where editor.prompt == nil && !editor.paletteOpen && editor.selectionAnchor == nil: break
        case let .sharing(.remotes(remotes), _) where remotes.editing == nil && remotes.removing == nil: break
        default: return nil
        }
        var state = self
        activity.cancelling = true
        state.sharingActivity = activity
        return (state, [.sharing(.cancel)])
    }

    /// Takes a sharing result: an action's summary or failure where the screen shows messages, the conflicts
    /// loaded, a preview (dropped when stale), a settled conflict (back to the editor).
    package mutating func receiveSharing(_ event: SharingEvent) {
        switch event {
        case let .performed(_, outcome):
            sharingActivity = nil
            showSharingOutcome(outcome)
        case let .conflicts(list): updateConflicts { $0.loaded(list) }
        case let .conflictsFailed(text): updateConflicts { $0.loading = false; $0.error = text }
        case let .preview(subject, lines): updateConflicts { $0.receivePreview(lines, for: subject) }
        case let .previewFailed(subject, text): updateConflicts { $0.receivePreviewFailure(text, for: subject) }
        case let .settled(_, outcome):
            sharingActivity = nil
            guard case .sharing(.conflicts(var conflicts), var editor) = screen else { showSharingOutcome(outcome); return }
            switch outcome {
            case let .done(summary): editor.hint = summary; screen = .editor(editor)
            case let .failed(text): conflicts.message = .failure(text); screen = .sharing(.conflicts(conflicts), editor)
            }
        }
    }

    /// An action's one-line summary (a hint: not an error) or failure, where the current screen shows messages.
    mutating func showSharingOutcome(_ outcome: SharingOutcome) {
        switch (screen, outcome) {
        case (var .editor(editor), let .done(summary)): editor.hint = summary; screen = .editor(editor)
        case (var .editor(editor), let .failed(text)): editor.message = .failure(text); screen = .editor(editor)
        case (.sharing(.remotes(var remotes), let editor), _):
            remotes.message = outcome.line
            screen = .sharing(.remotes(remotes), editor)
        case (.sharing(.conflicts(var conflicts), let editor), _):
            conflicts.message = outcome.line
            screen = .sharing(.conflicts(conflicts), editor)
        case (_, let .done(summary)): message = .success(summary)
        case (_, let .failed(text)): showFailure(text)
        }
    }

    /// The run loop's view of the open document's sharing: its state (nil: the session has none) and remotes, and
    /// the running action's latest progress line.
    package mutating func observeSharing(_ sharing: SharingState?, remotes: [SharingRemote], interval: Int?, progress: String?) {
        sharingActivity?.progress = progress
        switch screen {
        case var .editor(editor):
            guard editor.sharing != sharing else { return }
            editor.sharing = sharing
            screen = .editor(editor)
        case .sharing(let page, var editor):
            editor.sharing = sharing
            guard case var .remotes(state) = page else { screen = .sharing(page, editor); return }
            state.remotes = remotes
            state.interval = interval
            state.continuous = sharing?.continuous ?? false
            state.selection = min(state.selection, max(0, remotes.count - 1))
            screen = .sharing(.remotes(state), editor)
        default: break
        }
    }

    /// Applies `change` to the conflict screen when it is shown (a result for a screen since left is dropped).
    mutating func updateConflicts(_ change: (inout ConflictScreenState) -> Void) {
        guard case .sharing(.conflicts(var conflicts), let editor) = screen else { return }
        change(&conflicts)
        screen = .sharing(.conflicts(conflicts), editor)
    }
}

extension SharingOutcome {
    /// The line a screen shows: the summary, or the reason it failed.
    var line: StatusLine {
        switch self {
        case let .done(summary): .success(summary)
        case let .failed(text): .failure(text)
        }
    }
}

extension SharingScreen {
    /// Whether printable keys go into a text field (the remote form).
    var isTyping: Bool { if case let .remotes(remotes) = self { return remotes.editing != nil } else { return false } }

    /// Whether quitting would throw away typed text (the remote form's values changed).
    var hasTypedText: Bool {
        guard case let .remotes(remotes) = self, remotes.editing != nil else { return false }
        var opened = remotes
        if let editing = remotes.editing { opened.begin(editing) }
        return opened.fields.map(\.text) != remotes.fields.map(\.text)
    }
}

extension AppState {
    /// Keys on a sharing screen; the screen is written back unless the key left it.
    mutating func sharingScreenKey(_ key: Key, page: SharingScreen, editor: EditorState, effects: inout [AppEffect]) {
        switch page {
        case var .remotes(remotes):
            remoteSettingsKey(key, remotes: &remotes, editor: editor, effects: &effects)
            if case .sharing(.remotes, let current) = screen { screen = .sharing(.remotes(remotes), current) }
        case var .conflicts(conflicts):
            conflictKey(key, conflicts: &conflicts, editor: editor, effects: &effects)
            if case .sharing(.conflicts, let current) = screen { screen = .sharing(.conflicts(conflicts), current) }
        }
    }

    /// A paste on a sharing screen: into the remote form's focused field, else ignored with a note.
    mutating func pastingIntoSharing(_ text: String, page: inout SharingScreen) {
        switch page {
        case var .remotes(remotes):
            if remotes.editing != nil, remotes.fields.indices.contains(remotes.focus) {
                remotes.fields[remotes.focus].insert(text)
                remotes.problem = nil
            } else {
                remotes.message = Self.pasteIgnored("a adds a remote, e changes a URL")
            }
            page = .remotes(remotes)
        case var .conflicts(conflicts):
            conflicts.message = Self.pasteIgnored("m, t or b chooses")
            page = .conflicts(conflicts)
        }
    }
}
