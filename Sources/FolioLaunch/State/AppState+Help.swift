import FolioTerminal

/// One line of the help overlay: keys and what they do, or a heading.
package struct HelpLine: Equatable, Sendable {
    package var keys: String
    package var text: String
    package var heading: Bool
    package init(keys: String, text: String, heading: Bool = false) { self.keys = keys; self.text = text; self.heading = heading }
    static func heading(_ title: String) -> HelpLine { HelpLine(keys: "", text: title, heading: true) }
}

extension AppState {
    /// Every key of the current screen, from the tables the screen's key handling uses (the screen's table, the text
    /// field's, the editor's commands with their shortcuts), then the keys every screen has.
    package func helpLines(scene: LaunchScene) -> [HelpLine] {
        var lines: [HelpLine] = []
        func table<A>(_ title: String, _ bindings: [KeyBinding<A>]) {
            lines.append(.heading(title))
            lines += bindings.map { HelpLine(keys: $0.label, text: $0.help) }
        }
        func textField(_ title: String) {
            lines.append(.heading(title))
            lines += TextField.bindings.map { HelpLine(keys: $0.label, text: $0.help) }
        }
        switch screen {
        case .launch:
            table("Launcher", Self.launchKeys)
            let lettered = scene.actions.filter { $0.key != nil }
            if !lettered.isEmpty {
                lines.append(.heading("Actions"))
                lines += lettered.map { HelpLine(keys: String($0.key ?? " "), text: $0.label) }
            }
            textField("While filtering (/)")
        case .picker:
            table("Template picker", Self.pickerKeys + Self.pickerListKeys)
            textField("Filter")
        case .form:
            table("Form", Self.formKeys)
            textField("Text fields")
        case let .editor(editor):
            lines.append(.heading("Moving"))
            lines += Self.editorNavigation.map { HelpLine(keys: $0.label, text: $0.help) }
            let plugin = editor.commands.filter { $0.shortcut != nil }
            if !plugin.isEmpty {
                lines.append(.heading("\(editor.editorName ?? "Editor") commands"))
                lines += plugin.map { HelpLine(keys: Self.displayShortcut($0.shortcut), text: $0.title + ($0.needsSelection ? " (on the selection)" : "")) }
            }
            let unbound = editor.commands.filter { $0.shortcut == nil }
            if !unbound.isEmpty { lines.append(HelpLine(keys: "^P", text: "also: " + unbound.map(\.title).joined(separator: ", "))) }
            lines.append(.heading("Folio"))
            lines += EditorState.hostCommands.map { HelpLine(keys: Self.displayShortcut($0.shortcut), text: $0.title) }
            if !editor.sharingCommands.isEmpty {
                lines.append(.heading("Sharing"))
                lines += editor.sharingCommands.map { HelpLine(keys: $0.shortcut.map { Self.displayShortcut($0) } ?? "^P", text: $0.title) }
                lines.append(HelpLine(keys: "esc", text: "stop the running sync, push or pull"))
            }
            lines.append(.heading("Command palette (^P)"))
            lines += [HelpLine(keys: "type", text: "filter the commands"), HelpLine(keys: "↑ ↓ ^P ^N", text: "select"),
                      HelpLine(keys: "⏎", text: "run"), HelpLine(keys: "esc", text: "clear the filter, then close")]
            lines.append(.heading("Command form (a command with several fields)"))
            lines += Self.commandFormKeys.map { HelpLine(keys: $0.label, text: $0.help) }
            textField("Prompt (⏎ answers, esc cancels)")
        case .generic:
            lines.append(.heading("Files"))
            lines += Self.genericKeys.map { HelpLine(keys: $0.label, text: $0.help) }
        case .history:
            lines.append(.heading("History"))
            lines += Self.historyKeys.map { HelpLine(keys: $0.label, text: $0.help) }
        case .settings:
            table("Settings", Self.settingsKeys)
            textField("Text fields")
        case .sharing(.remotes, _):
            table("Remote settings", Self.remoteKeys)
            table("Remote form (a, e, i)", Self.remoteFormKeys)
            textField("Text fields")
        case .sharing(.conflicts, _):
            table("Conflicts", Self.conflictKeys)
        }
        if !tabs.titles.isEmpty {
            lines.append(.heading("Open documents"))
            lines.append(HelpLine(keys: "^T", text: "list the open documents (tabs)"))
            lines += Self.tabListKeys.map { HelpLine(keys: $0.label, text: $0.help) }
        }
        lines.append(.heading("Everywhere"))
        lines += Self.globalKeys.map { HelpLine(keys: $0.label, text: $0.help) }
        lines.append(HelpLine(keys: "M", text: screenBindsM(scene: scene)
            ? "this screen's own (above); elsewhere the last 100 messages (here: ^P, Message log, where there is one)"
            : "the last 100 messages in full, with their time"))
        return lines
    }

    /// The help lines that match what was typed in the overlay (keys or words, any letter case), each under its
    /// section's heading; all of them when nothing was typed, one line saying so when nothing matches.
    package func shownHelpLines(scene: LaunchScene) -> [HelpLine] {
        let all = helpLines(scene: scene)
        let needle = helpFilter.text.lowercased().trimming(.whitespaces)
        guard !needle.isEmpty else { return all }
        var shown: [HelpLine] = []
        var heading: HelpLine?
        for line in all {
            if line.heading { heading = line; continue }
            guard line.keys.lowercased().contains(needle) || line.text.lowercased().contains(needle) else { continue }
            if let pending = heading { shown.append(pending); heading = nil }
            shown.append(line)
        }
        return shown.isEmpty ? [HelpLine(keys: "", text: "No key matches “\(helpFilter.text)” (⌫ or esc clears)")] : shown
    }

    /// The first help line for where the user is: a prompt's or the palette's section in the editor, the filter's
    /// on the launcher; the top otherwise. Kept so that the overlay still fills its rows.
    func helpStart(scene: LaunchScene) -> Int {
        let lines = helpLines(scene: scene)
        let section: String?
        switch screen {
        case let .editor(editor) where editor.prompt?.isForm == true: section = "Command form"
        case let .editor(editor) where editor.prompt != nil: section = "Prompt"
        case let .editor(editor) where editor.paletteOpen: section = "Command palette"
        case .launch where filter != nil: section = "While filtering"
        default: section = nil
        }
        guard let section, let index = lines.firstIndex(where: { $0.heading && $0.text.hasPrefix(section) }) else { return 0 }
        let start = Screens.helpDisplayRows(Array(lines.prefix(index)), width: columns).count
        let total = Screens.helpDisplayRows(lines, width: columns).count
        return min(start, max(0, total - Screens.helpRows(height: rows)))
    }

    /// The editor's moving keys (`editorKey` handles them; plugin and host commands are listed from their tables).
    static let editorNavigation: [(label: String, help: String)] = [
        ("↑ ↓ k j", "previous / next item"),
        ("PgUp PgDn", "a page up / down"),
        ("Home End", "first / last item"),
        ("v", "start or end a selection (commands act on it)"),
        ("⇧ arrows", "pan the view; the cursor brings it back"),
        ("esc", "cancel the prompt, palette or selection (never closes)"),
    ]

    /// A command form's keys (`promptKey` in CommandForm+Keys.swift handles them; the text keys are the prompt's).
    static let commandFormKeys: [(label: String, help: String)] = [
        ("↓ Tab", "next field (checks this one)"),
        ("↑ ⇧Tab", "previous field"),
        ("⏎", "check it; the next empty field, or run"),
        ("←", "previous choice (a field with choices)"),
        ("→ ␣", "next choice"),
        ("letter", "the choice starting with that letter"),
        ("^O", "edit a long text field in $VISUAL / $EDITOR"),
        ("esc", "cancel (once values were typed: esc again)"),
    ]

    /// The history browser's keys (its key handling lives with the history screen).
    static let historyKeys: [(label: String, help: String)] = [
        ("↑ ↓", "select a commit"),
        ("PgUp PgDn", "a page up / down (the diff's, once tab gave it focus)"),
        ("Home End", "the newest / the oldest version (loads the rest first)"),
        ("/", "filter by message or tag (tag: keeps named versions; ⏎ keeps, esc clears)"),
        ("g", "go to a date: YYYY-MM-DD, today, yesterday, 3 days ago, 2 weeks ago, @N"),
        ("⏎", "show its diff"),
        ("v", "this version as its editor draws it, beside the current one (v again: the diff)"),
        ("o", "below 120 columns: switch between that version and the current one"),
        ("r", "restore this version (r again confirms; one new commit)"),
        ("u ^Z / ^Y", "undo / redo the newest change (a restore too)"),
        ("t", "tag this version"),
        ("c", "mark for compare, then c on another"),
        ("esc q", "back: the diff to the list, a filter cleared, then the editor"),
    ]
}
