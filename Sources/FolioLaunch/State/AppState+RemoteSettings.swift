import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTerminal

/// The remote settings screen of the open document: its remotes, how often the remote is looked at, continuous
/// sync, and the small form that adds a remote, changes a URL, sets the interval or shares the document.
package struct RemoteSettingsState: Equatable, Sendable {
    /// What the form being filled in does.
    package enum Editing: Equatable, Sendable {
        case add
        /// Add a remote, push, and turn continuous sync on (the editor's "Share"; back to the editor once started).
        case share
        /// A new URL for the remote with this name.
        case change(String)
        case interval
    }

    /// The document's remotes (set by the run loop from `DocumentSharing.remotes()`).
    package var remotes: [SharingRemote] = []
    /// Seconds between looks at the remote, nil when the session does not say.
    package var interval: Int?
    package var continuous = false
    /// The selected remote.
    package var selection = 0
    /// The form open, if any, with its fields (name and URL; URL; seconds) and the focused one.
    package var editing: Editing?
    package var fields: [TextField] = []
    package var focus = 0
    /// What is wrong with the form's values (the form stays open, values kept).
    package var problem: String?
    /// The remote `x` asked to remove: `y` removes it, any other key keeps it.
    package var removing: String?
    /// The last action's one-line result, or why a key did nothing.
    package var message: StatusLine?

    package init(editing: Editing? = nil, interval: Int? = nil) {
        self.interval = interval
        if let editing { begin(editing) }
    }

    /// The labels of the open form's fields.
    package var fieldLabels: [String] {
        switch editing {
        case .add?, .share?: ["Name", "URL"]
        case .change?: ["URL"]
        case .interval?: ["Seconds"]
        case nil: []
        }
    }

    /// Opens the form for `purpose` with its values ready to edit.
    mutating func begin(_ purpose: Editing) {
        editing = purpose
        problem = nil
        switch purpose {
        case .add: fields = [TextField(), TextField()]; focus = 0
        case .share: fields = [TextField("origin"), TextField()]; focus = 1
        case let .change(name): fields = [TextField(remotes.first { $0.name == name }?.url ?? "")]; focus = 0
        case .interval: fields = [TextField(String(interval ?? 30))]; focus = 0
        }
    }

    /// The action the form's values ask for, or the one-line problem with them.
    func submitted() -> Result<(SharingAction, String), RemoteFormProblem> {
        let values = fields.map { $0.text.trimming(.whitespaces) }
        switch editing {
        case .add?, .share?:
            if let problem = Self.nameProblem(values[0]) { return .failure(.init(problem, field: 0)) }
            if editing == .add, remotes.contains(where: { $0.name == values[0] }) {
                return .failure(.init("a remote named \(values[0]) exists (e changes its URL)", field: 0))
            }
            if let problem = Self.urlProblem(values[1]) { return .failure(.init(problem, field: 1)) }
            return editing == .share ? .success((.share(remote: values[0], url: values[1]), "share to \(values[0])"))
                : .success((.addRemote(name: values[0], url: values[1]), "add remote \(values[0])"))
        case let .change(name)?:
            if let problem = Self.urlProblem(values[0]) { return .failure(.init(problem, field: 0)) }
            return .success((.changeRemote(name: name, url: values[0]), "change \(name)"))
        case .interval?:
            guard let seconds = Self.interval(values[0]) else {
                return .failure(.init("the interval is a whole number of seconds from 1 to 86400, got '\(values[0])'", field: 0))
            }
            return .success((.interval(seconds: seconds), "interval \(seconds) s"))
        case nil:
            return .failure(.init("nothing to submit", field: 0))
        }
    }

    /// A remote name git accepts and a command line cannot mistake for an option: letters, digits, `.`, `_`, `-`.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a remote needs a name (origin, backup…)" }
        let allowed = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }
        if !allowed || name.hasPrefix("-") || name.hasPrefix(".") || name.hasSuffix(".lock") || name.contains("..") {
            return "'\(name)' is not a remote name: use letters, digits, . _ - (not first)"
        }
        return nil
    }

    /// A URL one line long with no spaces or control characters (the sync loop checks the rest when it connects).
    static func urlProblem(_ url: String) -> String? {
        if url.isEmpty { return "the remote needs a URL (https://…, ssh://…, git://… or a path)" }
        if url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "a URL has no spaces or control characters"
        }
        return nil
    }

    /// Whole seconds from 1 to 86400 (a day), nil otherwise.
    static func interval(_ text: String) -> Int? {
        guard let seconds = Int(text), (1...86_400).contains(seconds) else { return nil }
        return seconds
    }
}

/// A value of the remote form that cannot be used: the one line, and the field it is about.
struct RemoteFormProblem: Error, Equatable {
    var text: String
    var field: Int
    init(_ text: String, field: Int) { self.text = text; self.field = field }
}

/// What a key does on the remote settings screen (outside its form).
package enum RemoteKeyAction: Sendable, Equatable { case up, down, add, change, remove, interval, continuous, back }
/// What a key does in the remote settings screen's form, beside editing the focused field.
package enum RemoteFormKeyAction: Sendable, Equatable { case previous, next, submit, cancel }

extension AppState {
    package static let remoteKeys: [KeyBinding<RemoteKeyAction>] = [
        .init([.up, .character("k")], .up, "↑ k", "previous remote"),
        .init([.down, .character("j")], .down, "↓ j", "next remote"),
        .init([.character("a")], .add, "a", "add a remote (name and URL)"),
        .init([.character("e"), .enter], .change, "e ⏎", "change the selected remote's URL"),
        .init([.character("x"), .delete], .remove, "x Del", "remove the selected remote (y confirms)"),
        .init([.character("i")], .interval, "i", "how often the remote is looked at (1–86400 s)"),
        .init([.character("c")], .continuous, "c", "continuous sync on/off"),
        .init([.escape], .back, "esc", "stop the running action, else back to the editor"),
    ]

    package static let remoteFormKeys: [KeyBinding<RemoteFormKeyAction>] = [
        .init([.up, .backTab], .previous, "↑ ⇧Tab", "previous field"),
        .init([.down, .tab], .next, "↓ Tab", "next field"),
        .init([.enter], .submit, "⏎", "next field; on the last one, do it"),
        .init([.escape], .cancel, "esc", "close the form (nothing changed)"),
    ]

    /// Keys on the remote settings screen: the form first when open, then the question, then the screen's table.
    mutating func remoteSettingsKey(_ key: Key, remotes: inout RemoteSettingsState, editor: EditorState, effects: inout [AppEffect]) {
        remotes.message = nil
        if remotes.editing != nil { remoteFormKey(key, remotes: &remotes, editor: editor, effects: &effects); return }
        if let name = remotes.removing {
            remotes.removing = nil
            if key == .character("y") { start(.removeRemote(name: name), label: "remove \(name)", remotes: &remotes, effects: &effects) }
            else { remotes.message = .note("Kept \(name)") }
            return
        }
        let selected = remotes.remotes.indices.contains(remotes.selection) ? remotes.remotes[remotes.selection] : nil
        switch Self.remoteKeys.action(for: key) {
        case .up?: remotes.selection = max(0, remotes.selection - 1)
        case .down?: remotes.selection = min(max(0, remotes.remotes.count - 1), remotes.selection + 1)
        case .add?: remotes.begin(.add)
        case .change?:
            guard let selected else { remotes.message = .failure("No remote yet: a adds one"); return }
            remotes.begin(.change(selected.name))
        case .remove?:
            guard let selected else { remotes.message = .failure("No remote to remove"); return }
            remotes.removing = selected.name
        case .interval?: remotes.begin(.interval)
        case .continuous?:
            let on = !remotes.continuous
            start(.continuous(on), label: "continuous sync " + (on ? "on" : "off"), remotes: &remotes, effects: &effects)
        case .back?: screen = .editor(editor)
        case nil: break
        }
    }

    private mutating func remoteFormKey(_ key: Key, remotes: inout RemoteSettingsState, editor: EditorState, effects: inout [AppEffect]) {
        let last = remotes.fields.count - 1
        switch Self.remoteFormKeys.action(for: key) {
        case .cancel?:
            if remotes.editing == .share { screen = .editor(editor); return }
            remotes.editing = nil; remotes.fields = []; remotes.problem = nil
        case .previous?: remotes.focus = max(0, remotes.focus - 1)
        case .next?: remotes.focus = min(last, remotes.focus + 1)
        case .submit? where remotes.focus < last: remotes.focus += 1
        case .submit?:
            switch remotes.submitted() {
            case let .failure(problem): remotes.problem = problem.text; remotes.focus = problem.field
            case let .success((action, label)):
                let sharing = remotes.editing == .share
                remotes.editing = nil; remotes.fields = []; remotes.problem = nil
                start(action, label: label, remotes: &remotes, effects: &effects)
                if sharing, sharingActivity?.label == label { screen = .editor(editor) }
            }
        case nil:
            guard remotes.fields.indices.contains(remotes.focus) else { return }
            if remotes.fields[remotes.focus].handle(key) {
                remotes.fields[remotes.focus].reveal(width: Screens.remoteFieldWidth(columns: columns))
                remotes.problem = nil
            }
        }
    }

    private mutating func start(_ action: SharingAction, label: String, remotes: inout RemoteSettingsState, effects: inout [AppEffect]) {
        if let busy = beginSharing(.perform(action), label: label, effects: &effects) { remotes.message = .failure(busy) }
    }
}
