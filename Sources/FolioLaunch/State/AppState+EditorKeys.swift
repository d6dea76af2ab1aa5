import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

extension AppState {
    /// Keys in the editor host: the prompt first, then the palette, then movement, host and plugin shortcuts.
    mutating func editorKey(_ key: Key, editor: inout EditorState, effects: inout [AppEffect]) {
        editor.message = nil
        if var prompt = editor.prompt {
            promptKey(key, prompt: &prompt, editor: &editor, effects: &effects)
            return
        }
        let last = max(0, (editor.items?.count ?? Int.max / 2) - 1)
        let page = max(1, editor.viewRows - 1)
        let (wasOn, wasAnchor) = (editor.cursor, editor.selectionAnchor)
        defer {
            // The view follows the cursor again once it (or the selection) moves.
            if editor.cursor != wasOn || editor.selectionAnchor != wasAnchor { editor.pan = ViewPan() }
        }
        if let (dx, dy) = Self.panStep(key, editor: editor) { editor.pan = editor.pan.moved(dx: dx, dy: dy); return }
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
            if let command = (editor.commands + EditorState.hostCommands + editor.sharingCommands).first(where: { Self.matches(key, $0.shortcut) }) {
                invoke(command, editor: &editor, effects: &effects)
            } else if key == .character("k") {
                editor.cursor = max(0, editor.cursor - 1)
            } else if key == .character("j") {
                editor.cursor = min(last, editor.cursor + 1)
            } else if key == .character("v") {
                editor.selectionAnchor = editor.selectionAnchor == nil ? editor.cursor : nil
            } else {
                editor.hint = Self.unboundKeyHint(key, on: .editor)
            }
        }
        // Keep the cursor on screen.
        let rows = max(1, editor.viewRows)
        if editor.cursor < editor.scroll { editor.scroll = editor.cursor }
        if editor.cursor >= editor.scroll + rows { editor.scroll = editor.cursor - rows + 1 }
    }

    /// How far shift+arrows pan the view: a quarter of its width or height (at least 4 columns, 2 rows); nil for
    /// other keys.
    static func panStep(_ key: Key, editor: EditorState) -> (Int, Int)? {
        let dx = max(4, (editor.columns - 2) / 4), dy = max(2, editor.viewRows / 4)
        switch key {
        case .shiftLeft: return (-dx, 0)
        case .shiftRight: return (dx, 0)
        case .shiftUp: return (0, -dy)
        case .shiftDown: return (0, dy)
        default: return nil
        }
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
        case "folio.item-history":
            editor.paletteOpen = false
            openItemHistory(editor: &editor, effects: &effects)
            return
        case "folio.settings":
            editor.paletteOpen = false
            screen = .settings(SettingsState(settings: settings, returnTo: editor))
            effects.append(.openSettings)
            return
        case "folio.close":
            // One of the open documents (tabs): the runtime closes it and shows the next.
            if let close = closingTab { editor.paletteOpen = false; effects += close } else { screen = .launch }
            return
        case "folio.messages": editor.paletteOpen = false; messageLogOpen = true; messageLogScroll = Int.max; return
        case "folio.undo", "folio.redo": effects.append(.runEditorCommand(command.id)); return
        default: if invokingSharing(command, editor: &editor, effects: &effects) { return }
        }
        if let refusal = Self.selectionRefusal(command, editor: editor) { editor.message = .failure(refusal); return }
        let target = editor.effectiveSelection
        if command.needsSelection, target == nil {
            editor.message = .failure("\(command.title) needs a selection (v selects)")
            return
        }
        let names = command.argumentNames
        // The first item argument is the selection (a range "2-4", or the item under the cursor).
        let item = names.firstIndex(where: EditorCommand.isItemArgument)
        let values: [String?] = names.indices.map { index in
            index == item ? EditorSelection.argument(target, cursor: editor.cursor) : nil
        }
        // Item numbers mean the items of the version shown now: the command applies to it.
        let base = editor.commitID.isEmpty ? nil : editor.commitID
        if values.contains(where: { $0 == nil }) {
            Self.openPrompt(command, values: values, base: base, editor: &editor)
            return
        }
        effects.append(.runEditorCommand(command.id, arguments: values.map { $0 ?? "" }, base: base, selection: editor.commandSelection))
        if item != nil || command.needsSelection { editor.selectionAnchor = nil }  // the range was given to the command
    }
}

extension EditorSelection {
    /// The item argument a command gets for `selection` (the cursor's item when nil): "3", or "2-4" for a range
    /// (items numbered from 1, as on the command line).
    static func argument(_ selection: EditorSelection?, cursor: Int) -> String {
        let start = selection?.start ?? cursor, end = selection?.end ?? cursor
        return start == end ? String(start + 1) : "\(start + 1)-\(end + 1)"
    }
}
