import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTerminal

/// A key (or keys) bound to an action of a screen, with the words the help overlay shows: one table per screen is
/// both what the keys do and what the help says.
package struct KeyBinding<Action: Sendable & Equatable>: Sendable {
    package var keys: [Key]
    package var action: Action
    /// The keys as help shows them ("↑ k").
    package var label: String
    package var help: String
    package init(_ keys: [Key], _ action: Action, _ label: String, _ help: String) {
        self.keys = keys; self.action = action; self.label = label; self.help = help
    }
}

extension Array {
    func action<A>(for key: Key) -> A? where Element == KeyBinding<A> { first { $0.keys.contains(key) }?.action }
}

/// What a key does on the launch screen (outside the `/` filter).
package enum LaunchKeyAction: Sendable, Equatable { case up, down, top, bottom, filter, open, settings, pin, remove, cancel, quit }
/// What a key does on a screen whose typing goes into a field (picker, form, settings), beside text editing.
package enum FieldScreenAction: Sendable, Equatable {
    case previous, next, choosePrevious, chooseNext, submit, save, cancel
    /// Give the focus to the screen's filter field (the picker's `/`).
    case focusFilter
}

extension AppState {
    package static let launchKeys: [KeyBinding<LaunchKeyAction>] = [
        .init([.up, .character("k")], .up, "↑ k", "previous row"),
        .init([.down, .character("j")], .down, "↓ j", "next row"),
        .init([.home], .top, "Home", "first row"),
        .init([.end], .bottom, "End", "last row"),
        .init([.enter], .open, "⏎", "run the action or open the document"),
        .init([.character("/")], .filter, "/", "filter recent documents (esc ends the filter)"),
        .init([.character("p")], .pin, "p", "pin or unpin the selected recent document"),
        .init([.character("x"), .delete], .remove, "x Del", "remove the selected recent document from the list"),
        .init([.character(",")], .settings, ",", "settings"),
        .init([.escape], .cancel, "esc", "cancel; after ^T n, back to the document"),
        .init([.character("q")], .quit, "q ^Q", "quit"),
    ]

    package static let pickerKeys: [KeyBinding<FieldScreenAction>] = [
        .init([.up, .ctrl("p"), .backTab], .previous, "↑ ^P", "previous template (the list takes the keys: j k move)"),
        .init([.down, .ctrl("n"), .tab], .next, "↓ ^N Tab", "next template (the list takes the keys: j k move)"),
        .init([.enter], .submit, "⏎", "choose the template (its form; esc there comes back here)"),
        .init([.escape], .cancel, "esc", "clear the filter, then back"),
    ]

    /// Keys of the picker's list while it has the focus (on opening, after ↑ ↓): other letters type into the filter.
    package static let pickerListKeys: [KeyBinding<FieldScreenAction>] = [
        .init([.character("k")], .previous, "k", "previous template (while the list has the focus)"),
        .init([.character("j")], .next, "j", "next template (while the list has the focus)"),
        .init([.character("/")], .focusFilter, "/", "type in the filter (then j and k are letters)"),
    ]

    package static let formKeys: [KeyBinding<FieldScreenAction>] = [
        .init([.up, .backTab], .previous, "↑ ⇧Tab", "previous field"),
        .init([.down, .tab], .next, "↓ Tab", "next field (checks this one)"),
        .init([.left], .choosePrevious, "←", "previous choice (in a choice field)"),
        .init([.right], .chooseNext, "→", "next choice (in a choice field)"),
        .init([.enter], .submit, "⏎", "next field; on the last one, create"),
        .init([.escape], .cancel, "esc", "cancel the form (asks when values were changed)"),
    ]

    package static let settingsKeys: [KeyBinding<FieldScreenAction>] = [
        .init([.up, .backTab], .previous, "↑ ⇧Tab", "previous field"),
        .init([.down, .tab], .next, "↓ Tab", "next field (checks this one)"),
        .init([.left, .right, .character(" ")], .chooseNext, "← → ␣", "switch durability full / none (on Durability)"),
        .init([.enter, .ctrl("s")], .save, "⏎ ^S", "check every field and save"),
        .init([.escape], .cancel, "esc", "back (asks when something is unsaved)"),
    ]

    /// Keys every screen understands.
    package static let globalKeys: [(label: String, help: String)] = [
        ("? F1", "this help (? types in a text field; F1 always works)"),
        ("^Q", "quit (asks once when typed text would be lost)"),
    ]

    /// Whether printable keys go into a text field on the current screen (then `?` types, F1 opens help).
    var isTyping: Bool {
        switch screen {
        case .launch: return filter != nil
        case .picker: return true
        case let .form(form): return form.fields.indices.contains(form.focus) && form.fields[form.focus].choices.isEmpty
        case let .editor(editor): return editor.prompt != nil || editor.paletteOpen
        case let .history(history, _): return history.timeline.isTyping
        case let .generic(view): return view.filtering
        case let .settings(settings): return settings.focus != .sync
        case let .sharing(page, _): return page.isTyping
        }
    }

    /// Whether quitting now would throw away text the user typed: a prompt's answer, a form's changed values,
    /// settings edited and not saved.
    var hasUnsavedText: Bool {
        switch screen {
        case let .editor(editor): return editor.prompt?.isEdited ?? false
        case let .form(form): return form.fields.contains { $0.value != $0.initial }
        case let .settings(settings): return settings.edited
        case let .sharing(page, _): return page.hasTypedText
        case .launch, .picker, .history, .generic: return false
        }
    }

    /// The hint Esc shows when there is nothing to cancel.
    static func escapeHint(editor: Bool) -> String {
        editor ? "esc cancels a prompt or selection; ^W closes the document, ^Q quits" : "esc cancels a filter or question; q or ^Q quits"
    }

    /// Carries out a confirmed question.
    func confirmed(_ question: Confirmation, scene: LaunchScene) -> (AppState, [AppEffect]) {
        var state = self
        switch question {
        case .quit: return (state, [.quit])
        case .discardSettings:
            if case let .settings(settings) = screen { state.screen = settings.returnTo.map(Screen.editor) ?? .launch }
            return (state, [])
        case .discardForm:
            if case let .form(form) = screen { state.screen = form.back ?? .launch }
            return (state, [])
        case let .removeRecent(path):
            state.recent.removeAll { $0.path == path }
            let rows = scene.actions.count + LaunchLayout.visibleRows(scene: scene, context: state.launchContext).count
            state.selection = min(state.selection, max(0, rows - 1))
            state.message = .note("Removed \(path) from recent documents")
            return (state, [.removeRecent(path: path)])
        case let .restoreVersion(commitID, version, _):
            return confirmedRestore(commitID: commitID, version: version)
        case .createOutside:
            guard case let .form(form) = screen else { return (state, []) }
            state.screen = Self.afterSubmit(form, previous: screen)
            return (state, [Self.submit(form)])
        case .acceptContentType:
            guard case var .editor(editor) = screen else { return (state, []) }
            var effects: [AppEffect] = []
            state.startSharing(.acceptContentType, label: "take the held version", editor: &editor, effects: &effects)
            state.screen = .editor(editor)
            return (state, effects)
        }
    }

    // MARK: Launch

    mutating func launchKey(_ key: Key, scene: LaunchScene, effects: inout [AppEffect]) {
        movingLaunchSelection(key, scene: scene, effects: &effects)
        // The recent list scrolls just enough to keep the selected document shown.
        if case .launch = screen {
            recentScroll = LaunchLayout(scene: scene, width: columns, height: rows, context: launchContext).recentFirst
        }
    }

    private mutating func movingLaunchSelection(_ key: Key, scene: LaunchScene, effects: inout [AppEffect]) {
        let recentShown = LaunchLayout.visibleRows(scene: scene, context: launchContext)
        let rowCount = scene.actions.count + recentShown.count
        if var field = filterField {
            switch key {
            case .escape: filterField = nil; selection = min(selection, max(0, rowCount - 1))
            case .up: selection = max(0, selection - 1)
            case .down: selection = min(max(0, rowCount - 1), selection + 1)
            case .enter: activate(row: selection, scene: scene, recent: recentShown, effects: &effects)
            default:
                let before = field.text
                if field.handle(key) {
                    field.reveal(width: LaunchLayout.filterFieldWidth(columns: columns))
                    filterField = field
                    if field.text != before { selection = scene.actions.count; recentScroll = 0 }
                }
            }
            return
        }
        let selectedRecent = recentShown.indices.contains(selection - scene.actions.count) ? recentShown[selection - scene.actions.count] : nil
        guard let action: LaunchKeyAction = Self.launchKeys.action(for: key) else {
            if case let .character(c) = key,
               let index = scene.actions.firstIndex(where: { $0.key.map { String($0).lowercased() } == String(c).lowercased() }) {
                selection = index
                activate(row: index, scene: scene, recent: recentShown, effects: &effects)
            }
            return
        }
        switch action {
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(max(0, rowCount - 1), selection + 1)
        case .top: selection = 0
        case .bottom: selection = max(0, rowCount - 1)
        case .filter: filterField = TextField(); selection = scene.actions.count; recentScroll = 0
        case .open: activate(row: selection, scene: scene, recent: recentShown, effects: &effects)
        case .settings: screen = .settings(SettingsState(settings: settings)); effects.append(.openSettings)
        case .pin:
            guard let document = selectedRecent else { message = .note("p pins the selected recent document (↓ to one first)"); return }
            let pinned = !document.pinned
            recent = RecentList.settingPin(pinned, path: document.path, in: recent)
            let rows = LaunchLayout.visibleRows(scene: scene, context: launchContext)
            selection = scene.actions.count + (rows.firstIndex { $0.path == document.path } ?? 0)
            effects.append(.pinRecent(path: document.path, pinned: pinned))
            message = .note((pinned ? "Pinned " : "Unpinned ") + "“\(document.title)”")
        case .remove:
            guard let document = selectedRecent else { message = .note("x removes the selected recent document (↓ to one first)"); return }
            confirming = .removeRecent(path: document.path)
        case .cancel:
            if let back = tabs.escapeTarget {
                // The launcher opened over open documents (^T n): Esc goes back to the one shown before.
                effects.append(.switchTab(back))
            } else if templates.contains(where: { $0.state == .loading }) {
                effects.append(.stopLoadingTemplates)
                message = .note("Stopped loading templates")
            } else {
                message = .note(Self.escapeHint(editor: false))
            }
        case .quit: effects.append(.quit)
        }
    }

    // MARK: Picker

    mutating func pickerKey(_ key: Key, picker: inout PickerState, scene: LaunchScene) {
        let visible = picker.visible(templates)
        let last = max(0, visible.count - 1)
        switch Self.pickerKeys.action(for: key) ?? (picker.listFocused ? Self.pickerListKeys.action(for: key) : nil) {
        case .cancel?:
            if picker.filter.isEmpty { screen = .launch; return }
            picker.filterField = TextField(); picker.selection = 0; picker.listFocused = true
        case .previous?: picker.selection = max(0, min(last, picker.selection - 1)); picker.listFocused = true
        case .next?: picker.selection = min(last, picker.selection + 1); picker.listFocused = true
        case .focusFilter?: picker.listFocused = false
        case .submit?:
            if visible.indices.contains(picker.selection) {
                screen = .form(Self.pickerForm(visible[picker.selection], picker: picker, folder: scene.documentsFolder))
                return
            }
        default:
            let before = picker.filter
            if picker.filterField.handle(key) {
                picker.listFocused = false
                picker.filterField.reveal(width: Screens.pickerFilterWidth(columns: columns))
                if picker.filter != before { picker.selection = 0 }
            }
        }
        screen = .picker(picker)
    }

    /// The form for `template` chosen in `picker`: the values Esc left in it when it is the template last chosen; Esc
    /// on it comes back to the picker as it is.
    static func pickerForm(_ template: TemplateSummary, picker: PickerState, folder: String) -> FormState {
        var back = picker
        back.draft = nil
        var form = picker.draft.flatMap { draft in
            if case let .template(chosen) = draft.purpose, chosen.id == template.id { return draft } else { return nil }
        } ?? templateForm(template, folder: folder)
        form.back = .picker(back)
        return form
    }

    // MARK: Form

    mutating func formKey(_ key: Key, form: inout FormState, effects: inout [AppEffect]) {
        if case .open = form.purpose, openFormKey(key, form: &form, effects: &effects) { screen = .form(form); return }
        let valuesBefore = form.fields.map(\.value)
        let focusedChoices = form.fields.indices.contains(form.focus) ? form.fields[form.focus].choices : []
        switch Self.formKeys.action(for: key) {
        case .cancel?:
            if case var .picker(picker)? = form.back, case .template = form.purpose {
                // Back to the picker as it was; the values stay with the template (choosing it again brings them back).
                form.back = nil
                picker.draft = form
                screen = .picker(picker)
                return
            }
            if form.fields.contains(where: { $0.value != $0.initial }) { confirming = .discardForm; break }
            screen = form.back ?? .launch
            return
        case .previous?: form.move(by: -1)
        case .next?: form.move(by: 1)
        case .submit?:
            if form.fields.indices.contains(form.focus) {
                form.fields[form.focus].message = form.submitMessage(form.focus)
                if form.fields[form.focus].message != nil { break }
            }
            if form.focus + 1 < form.fields.count { form.focus += 1; break }
            for index in form.fields.indices { form.fields[index].message = form.submitMessage(index) }
            if let bad = form.fields.firstIndex(where: { $0.message != nil }) { form.focus = bad; break }
            if let question = destinationQuestion(form) { confirming = question; break }
            effects.append(Self.submit(form))
            screen = Self.afterSubmit(form, previous: screen)
            return
        case let step? where !focusedChoices.isEmpty && (step == .choosePrevious || step == .chooseNext):
            let field = form.fields[form.focus]
            let index = field.choices.firstIndex(of: field.value) ?? -1
            let offset = step == .chooseNext ? 1 : field.choices.count - 1
            form.fields[form.focus].value = field.choices[(index + offset + field.choices.count) % field.choices.count]
        default:
            guard form.fields.indices.contains(form.focus), focusedChoices.isEmpty else { break }
            let before = form.fields[form.focus].value
            if form.fields[form.focus].input.handle(key) {
                form.fields[form.focus].input.reveal(width: Screens.formLayout(form, width: columns, height: rows).valueWidth)
                if form.fields[form.focus].value != before { form.fields[form.focus].message = nil }
            }
        }
        if form.fields.map(\.value) != valuesBefore { form.applyLiveCheck() }
        form.scroll = Screens.formLayout(form, width: columns, height: rows).scroll
        screen = .form(form)
    }

    // MARK: Settings

    mutating func settingsKey(_ key: Key, settings: inout SettingsState, effects: inout [AppEffect]) {
        settings.message = nil
        settings.knownEditors = knownEditors
        settings.home = home
        switch Self.settingsKeys.action(for: key) {
        case .cancel?:
            if settings.edited { confirming = .discardSettings; break }
            screen = settings.returnTo.map(Screen.editor) ?? .launch
            return
        case let step? where step == .previous || step == .next:
            let leaving = settings.focus
            settings.move(by: step == .next ? 1 : -1)
            // A source being added is checked in the background once its field is left.
            if leaving == .source, settings.focus != .source, let check = settings.sourceCheckToStart() { effects.append(.checkTemplateSource(check)) }
        case .chooseNext? where settings.focus == .sync:
            settings.sync = settings.sync == .full ? .none : .full
        case .save?:
            settings.checkAll(against: self.settings)
            if let field = SettingsState.Field.allCases.first(where: { settings.problems[$0] != nil }) {
                settings.focus = field
                settings.message = .failure("Not saved: fix the field marked ✗")
            } else if let check = settings.sourceCheckToStart() {
                effects.append(.checkTemplateSource(check))
                settings.message = .note("Not saved yet: checking the template source (⏎ again once it is found)")
            } else if let holding = settings.sourceCheckHoldingSave() {
                settings.message = .note(holding)
            } else {
                let updated = settings.applied(to: state.settings)
                // A removed source's warning goes with it (bundled sources are not in the settings and stay).
                let removed = Set(self.settings.templateSources.map(\.name)).subtracting(updated.templateSources.map(\.name))
                templates.removeAll { removed.contains($0.name) }
                self.settings = updated
                effects.append(.saveSettings(updated))
                settings.colorEntry = ""; settings.sourceEntry = ""; settings.associationEntry = ""
                settings.sourceCheck = nil
                settings.markSaved()
                settings.message = .success("Saved")
            }
        default:
            guard settings.focus != .sync else { break }
            var field = settings.inputs[settings.focus] ?? TextField()
            let before = field.text
            if field.handle(key) {
                field.reveal(width: Screens.settingsFieldWidth(columns: columns))
                settings.inputs[settings.focus] = field
                if field.text != before { settings.problems[settings.focus] = nil }
            }
        }
        settings.scroll = Screens.settingsScroll(settings, height: rows, width: columns)
        screen = .settings(settings)
    }

    private var state: AppState { self }

    // MARK: Palette and help

    /// Keys in the open command palette: typing filters the commands, ↑/↓ select among those shown, ⏎ runs.
    mutating func paletteKey(_ key: Key, editor: inout EditorState, effects: inout [AppEffect]) {
        editor.message = nil
        let commands = editor.filteredPaletteCommands
        switch key {
        case .escape:
            if editor.paletteFilter.text.isEmpty { editor.paletteOpen = false } else { editor.paletteFilter = TextField(); editor.paletteIndex = 0 }
        case .up, .ctrl("p"): editor.paletteIndex = max(0, editor.paletteIndex - 1)
        case .down, .ctrl("n"): editor.paletteIndex = min(max(0, commands.count - 1), editor.paletteIndex + 1)
        case .enter:
            guard commands.indices.contains(editor.paletteIndex) else { break }
            let command = commands[editor.paletteIndex]
            if !command.needsSelection || editor.effectiveSelection != nil { editor.paletteOpen = false; editor.paletteFilter = TextField() }
            invoke(command, editor: &editor, effects: &effects)
        default:
            let before = editor.paletteFilter.text
            if editor.paletteFilter.handle(key), editor.paletteFilter.text != before { editor.paletteIndex = 0 }
        }
    }

    /// Keys while the help overlay is open: typing (and ⌫) filters it, ↑/↓/PgUp/PgDn/Home/End scroll it, esc
    /// clears the filter and then closes it, ? (with nothing typed) and any other key close it.
    mutating func helpKey(_ key: Key, scene: LaunchScene) {
        switch key {
        case .escape where !helpFilter.text.isEmpty: helpFilter = TextField(); helpScroll = 0; return
        case .character("?") where helpFilter.text.isEmpty: helpOpen = false; return
        case .character, .backspace:
            let before = helpFilter.text
            _ = helpFilter.handle(key)
            if helpFilter.text != before { helpScroll = 0 }
            return
        default: break
        }
        let total = Screens.helpDisplayRows(shownHelpLines(scene: scene), width: columns).count
        let page = max(1, Screens.helpRows(height: rows) - 1)
        let last = max(0, total - Screens.helpRows(height: rows))
        if [.up, .down, .pageUp, .pageDown, .home, .end].contains(key), let top = OverlayScroll.top(after: key, from: helpScroll, last: last, page: page) {
            helpScroll = top
        } else {
            helpOpen = false
        }
    }
}

extension EditorState {
    /// The palette's commands that match what was typed (title, id or shortcut, any letter case).
    package var filteredPaletteCommands: [EditorCommand] {
        let needle = paletteFilter.text.lowercased().trimming(.whitespaces)
        guard !needle.isEmpty else { return paletteCommands }
        return paletteCommands.filter { command in
            command.title.lowercased().contains(needle) || command.id.lowercased().contains(needle)
                || AppState.displayShortcut(command.shortcut).lowercased() == needle
        }
    }
}

extension SettingsState {
    /// Moves the focus by `step` after checking the field being left: forward stops on a field with a problem (as in
    /// forms), backward moves on; the problem stays on the field and the value is kept.
    mutating func move(by step: Int) {
        check(focus)
        if step > 0, problems[focus] != nil { return }
        let count = Field.allCases.count
        focus = Field(rawValue: min(count - 1, max(0, focus.rawValue + step))) ?? focus
    }
}
