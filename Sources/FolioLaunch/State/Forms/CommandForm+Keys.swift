import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

extension AppState {
    /// Keys while a command's prompt or form is open (text editing is done before, in `editPromptText`): ⏎ checks the
    /// field and moves to the next one still needing a value, or runs the command when none does; Tab/↓ and ⇧Tab/↑ move
    /// between fields; ←/→ or a letter choose on a field with choices; ^O edits a multi-line text field (`TEXT`) in
    /// `$VISUAL`/`$EDITOR`; Esc cancels (a form with typed values asks first: Esc again). Values are kept on every error.
    mutating func promptKey(_ key: Key, prompt: inout EditorPrompt, editor: inout EditorState, effects: inout [AppEffect]) {
        let choices = prompt.argument(prompt.asking).choices
        let discarding = prompt.discardAsked
        prompt.discardAsked = false
        switch key {
        case .escape where prompt.isForm && prompt.isEdited && !discarding:
            prompt.discardAsked = true  // several typed values are not thrown away by one key
        case .escape: editor.prompt = nil; return
        case .enter:
            if !prompt.check(prompt.asking) { break }
            if let next = prompt.nextNeedingValue { prompt.asking = next; prompt.choiceTyped = ""; break }
            editor.prompt = nil
            if prompt.filledFromEditor, !prompt.isEdited {
                // Every field still holds the item's current value: nothing to change, and no version made.
                editor.hint = "\(prompt.command.title): nothing changed"
                return
            }
            effects.append(.runEditorCommand(prompt.command.id, arguments: prompt.submittedArguments, base: prompt.base, selection: prompt.selection))
            if prompt.command.needsSelection || prompt.names.contains(where: EditorCommand.isItemArgument) {
                editor.selectionAnchor = nil  // the range was given to the command, as a visual selection ends with it
            }
            return
        case .tab, .down: prompt.move(by: 1)
        case .backTab, .up: prompt.move(by: -1)
        case .left where !choices.isEmpty: prompt.choose(by: -1)
        case .right where !choices.isEmpty, .character(" ") where !choices.isEmpty: prompt.choose(by: 1)
        case let .character(letter) where !choices.isEmpty: prompt.choose(typing: letter)
        case .ctrl("o") where prompt.takesLines:
            effects.append(.editArgumentText(prompt.input.text))
        default: break
        }
        editor.prompt = prompt
        editor.message = prompt.isForm ? nil : prompt.problems[prompt.asking].map(StatusLine.failure)
    }

    /// The text `$VISUAL`/`$EDITOR` left for the focused field of the open prompt (nil: the editor failed, with `failure`).
    package mutating func editedArgumentText(_ text: String?, failure: String? = nil) {
        guard case var .editor(editor) = screen, var prompt = editor.prompt else { return }
        if let text {
            // One trailing newline is the editor's end of file, not the user's text.
            prompt.input = TextField(text.hasSuffix("\n") ? String(text.dropLast()) : text)
            prompt.problems[prompt.asking] = nil
        } else {
            prompt.problems[prompt.asking] = failure ?? "the editor did not finish; the text is as it was"
        }
        editor.prompt = prompt
        editor.message = prompt.isForm ? nil : prompt.problems[prompt.asking].map(StatusLine.failure)
        screen = .editor(editor)
    }
}
