import Foundation
import FolioCore
import FolioTerminal

extension AppState {
    /// Applies a key: the new state and the effects for the runtime. Pure; never traps.
    /// While a call runs, Esc and ^Q stop it first (`handlingDuringCall`); a key that starts one marks it running.
    public func handling(_ key: Key, scene: LaunchScene) -> (AppState, [AppEffect]) {
        if let during = handlingDuringCall(key) { return during }
        var (state, effects) = handlingKey(key, scene: scene)
        state.beginCall(for: effects)
        if effects.contains(.quit), state.call != nil { effects.insert(.cancelPluginCall, at: 0) }
        return (state, effects)
    }

    private func handlingKey(_ key: Key, scene: LaunchScene) -> (AppState, [AppEffect]) {
        var state = self
        if let question = confirming {
            state.confirming = nil
            if key == question.key { return state.confirmed(question, scene: scene) }
            // Esc only takes the question back; another key is also handled as usual.
            if key == .escape { return (state, []) }
        }
        if key == .ctrl("q") {
            if state.hasUnsavedText { state.confirming = .quit; return (state, []) }
            return (state, [.quit])
        }
        if case let .paste(paste) = key { return state.handlingPaste(paste, scene: scene) }
        if state.helpOpen { state.helpKey(key, scene: scene); return (state, []) }
        if key == .f1 || (key == .character("?") && !state.isTyping) { state.helpOpen = true; state.helpScroll = 0; return (state, []) }
        var effects: [AppEffect] = []
        switch screen {
        case .launch: state.launchKey(key, scene: scene, effects: &effects)
        case var .picker(picker): state.pickerKey(key, picker: &picker, scene: scene)
        case var .form(form): state.formKey(key, form: &form, effects: &effects)
        case var .editor(editor):
            editor.hint = nil
            if editor.paletteOpen { state.paletteKey(key, editor: &editor, effects: &effects) }
            else if editor.prompt == nil || !Self.editPromptText(key, editor: &editor) { state.editorKey(key, editor: &editor, effects: &effects) }
            else { editor.message = nil }
            if case .editor = state.screen { state.screen = .editor(editor) }
        case .history(var history, let editor):
            switch key {
            case .escape: state.screen = .editor(editor); return (state, effects)
            case .up: history.selection = max(0, history.selection - 1)
            case .down: history.selection = min(max(0, history.entries.count - 1), history.selection + 1)
            case .enter: if history.entries.indices.contains(history.selection) { effects.append(.loadDiff(commitID: history.entries[history.selection].id)) }
            case .character("r"): if history.entries.indices.contains(history.selection) { effects.append(.restore(commitID: history.entries[history.selection].id)) }
            case .character("t"):
                if history.entries.indices.contains(history.selection) {
                    let id = history.entries[history.selection].id
                    state.screen = .form(FormState(title: "Tag \(String(id.prefix(7)))", purpose: .tag(commitID: id), fields: [
                        .init(name: "tag", label: "Tag name", value: "", choices: [], required: true, pattern: "[A-Za-z0-9._/-]+", message: nil),
                    ], focus: 0, back: .history(history, editor)))
                    return (state, effects)
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
            state.screen = .history(history, editor)
        case var .settings(settings): state.settingsKey(key, settings: &settings, effects: &effects)
        }
        return (state, effects)
    }

    /// Keys in the editor host: the prompt first, then the palette, then movement, host and plugin shortcuts.
    mutating func editorKey(_ key: Key, editor: inout EditorState, effects: inout [AppEffect]) {
        editor.message = nil
        if var prompt = editor.prompt {
            switch key {
            case .escape: editor.prompt = nil
            case .enter:
                let answer = prompt.text
                if let problem = prompt.currentArgument?.problem(with: answer) { editor.message = problem; break }
                prompt.values[prompt.asking] = answer
                prompt.text = ""
                if let next = prompt.values.indices.first(where: { prompt.values[$0] == nil }) {
                    prompt.asking = next
                    editor.prompt = prompt
                } else {
                    editor.prompt = nil
                    effects.append(.runEditorCommand(prompt.command.id, arguments: prompt.submittedArguments))
                }
            default: break
            }
            return
        }
        let last = max(0, (editor.items?.count ?? Int.max / 2) - 1)
        let page = max(1, editor.viewRows - 1)
        switch key {
        case .escape:
            // Esc cancels the selection and nothing more: ^W closes the document, ^Q quits.
            if editor.selectionAnchor != nil { editor.selectionAnchor = nil } else { editor.hint = Self.escapeHint(editor: true) }
        case .up: editor.cursor = max(0, editor.cursor - 1)
        case .down: editor.cursor = min(last, editor.cursor + 1)
        case .pageUp: editor.cursor = max(0, editor.cursor - page)
        case .pageDown: editor.cursor = min(last, editor.cursor + page)
        case .home: editor.cursor = 0
        case .end: editor.cursor = editor.items == nil ? editor.cursor : last
        default:
            if let command = (editor.commands + EditorState.hostCommands).first(where: { Self.matches(key, $0.shortcut) }) {
                invoke(command, editor: &editor, effects: &effects)
            } else if key == .character("k") {
                editor.cursor = max(0, editor.cursor - 1)
            } else if key == .character("j") {
                editor.cursor = min(last, editor.cursor + 1)
            } else if key == .character("v") {
                editor.selectionAnchor = editor.selectionAnchor == nil ? editor.cursor : nil
            }
        }
        // Keep the cursor on screen.
        let rows = max(1, editor.viewRows)
        if editor.cursor < editor.scroll { editor.scroll = editor.cursor }
        if editor.cursor >= editor.scroll + rows { editor.scroll = editor.cursor - rows + 1 }
    }

    /// Runs a command from a shortcut or the palette: host commands change the screen; plugin commands get their item
    /// numbers from the cursor or the selection and ask for text arguments first.
    mutating func invoke(_ command: EditorCommand, editor: inout EditorState, effects: inout [AppEffect]) {
        switch command.id {
        case "folio.palette": editor.paletteOpen = true; editor.paletteIndex = 0; editor.paletteFilter = TextField(); return
        case "folio.history":
            editor.paletteOpen = false
            screen = .history(HistoryState(), editor)
            effects += [.openHistory, .loadHistoryPage(after: nil)]
            return
        case "folio.settings":
            editor.paletteOpen = false
            screen = .settings(SettingsState(settings: settings, returnTo: editor))
            effects.append(.openSettings)
            return
        case "folio.close": screen = .launch; return
        case "folio.undo", "folio.redo": effects.append(.runEditorCommand(command.id)); return
        default: break
        }
        let target = editor.effectiveSelection
        if command.needsSelection, target == nil {
            editor.message = "\(command.title) needs a selection (v selects)"
            return
        }
        let names = command.argumentNames
        var values: [String?] = names.map { name in
            guard EditorCommand.isItemArgument(name) else { return nil }
            return String((target?.start ?? editor.cursor) + 1)
        }
        if let first = values.indices.first(where: { values[$0] == nil }) {
            editor.prompt = EditorPrompt(command: command, values: values, names: names, asking: first).suggesting(from: editor)
            values = []
            return
        }
        effects.append(.runEditorCommand(command.id, arguments: values.map { $0 ?? "" }))
    }

    mutating func activate(row: Int, scene: LaunchScene, recent shown: [RecentDocument], effects: inout [AppEffect]) {
        if scene.actions.indices.contains(row) {
            switch scene.actions[row].kind {
            case let .newDocument(contentType):
                screen = .form(FormState(title: scene.actions[row].label, purpose: .blank(contentType), fields: [
                    Self.destinationField(folder: scene.documentsFolder, name: "Untitled"),
                ], focus: 0))
            case let .chooseTemplate(group, contentType):
                screen = .picker(PickerState(group: group, contentType: contentType))
            case .openRecent:
                if !shown.isEmpty { selection = scene.actions.count }
            case let .open(path):
                screen = .form(FormState(title: scene.actions[row].label, purpose: .open, fields: [
                    .init(name: "path", label: "Path", value: path ?? "", choices: [], required: true, pattern: nil, message: nil),
                ], focus: 0))
            case let .command(arguments):
                effects.append(.runCommand(arguments))
            }
        } else if shown.indices.contains(row - scene.actions.count) {
            let document = shown[row - scene.actions.count]
            if document.missing { message = "✗ \(document.path) no longer exists: x removes it from the list"; return }
            effects.append(.open(path: document.path))
        }
    }

    static func destinationField(folder: String, name: String) -> FormState.Field {
        let slug = name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
        let path = folder == "." || folder.isEmpty ? (slug.isEmpty ? "untitled" : slug) : folder + "/" + (slug.isEmpty ? "untitled" : slug)
        return .init(name: "destination", label: "Destination", value: path, choices: [], required: true, pattern: nil, message: nil)
    }

    static func templateForm(_ template: TemplateSummary, folder: String) -> FormState {
        var fields = template.variables.map { variable in
            FormState.Field(name: variable.name, label: variable.prompt, value: variable.defaultValue.isEmpty && !variable.choices.isEmpty ? variable.choices[0] : variable.defaultValue,
                            choices: variable.choices, required: variable.required, pattern: variable.pattern, message: nil,
                            declaration: variable.declaration)
        }
        fields.append(destinationField(folder: folder, name: template.name))
        return FormState(title: "New from “\(template.name)”", purpose: .template(template), fields: fields, focus: 0)
    }

    static func submit(_ form: FormState) -> AppEffect {
        let values = Dictionary(form.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        switch form.purpose {
        case let .blank(contentType): return .createBlank(contentType, destination: values["destination"] ?? "untitled")
        case let .template(template):
            var answers = values
            answers.removeValue(forKey: "destination")
            return .instantiate(templateID: template.id, answers: answers, destination: values["destination"] ?? template.id)
        case .open: return .open(path: values["path"] ?? "")
        case let .tag(commitID): return .tag(commitID: commitID, name: values["tag"] ?? "")
        }
    }

    static func afterSubmit(_ form: FormState, previous: Screen) -> Screen { form.back ?? .launch }

    /// Whether `key` is the shortcut: "^B" or "ctrl+b" (Ctrl with a letter), "space", "enter", "tab", or one character.
    static func matches(_ key: Key, _ shortcut: String?) -> Bool {
        guard let shortcut, !shortcut.isEmpty else { return false }
        let lower = shortcut.lowercased()
        if shortcut.hasPrefix("^"), shortcut.count == 2, let letter = shortcut.last { return key == .ctrl(Character(letter.lowercased())) }
        if lower.hasPrefix("ctrl+") || lower.hasPrefix("ctrl-"), lower.count == 6, let letter = lower.last { return key == .ctrl(letter) }
        switch lower {
        case "space": return key == .character(" ")
        case "enter", "return": return key == .enter
        case "tab": return key == .tab
        case "delete", "del": return key == .delete
        default: break
        }
        if shortcut.count == 1, let character = shortcut.first { return key == .character(character) }
        return false
    }

    /// A shortcut as the command bar shows it: "ctrl+a" → "^A", "space" → "␣".
    public static func displayShortcut(_ shortcut: String?) -> String {
        guard let shortcut else { return "" }
        let lower = shortcut.lowercased()
        if (lower.hasPrefix("ctrl+") || lower.hasPrefix("ctrl-")), lower.count == 6, let letter = shortcut.last { return "^" + letter.uppercased() }
        if lower == "space" { return "␣" }
        return shortcut
    }
}

extension LaunchLayout {
    /// The recent documents the launch screen lists (filtered and limited), for navigation.
    public static func visibleRows(scene: LaunchScene, context: LaunchContext) -> [RecentDocument] {
        Array(context.filteredRecent.prefix(max(0, scene.recent.count)))
    }
}
