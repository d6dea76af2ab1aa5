import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

extension AppState {
    /// Applies a key: the new state and the effects for the runtime. Pure; never traps.
    /// While a call runs, Esc and ^Q stop it first (`handlingDuringCall`); a key that starts one marks it running.
    package func handling(_ key: Key, scene: LaunchScene) -> (AppState, [AppEffect]) {
        if let during = handlingDuringCall(key) ?? handlingDuringSharing(key) { return during }
        var (state, effects) = handlingKey(key, scene: scene)
        state.noteMessages(since: self, key: key)
        state.beginCall(for: effects)
        state.returningToGenericView()
        if effects.contains(.quit), state.call != nil { effects.insert(.cancelPluginCall, at: 0) }
        return (state, effects)
    }

    private func handlingKey(_ key: Key, scene: LaunchScene) -> (AppState, [AppEffect]) {
        var state = self
        if let question = confirming {
            state.confirming = nil
            if key == question.key { return state.confirmed(question, scene: scene) }
            // Esc only takes the question back; another key is also handled as usual.
            if key == .escape || question.otherKeysOnlyCancel { return (state, []) }
        }
        if key == .ctrl("q") {
            if state.hasUnsavedText { state.confirming = .quit; return (state, []) }
            return (state, [.quit])
        }
        if case let .paste(paste) = key { return state.handlingPaste(paste, scene: scene) }
        if state.helpOpen { state.helpKey(key, scene: scene); return (state, []) }
        if state.messageLogOpen { state.messageLogKey(key); return (state, []) }
        if state.tabs.listOpen { return state.tabListKey(key) }
        if let listed = state.openingTabList(key) { return (listed, []) }
        if key == .f1 || (key == .character("?") && !state.isTyping) {
            state.helpOpen = true
            state.helpFilter = TextField()
            state.helpScroll = state.helpStart(scene: scene)
            return (state, [])
        }
        if key == .character("M"), !state.isTyping, !state.screenBindsM(scene: scene) { state.openMessageLog(); return (state, []) }
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
            if state.historyKey(key, history: &history, editor: editor, effects: &effects) { state.screen = .history(history, editor) }
        case var .generic(view):
            state.genericKey(key, view: &view, effects: &effects)
            if case .generic = state.screen { state.screen = .generic(view) }
        case var .settings(settings): state.settingsKey(key, settings: &settings, effects: &effects)
        case let .sharing(page, editor): state.sharingScreenKey(key, page: page, editor: editor, effects: &effects)
        }
        return (state, effects)
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
            if document.missing { message = .failure("\(document.path) no longer exists: x removes it from the list"); return }
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
        var form = FormState(title: "New from “\(template.name)”", purpose: .template(template), fields: fields, focus: 0)
        if template.liveCheck != nil {
            form.suggested = Dictionary(template.variables.map { ($0.name, $0.defaultValue) }, uniquingKeysWith: { first, _ in first })
            form.applyLiveCheck()
        }
        return form
    }

    static func submit(_ form: FormState) -> AppEffect {
        let values = Dictionary(form.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        switch form.purpose {
        case let .blank(contentType): return .createBlank(contentType, destination: values["destination"] ?? "untitled")
        case let .template(template):
            var answers = values
            answers.removeValue(forKey: "destination")
            // A default the template computes ("{{folder_name.title_case}}") was never shown: a field that opened empty
            // and is still empty leaves it to the template. An emptied field that showed a value stays an empty answer.
            for field in form.fields where field.initial.isEmpty && field.value.isEmpty && field.declaration?.default != nil {
                answers.removeValue(forKey: field.name)
            }
            return .instantiate(templateID: template.id, answers: answers, destination: values["destination"] ?? template.id)
        case .open: return .open(path: values["path"] ?? "")
        case let .tag(commitID): return .tag(commitID: commitID, name: values["tag"] ?? "")
        }
    }

    /// Where a submitted form leaves the app: its way back, except a template's form (whose way back is the picker,
    /// for Esc), which leaves to the launcher as the other new-document forms do.
    static func afterSubmit(_ form: FormState, previous: Screen) -> Screen {
        if case .picker? = form.back { return .launch }
        return form.back ?? .launch
    }

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
    package static func displayShortcut(_ shortcut: String?) -> String {
        guard let shortcut else { return "" }
        let lower = shortcut.lowercased()
        if (lower.hasPrefix("ctrl+") || lower.hasPrefix("ctrl-")), lower.count == 6, let letter = shortcut.last { return "^" + letter.uppercased() }
        if lower == "space" { return "␣" }
        return shortcut
    }
}

extension LaunchLayout {
    /// The recent documents the launch screen lists (all those the filter leaves; the list scrolls), for navigation.
    package static func visibleRows(scene: LaunchScene, context: LaunchContext) -> [RecentDocument] {
        scene.recent.count > 0 ? context.filteredRecent : []
    }
}
