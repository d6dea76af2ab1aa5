import Foundation
import FolioCore

// Checking each argument of an editor command as it is entered, what the command is run with, and asking again
// after the editor refused it.

/// One argument of an editor command as its usage declares it: `rect|ellipse` (one of these words), `[COLOR]`
/// (optional: may be left empty, as on the command line), `X:int` (a whole number), `W:int+` (a whole number of at
/// least 1), `X` (any text; the editor checks it). The usage is the editor's own description of its commands, so
/// these checks are the editor's, made as each argument is entered.
public struct CommandArgument: Equatable, Sendable {
    /// What an argument's value must be, beyond its choices.
    public enum Kind: Equatable, Sendable {
        case text
        /// A whole number (`:int`).
        case integer
        /// A whole number of at least 1 (`:int+`).
        case positiveInteger
    }
    /// The word as the usage writes it, without brackets and type ("rect|ellipse", "COLOR", "X").
    public var name: String
    /// The allowed words, empty for free text.
    public var choices: [String]
    public var optional: Bool
    public var kind: Kind = .text

    /// Parses one word of a command's usage.
    public init(usageWord word: String) {
        var text = Substring(word)
        optional = text.hasPrefix("[") && text.hasSuffix("]") && text.count >= 2
        if optional { text = text.dropFirst().dropLast() }
        if let colon = text.lastIndex(of: ":") {
            switch text[text.index(after: colon)...] {
            case "int": kind = .integer; text = text[..<colon]
            case "int+": kind = .positiveInteger; text = text[..<colon]
            default: break
            }
        }
        name = String(text)
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        choices = parts.count > 1 && parts.allSatisfy { !$0.isEmpty } ? parts : []
    }

    /// The problem with `text` as this argument, nil when acceptable.
    public func problem(with text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return optional ? nil : "\(name) is needed (esc cancels)" }
        if !choices.isEmpty, !choices.contains(trimmed) { return "'\(trimmed)' is not one of \(choices.joined(separator: ", "))" }
        switch kind {
        case .text: return nil
        case .integer: return Int(trimmed) == nil ? "\(name) must be a whole number, got '\(trimmed)'" : nil
        case .positiveInteger: return (Int(trimmed) ?? 0) < 1 ? "\(name) must be a whole number of at least 1, got '\(trimmed)'" : nil
        }
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
