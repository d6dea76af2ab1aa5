import FolioCore
import FolioTerminal

extension EditorCommand {
    /// Whether an argument takes several lines of text (a scene's or a file's TEXT); other arguments are one line.
    package static func isMultiLineArgument(_ name: String) -> Bool { name == "TEXT" }
}

extension PastedText {
    /// The text for a one-line field: every newline and tab becomes a space.
    var oneLine: String { String(text.map { $0 == "\n" || $0 == "\t" || $0 == "\r\n" ? " " : $0 }) }
}

extension AppState {
    /// A paste: text inserted into the field that has focus (one-line fields get newlines and tabs as spaces; a
    /// multi-line argument keeps them), never keys. Without a field it is ignored and the status line says so.
    /// Pure; the document is never changed by a paste.
    func handlingPaste(_ paste: PastedText, scene: LaunchScene) -> (AppState, [AppEffect]) {
        var state = self
        switch screen {
        case .launch:
            if var field = filterField { field.insert(paste.oneLine); state.filterField = field; state.selection = scene.actions.count }
            else { state.message = Self.pasteIgnored("/ to filter") }
        case var .picker(picker):
            picker.filterField.insert(paste.oneLine)
            picker.selection = 0
            state.screen = .picker(picker)
        case var .form(form):
            if form.fields.indices.contains(form.focus), form.fields[form.focus].choices.isEmpty {
                form.fields[form.focus].input.insert(paste.oneLine)
                form.fields[form.focus].message = nil
                form.applyLiveCheck()
            } else {
                state.message = Self.pasteIgnored("a text field, not a choice")
            }
            state.screen = .form(form)
        case var .editor(editor):
            editor.message = nil
            if let prompt = editor.prompt, !prompt.argument(prompt.asking).choices.isEmpty {
                editor.message = Self.pasteIgnored("a text field, not a choice")
            } else if var prompt = editor.prompt {
                let name = prompt.names.indices.contains(prompt.asking) ? prompt.names[prompt.asking] : ""
                prompt.input.insert(EditorCommand.isMultiLineArgument(name) ? paste.text : paste.oneLine)
                editor.prompt = prompt
            } else if editor.paletteOpen {
                editor.paletteFilter.insert(paste.oneLine)
                editor.paletteIndex = 0
            } else {
                editor.message = Self.pasteIgnored(Self.textCommandHint(editor))
            }
            state.screen = .editor(editor)
        case .history(var history, let editor):
            var effects: [AppEffect] = []
            if !state.pastingIntoHistory(paste.oneLine, history: &history, effects: &effects) {
                history.error = Self.pasteIgnored("/ to filter the versions, g to jump to a date").text
            }
            state.screen = .history(history, editor)
            return (state, effects)
        case var .generic(view):
            view.pasting(paste)
            state.screen = .generic(view)
        case var .settings(settings):
            if settings.focus == .sync { settings.message = Self.pasteIgnored("↑/↓ to a text field") }
            else {
                var field = settings.inputs[settings.focus] ?? TextField()
                field.insert(paste.oneLine)
                settings.inputs[settings.focus] = field
                settings.problems[settings.focus] = nil
            }
            state.screen = .settings(settings)
        case .sharing(var page, let editor):
            state.pastingIntoSharing(paste.oneLine, page: &page)
            state.screen = .sharing(page, editor)
        }
        if paste.truncated, case var .editor(editor) = state.screen, editor.message == nil {
            editor.message = .failure("paste cut short: over \(KeyDecoder.pasteLimit >> 20) MiB, or its end never arrived")
            state.screen = .editor(editor)
        }
        return (state, [])
    }

    /// "paste ignored: open a field first (a to add item, …)".
    static func pasteIgnored(_ hint: String) -> StatusLine { .failure("paste ignored: open a field first (\(hint))") }

    /// The editor's commands that ask for text, by shortcut: "a to add item, r to rename item, …".
    static func textCommandHint(_ editor: EditorState) -> String {
        let asking = editor.commands.filter { command in
            command.shortcut != nil && command.argumentNames.contains { !EditorCommand.isItemArgument($0) }
        }
        let named = asking.prefix(2).map { "\(displayShortcut($0.shortcut)) to \($0.title.lowercased())" }
        if named.isEmpty { return "^P for the commands" }
        return named.joined(separator: ", ") + (asking.count > 2 ? ", …" : "")
    }
}

extension EditorPrompt {
    /// The prompt's text as the one-line bar shows it: a kept newline as "⏎", a tab as a space.
    package var shownText: String { String(text.map { $0 == "\n" ? "⏎" : $0 == "\t" ? " " : $0 }) }
}
