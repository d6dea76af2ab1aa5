import Foundation

/// How a command's usage is read — the one reading, for the editor host's prompts (the arguments it fills in from the
/// cursor and those it asks for) and for the calls `folio plugins validate` generates.
extension EditorCommand {
    /// The argument names from `usage`. `N` is an item number (taken from the cursor or the selection); any other
    /// word is asked for in a prompt.
    public var argumentNames: [String] { usage.split(separator: " ").dropFirst().map(String.init) }
    /// Whether an argument name is an item number the host fills in from the cursor or the selection.
    public static func isItemArgument(_ name: String) -> Bool { name == "N" || name == "ITEM" || name == "LINE" }

    /// Whether the command acts on one item only: its item argument comes with a free-text argument (`rename N
    /// TITLE`, `insert LINE TEXT`) — one text is one item's value, so a range cannot be given to it.
    public var takesOneItem: Bool {
        let names = argumentNames
        guard names.contains(where: Self.isItemArgument) else { return false }
        return names.contains { !Self.isItemArgument($0) && CommandArgument(usageWord: $0).isFreeText }
    }
}

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

    /// Whether any text is accepted (no choices, no number).
    public var isFreeText: Bool { choices.isEmpty && kind == .text }

    /// The argument as a person reads it: "TO_ACT" → "To act", "TO_POS" → "To position", "W" → "Width",
    /// "rect|ellipse" → "Kind". Never the raw usage word.
    public var label: String {
        if !choices.isEmpty { return "Kind" }
        let words = name.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " }).map { word -> String in
            let upper = word.uppercased()
            return Self.spelledOut[upper] ?? word.lowercased()
        }
        guard let first = words.first else { return name }
        let joined = words.joined(separator: " ")
        return first.count == 1 ? joined : first.prefix(1).uppercased() + joined.dropFirst()
    }

    /// Short usage words spelled out for labels.
    static let spelledOut: [String: String] = [
        "W": "width", "H": "height", "X": "X", "Y": "Y", "N": "item", "POS": "position", "NUM": "number", "IDX": "index",
        "DESC": "description", "MSG": "message", "DIR": "folder", "SRC": "source", "DST": "destination",
    ]

    /// What the argument takes, in words, for a hint beside its field: "whole number", "1 or more", "rect or ellipse".
    public var expectation: String {
        var parts: [String] = []
        if !choices.isEmpty { parts.append(choices.count == 2 ? choices.joined(separator: " or ") : "one of " + choices.joined(separator: ", ")) }
        switch kind {
        case .text: break
        case .integer: parts.append("whole number")
        case .positiveInteger: parts.append("1 or more")
        }
        if optional { parts.append("optional") }
        return parts.joined(separator: ", ")
    }

    /// The problem with `text` as this argument, nil when acceptable, in words that name the argument by its label.
    public func problem(with text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return optional ? nil : "\(label) is needed" }
        if !choices.isEmpty, !choices.contains(trimmed) { return "'\(trimmed)' is not one of \(choices.joined(separator: ", "))" }
        switch kind {
        case .text: return nil
        case .integer: return Int(trimmed) == nil ? "\(label) must be a whole number, got '\(trimmed)'" : nil
        case .positiveInteger: return (Int(trimmed) ?? 0) < 1 ? "\(label) must be a whole number of at least 1, got '\(trimmed)'" : nil
        }
    }
}
