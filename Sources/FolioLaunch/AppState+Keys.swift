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
        state.returningToGenericView()
        if effects.contains(.quit), state.call != nil { effects.insert(.cancelPluginCall, at: 0) }
        return (state, effects)
    }

    private func handlingKey(_ key: Key, scene: LaunchScene) -> (AppState, [AppEffect]) {
        var state = self
        if key == .ctrl("q") { return (state, [.quit]) }
        if case let .paste(paste) = key { return handlingPaste(paste, scene: scene) }
        var effects: [AppEffect] = []
        switch screen {
        case .launch: state.launchKey(key, scene: scene, effects: &effects)
        case var .picker(picker):
            let visible = picker.visible(templates)
            switch key {
            case .escape: state.screen = .launch
            case .up: picker.selection = max(0, picker.selection - 1)
            case .down: picker.selection = min(max(0, visible.count - 1), picker.selection + 1)
            case .backspace: if !picker.filter.isEmpty { picker.filter.removeLast(); picker.selection = 0 }
            case let .character(c): picker.filter.append(c); picker.selection = 0
            case .enter:
                if visible.indices.contains(picker.selection) {
                    state.screen = .form(Self.templateForm(visible[picker.selection], folder: scene.documentsFolder))
                    return (state, effects)
                }
            default: break
            }
            if case .picker = state.screen { state.screen = .picker(picker) }
        case var .form(form):
            switch key {
            case .escape: state.screen = form.back ?? .launch
            case .up, .backTab: form.move(by: -1)
            case .down, .tab: form.move(by: 1)
            case .left, .right:
                if form.fields.indices.contains(form.focus), !form.fields[form.focus].choices.isEmpty {
                    let field = form.fields[form.focus]
                    let index = field.choices.firstIndex(of: field.value) ?? -1
                    let step = key == .right ? 1 : field.choices.count - 1
                    form.fields[form.focus].value = field.choices[(index + step + field.choices.count) % field.choices.count]
                }
            case .backspace:
                if form.fields.indices.contains(form.focus), !form.fields[form.focus].value.isEmpty {
                    form.fields[form.focus].value.removeLast()
                    form.fields[form.focus].message = nil
                }
            case let .character(c):
                if form.fields.indices.contains(form.focus), form.fields[form.focus].choices.isEmpty {
                    form.fields[form.focus].value.append(c)
                    form.fields[form.focus].message = nil
                }
            case .enter:
                if form.fields.indices.contains(form.focus) {
                    form.fields[form.focus].message = FormState.validate(form.fields[form.focus])
                    if form.fields[form.focus].message != nil { break }
                }
                if form.focus + 1 < form.fields.count { form.focus += 1; break }
                for index in form.fields.indices { form.fields[index].message = FormState.validate(form.fields[index]) }
                if let bad = form.fields.firstIndex(where: { $0.message != nil }) { form.focus = bad; break }
                effects.append(Self.submit(form))
                state.screen = Self.afterSubmit(form, previous: screen)
                return (state, effects)
            default: break
            }
            if case .form = state.screen { state.screen = .form(form) }
        case var .editor(editor):
            state.editorKey(key, editor: &editor, effects: &effects)
            if case .editor = state.screen { state.screen = .editor(editor) }
        case .history(var history, let editor):
            if state.historyKey(key, history: &history, editor: editor, effects: &effects) { state.screen = .history(history, editor) }
        case var .generic(view):
            state.genericKey(key, view: &view, effects: &effects)
            if case .generic = state.screen { state.screen = .generic(view) }
        case var .settings(settings):
            settings.message = nil
            switch key {
            case .escape: state.screen = settings.returnTo.map(Screen.editor) ?? .launch; return (state, effects)
            case .up, .backTab: settings.focus = SettingsState.Field(rawValue: max(0, settings.focus.rawValue - 1)) ?? .authorName
            case .down, .tab: settings.focus = SettingsState.Field(rawValue: min(SettingsState.Field.allCases.count - 1, settings.focus.rawValue + 1)) ?? .sync
            case .left, .right, .character(" "):
                if settings.focus == .sync { settings.sync = settings.sync == .full ? .none : .full }
                else if case let .character(c) = key { settings.append(c) }
            case .backspace: settings.removeLast()
            case .enter, .ctrl("s"):
                if let problem = settings.entryProblem {
                    settings.message = problem
                } else {
                    let updated = settings.applied(to: state.settings)
                    state.settings = updated
                    effects.append(.saveSettings(updated))
                    settings.colorEntry = ""; settings.sourceEntry = ""; settings.associationEntry = ""
                    settings.message = "Saved"
                }
            case let .character(c): settings.append(c)
            default: break
            }
            state.screen = .settings(settings)
        }
        return (state, effects)
    }

    mutating func launchKey(_ key: Key, scene: LaunchScene, effects: inout [AppEffect]) {
        let recentShown = LaunchLayout.visibleRows(scene: scene, context: launchContext)
        let rowCount = scene.actions.count + recentShown.count
        if var text = filter {
            switch key {
            case .escape: filter = nil; selection = min(selection, max(0, rowCount - 1))
            case .backspace: if !text.isEmpty { text.removeLast() }; filter = text; selection = scene.actions.count
            case let .character(c): text.append(c); filter = text; selection = scene.actions.count
            case .up: selection = max(0, selection - 1)
            case .down: selection = min(max(0, rowCount - 1), selection + 1)
            case .enter: activate(row: selection, scene: scene, recent: recentShown, effects: &effects)
            default: break
            }
            return
        }
        switch key {
        case .escape, .character("q"): effects.append(.quit)
        case .up, .character("k"): selection = max(0, selection - 1)
        case .down, .character("j"): selection = min(max(0, rowCount - 1), selection + 1)
        case .home: selection = 0
        case .end: selection = max(0, rowCount - 1)
        case .character("/"): filter = ""; selection = scene.actions.count
        case .enter: activate(row: selection, scene: scene, recent: recentShown, effects: &effects)
        case .character(","): screen = .settings(SettingsState(settings: settings)); effects.append(.openSettings)
        case let .character(c):
            if let index = scene.actions.firstIndex(where: { $0.key.map { String($0).lowercased() } == String(c).lowercased() }) {
                selection = index
                activate(row: index, scene: scene, recent: recentShown, effects: &effects)
            }
        default: break
        }
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
            effects.append(.open(path: shown[row - scene.actions.count].path))
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
