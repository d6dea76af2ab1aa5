import Foundation
import FolioCore

// Checking each argument of an editor command as it is entered, what the command is run with, and asking again
// after the editor refused it.

extension EditorPrompt {
    /// The argument being asked, as the usage declares it.
    var currentArgument: CommandArgument? {
        names.indices.contains(asking) ? CommandArgument(usageWord: names[asking]) : nil
    }

    /// The arguments to run the command with: trailing optional arguments left empty are left out, as on the
    /// command line.
    var submittedArguments: [String] {
        var arguments = values.map { $0 ?? "" }
        while let last = arguments.last, last.trimmingCharacters(in: .whitespaces).isEmpty,
              names.indices.contains(arguments.count - 1), CommandArgument(usageWord: names[arguments.count - 1]).optional {
            arguments.removeLast()
        }
        return arguments
    }
}

extension AppState {
    /// The prompt again after the editor refused the command: the arguments kept, the one the failure names (else
    /// the first one asked) asked again with its value ready to edit. Item numbers from the cursor are kept as they were.
    public mutating func reopeningPrompt(after effect: AppEffect, failure: String) {
        guard case let .runEditorCommand(id, arguments, base, selection) = effect, case var .editor(editor) = screen,
              let command = editor.commands.first(where: { $0.id == id }) else { return }
        let names = command.argumentNames
        let asked = names.indices.filter { !EditorCommand.isItemArgument(names[$0]) }
        guard let first = asked.first else { return }
        var values: [String?] = names.indices.map { $0 < arguments.count ? arguments[$0] : "" }
        // The first argument name among the failure's words ("W must be…: got '0' (usage: add rect|ellipse X Y W H)").
        let words = failure.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        let named = words.lazy.compactMap { word in asked.first { CommandArgument(usageWord: names[$0]).name == word } }.first
        let again = named ?? first
        let text = values[again] ?? ""
        values[again] = nil
        editor.prompt = EditorPrompt(command: command, values: values, names: names, text: text, asking: again, base: base, selection: selection)
        editor.message = failure
        screen = .editor(editor)
    }
}

extension EditorPrompt {
    /// Suggests the argument being asked from the item under the cursor (the selection's first), ready to edit: a
    /// command's leading whole-number arguments are that item's position as its line shows it — the story's
    /// `add-scene ACT TITLE` on scene 2.3 suggests ACT 2, `set-text ACT SCENE TEXT` ACT 2 then SCENE 3.
    func suggesting(from editor: EditorState) -> EditorPrompt {
        guard text.isEmpty, names.indices.contains(asking), let items = editor.items, let target = editor.effectiveSelection,
              items.paths.indices.contains(target.start) else { return self }
        let path = items.paths[target.start]
        let leading = names[...asking].allSatisfy { CommandArgument(usageWord: $0).kind != .text || EditorCommand.isItemArgument($0) }
        guard leading, asking < path.count, CommandArgument(usageWord: names[asking]).kind != .text else { return self }
        var prompt = self
        prompt.text = String(path[asking])
        return prompt
    }
}
