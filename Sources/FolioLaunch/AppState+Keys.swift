import Foundation
import FolioCore
import FolioTerminal

extension AppState {
    /// Applies a key: the new state and the effects for the runtime. Pure; never traps.
    public func handling(_ key: Key, scene: LaunchScene) -> (AppState, [AppEffect]) {
        var state = self
        if key == .ctrl("q") { return (state, [.quit]) }
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
            case .escape: state.screen = .launch
            case .up, .backTab: form.focus = max(0, form.focus - 1)
            case .down, .tab: form.focus = min(max(0, form.fields.count - 1), form.focus + 1)
            case .left, .right:
                if form.fields.indices.contains(form.focus), !form.fields[form.focus].choices.isEmpty {
                    let field = form.fields[form.focus]
                    let index = field.choices.firstIndex(of: field.value) ?? -1
                    let step = key == .right ? 1 : field.choices.count - 1
                    form.fields[form.focus].value = field.choices[(index + step + field.choices.count) % field.choices.count]
                }
            case .backspace:
                if form.fields.indices.contains(form.focus), !form.fields[form.focus].value.isEmpty { form.fields[form.focus].value.removeLast() }
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
            if editor.paletteOpen {
                let commands = editor.paletteCommands
                switch key {
                case .escape: editor.paletteOpen = false
                case .up: editor.paletteIndex = max(0, editor.paletteIndex - 1)
                case .down: editor.paletteIndex = min(commands.count - 1, editor.paletteIndex + 1)
                case .enter:
                    if commands.indices.contains(editor.paletteIndex) {
                        let command = commands[editor.paletteIndex]
                        if command.id == "folio.history" {
                            effects.append(.openHistory)
                            editor.paletteOpen = false
                            state.screen = .history(HistoryState(), editor)
                            effects.append(.loadHistoryPage(after: nil))
                            return (state, effects)
                        }
                        if !command.needsSelection || editor.selection != nil {
                            effects.append(.runEditorCommand(command.id))
                            editor.paletteOpen = false
                        }
                    }
                default: break
                }
                state.screen = .editor(editor)
                return (state, effects)
            }
            switch key {
            case .escape:
                if editor.selectionAnchor != nil { editor.selectionAnchor = nil } else { state.screen = .launch; return (state, effects) }
            case .up: editor.cursor = max(0, editor.cursor - 1)
            case .down: editor.cursor += 1
            case .ctrl("p"): editor.paletteOpen = true; editor.paletteIndex = 0
            case .ctrl("g"):
                state.screen = .history(HistoryState(), editor)
                return (state, [.openHistory, .loadHistoryPage(after: nil)])
            case .character("v"): editor.selectionAnchor = editor.selectionAnchor == nil ? editor.cursor : nil
            default:
                if let command = editor.commands.first(where: { Self.matches(key, $0.shortcut) }),
                   !command.needsSelection || editor.selection != nil {
                    effects.append(.runEditorCommand(command.id))
                }
            }
            state.screen = .editor(editor)
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
                    ], focus: 0))
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
        case .settings:
            if key == .escape || key == .character("q") { state.screen = .launch }
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
        case .character(","): screen = .settings
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
                            choices: variable.choices, required: variable.required, pattern: variable.pattern, message: nil)
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

    static func afterSubmit(_ form: FormState, previous: Screen) -> Screen { .launch }

    static func matches(_ key: Key, _ shortcut: String?) -> Bool {
        guard let shortcut else { return false }
        if shortcut.hasPrefix("^"), shortcut.count == 2, let letter = shortcut.last { return key == .ctrl(Character(letter.lowercased())) }
        if shortcut.count == 1, let character = shortcut.first { return key == .character(character) }
        return false
    }
}

extension LaunchLayout {
    /// The recent documents the launch screen lists (filtered and limited), for navigation.
    public static func visibleRows(scene: LaunchScene, context: LaunchContext) -> [RecentDocument] {
        Array(context.filteredRecent.prefix(max(0, scene.recent.count)))
    }
}
