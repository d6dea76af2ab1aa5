import FoundationEssentials
import FolioBasics
import Glibc

/// How a command's usage is read — the one reading, for the editor host's prompts (the arguments it fills in from the
/// cursor and those it asks for) and for the calls `folio plugins validate` generates.
extension EditorCommand {
    /// The argument names from `usage`. `N` is an item number (taken from the cursor or the selection); any other
    /// word is asked for in a prompt.
    public var argumentNames: [String] { usage.split(separator: " ").dropFirst().map(String.init) }
    /// Whether an argument (its name, or its usage word: `N`, `N:range`) is an item number the host fills in from the
    /// cursor or the selection.
    public static func isItemArgument(_ name: String) -> Bool {
        let name = CommandArgument(usageWord: name).name
        return name == "N" || name == "ITEM" || name == "LINE"
    }
    /// Whether a usage word takes a range of items (`N:range`, `SCENE:range`): a command whose item argument is a
    /// plain `N` acts on one item, and a range selection is refused before anything is asked.
    public static func acceptsRange(_ word: String) -> Bool { CommandArgument(usageWord: word).acceptsRange }
}

/// One argument of an editor command as its usage declares it: `rect|ellipse` (one of these words), `[COLOR]`
/// (optional: may be left empty, as on the command line), `X:int` (a whole number), `W:int+` (a whole number of at
/// least 1), `N:range` (an item number, or a range `A-B` of them, either way round: the selection), `X` (any text; the
/// editor checks it). The usage is the editor's own description of its commands, so
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
    /// Whether a range `A-B` of whole numbers of at least 1 is taken as well as one (`:range`, kind `positiveInteger`).
    public var acceptsRange = false

    /// Parses one word of a command's usage.
    public init(usageWord word: String) {
        var text = Substring(word)
        optional = text.hasPrefix("[") && text.hasSuffix("]") && text.count >= 2
        if optional { text = text.dropFirst().dropLast() }
        if let colon = text.lastIndex(of: ":") {
            switch text[text.index(after: colon)...] {
            case "int": kind = .integer; text = text[..<colon]
            case "int+": kind = .positiveInteger; text = text[..<colon]
            case "range": kind = .positiveInteger; acceptsRange = true; text = text[..<colon]
            default: break
            }
        }
        name = String(text)
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        choices = parts.count > 1 && parts.allSatisfy { !$0.isEmpty } ? parts : []
    }

    /// The problem with `text` as this argument, nil when acceptable.
    public func problem(with text: String) -> String? {
        let trimmed = text.trimming(.whitespaces)
        if trimmed.isEmpty { return optional ? nil : "\(name) is needed (esc cancels)" }
        if !choices.isEmpty, !choices.contains(trimmed) { return "'\(trimmed)' is not one of \(choices.joined(separator: ", "))" }
        if acceptsRange, let dash = trimmed.dropFirst().firstIndex(of: "-") {
            let ends = [trimmed[..<dash], trimmed[trimmed.index(after: dash)...]].map { Int($0.trimming(.whitespaces)) ?? 0 }
            return ends.allSatisfy({ $0 >= 1 }) ? nil : "\(name) must be a number or a range like 2-4, got '\(trimmed)'"
        }
        switch kind {
        case .text: return nil
        case .integer: return Int(trimmed) == nil ? "\(name) must be a whole number, got '\(trimmed)'" : nil
        case .positiveInteger: return (Int(trimmed) ?? 0) < 1 ? "\(name) must be a whole number of at least 1, got '\(trimmed)'" : nil
        }
    }
}
