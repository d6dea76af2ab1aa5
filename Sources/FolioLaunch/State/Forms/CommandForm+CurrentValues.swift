import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

/// What the editor answered when asked for a command's current argument values (`folio.argument-values/1`).
package enum ArgumentValuesAnswer: Equatable, Sendable {
    /// One value per argument of the command's usage, nil where the editor suggests none (checked where the answer
    /// came in: UTF-8, size, count).
    case values([String?])
    /// The editor has none for this command (or no such extension).
    case none
    /// The answer was refused (malformed, too large, the plugin failed): why, for the message log.
    case ignored(String)
}

extension AppState {
    /// The effect that asks the editor for the current values of a form that a key opened (`new`, where the screen
    /// had `old` before the key: none, or another command's), nil when none opened. The run loop carries it out off
    /// the UI thread; the form is already open with what the host knows, and `receiveArgumentValues` fills in the
    /// fields still untouched. A form brought back after the editor refused the command keeps its values: not asked.
    package static func argumentValuesRequest(from old: EditorPrompt?, to new: EditorPrompt?) -> AppEffect? {
        guard let new else { return nil }
        if let old, old.command.id == new.command.id, old.base == new.base, old.selection == new.selection { return nil }
        return .loadArgumentValues(command: new.command.id, base: new.base, selection: new.selection)
    }

    /// The editor's current values for the open form of `command` (asked at `base` for `selection`): each field the
    /// user has not touched since the form opened takes its value (a field typed in keeps what was typed). An answer
    /// for another form, or one the form has moved on from, is dropped; an ignored one is one line in the message log.
    package mutating func receiveArgumentValues(_ answer: ArgumentValuesAnswer, command: String, base: String?, selection: ViewSelection?) {
        guard case var .editor(editor) = screen, var prompt = editor.prompt, prompt.command.id == command, prompt.base == base,
              prompt.selection == selection else { return }
        switch answer {
        case .none: return
        case let .ignored(why):
            messageLog.append(.note("\(prompt.command.title): the editor's current values were ignored: \(why)"), at: now)
            return
        case let .values(values):
            guard values.count == prompt.names.count else {
                messageLog.append(.note("\(prompt.command.title): the editor's current values were ignored: \(values.count) values for \(prompt.names.count) arguments"), at: now)
                return
            }
            prompt.fill(values)
        }
        editor.prompt = prompt
        screen = .editor(editor)
    }
}

extension EditorPrompt {
    /// Puts the editor's current `values` into the asked fields the user has not touched (still as the form opened
    /// them): a choice becomes the chosen one when it is one of the choices; a multi-line text (a scene's) is the
    /// field's text with the cursor at its start, so its start shows and a key typed edits it rather than replacing
    /// it; other fields a suggestion (typing replaces it, arrows edit it). What was touched keeps what the user typed.
    mutating func fill(_ values: [String?]) {
        for index in asked where values.indices.contains(index) && inputs.indices.contains(index) {
            guard let value = values[index], !touched(index) else { continue }
            let argument = argument(index)
            if !argument.choices.isEmpty {
                guard argument.choices.contains(value) else { continue }
                inputs[index] = TextField(value)
            } else if EditorCommand.isMultiLineArgument(names[index]) {
                inputs[index] = TextField(value, cursor: 0)
            } else {
                inputs[index] = .suggesting(value)
            }
            if initial.indices.contains(index) { initial[index] = inputs[index].text }
            problems[index] = nil
            filledFromEditor = true
        }
    }

    /// Whether field `index` differs from what the form opened with (the user typed, chose or edited in `$EDITOR`).
    func touched(_ index: Int) -> Bool {
        keyed.contains(index) || inputs[index].text != (initial.indices.contains(index) ? initial[index] : "")
            || (index == asking && !choiceTyped.isEmpty)
    }
}
