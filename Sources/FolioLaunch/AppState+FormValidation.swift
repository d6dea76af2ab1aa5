import Foundation
import FolioCore

// Checking each form field and each command argument as it is left, and going back to the form or the prompt with
// every value kept when the final action fails.

extension FormState {
    /// Checks the focused field as it is left: the problem stays on the field, the value is kept. True when acceptable.
    @discardableResult
    mutating func checkFocused() -> Bool {
        guard fields.indices.contains(focus) else { return true }
        fields[focus].message = Self.validate(fields[focus])
        return fields[focus].message == nil
    }

    /// Moves the focus by `step` after checking the field being left: forward stops on a field with a problem,
    /// backward moves on (the problem stays shown on the field).
    mutating func move(by step: Int) {
        let acceptable = checkFocused()
        if step > 0, !acceptable { return }
        focus = min(max(0, fields.count - 1), max(0, focus + step))
    }

    /// The field a failure is about: the variable it names ("variable 'year': …"), else the last field (the
    /// destination, the path or the tag name).
    func fieldIndex(for failure: String) -> Int? {
        if let named = fields.indices.first(where: { failure.contains("variable '\(fields[$0].name)'") }) { return named }
        return fields.indices.last
    }
}

extension AppState {
    /// The form again after its final action failed (creating, instantiating, opening): every value kept, the
    /// one-line failure on the field it is about, that field focused.
    public mutating func returningToForm(_ form: FormState, failure: String) {
        var form = form
        if let index = form.fieldIndex(for: failure) {
            form.fields[index].message = failure
            form.focus = index
        }
        screen = .form(form)
        message = nil
    }

    /// The form `key` submitted from `screen`, if any (the runtime keeps it to come back to on failure).
    static func submittedForm(_ screen: Screen) -> FormState? {
        if case let .form(form) = screen { return form }
        return nil
    }
}

/// One argument of an editor command as its usage declares it: `rect|ellipse` (one of these words), `[COLOR]`
/// (optional: may be left empty, as on the command line), `X` (any text; the editor checks it).
public struct CommandArgument: Equatable, Sendable {
    /// The word as the usage writes it, without brackets ("rect|ellipse", "COLOR").
    public var name: String
    /// The allowed words, empty for free text.
    public var choices: [String]
    public var optional: Bool

    /// Parses one word of a command's usage.
    public init(usageWord word: String) {
        var text = Substring(word)
        optional = text.hasPrefix("[") && text.hasSuffix("]") && text.count >= 2
        if optional { text = text.dropFirst().dropLast() }
        name = String(text)
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        choices = parts.count > 1 && parts.allSatisfy { !$0.isEmpty } ? parts : []
    }

    /// The problem with `text` as this argument, nil when acceptable.
    public func problem(with text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return optional ? nil : "\(name) is needed (esc cancels)" }
        if !choices.isEmpty, !choices.contains(trimmed) { return "'\(trimmed)' is not one of \(choices.joined(separator: ", "))" }
        return nil
    }
}

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
        guard case let .runEditorCommand(id, arguments, base) = effect, case var .editor(editor) = screen,
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
        editor.prompt = EditorPrompt(command: command, values: values, names: names, text: text, asking: again, base: base)
        editor.message = failure
        screen = .editor(editor)
    }
}

extension EditorPrompt {
    /// Suggests the argument being asked from the cursor, ready to edit: a `LINE` is the line under the cursor (or the
    /// selection's first) when the view numbers its lines.
    func suggesting(from editor: EditorState) -> EditorPrompt {
        guard text.isEmpty, names.indices.contains(asking), names[asking] == "LINE", editor.items != nil,
              let target = editor.effectiveSelection else { return self }
        var prompt = self
        prompt.text = String(target.start + 1)
        return prompt
    }
}
