import FoundationEssentials
import Glibc

// How the editor host shows a command's arguments to a person: labels, what each takes, and whether the command
// takes one item — all read from the usage words (`CommandArgument`, the one reading of them).

extension EditorCommand {
    /// Whether the command acts on one item only, so a range selection is refused before anything is asked. An editor
    /// that declares ranges (`rangesDeclared`: `N:range` in one of its commands' usage) says it: a plain item argument
    /// is one item. Without that declaration, an item argument that comes with a free-text one (`rename N TITLE`,
    /// `insert LINE TEXT`) is one item — one text is one item's value.
    public func takesOneItem(rangesDeclared: Bool) -> Bool {
        let words = argumentNames
        guard let item = words.first(where: { Self.isItemArgument(CommandArgument(usageWord: $0).name) }) else { return false }
        if rangesDeclared { return !item.hasSuffix(":range") && !item.hasSuffix(":range]") }
        return words.contains { !Self.isItemArgument(CommandArgument(usageWord: $0).name) && CommandArgument(usageWord: $0).isFreeText }
    }

    /// Whether any of `commands` declares an item argument that takes a range (`N:range`).
    public static func declareRanges(_ commands: [EditorCommand]) -> Bool {
        commands.contains { $0.argumentNames.contains { $0.hasSuffix(":range") || $0.hasSuffix(":range]") } }
    }
}

extension CommandArgument {
    /// Whether any text is accepted (no choices, no number).
    public var isFreeText: Bool { choices.isEmpty && kind == .text }

    /// The argument as a person reads it: "TO_ACT" → "To act", "TO_POS" → "To position", "W" → "Width",
    /// "rect|ellipse" → "Kind", "red|green|blue" → "Color". Never the raw usage word.
    public var label: String {
        if !choices.isEmpty { return choices.allSatisfy { Self.colorNames.contains($0.lowercased()) } ? "Color" : "Kind" }
        let words = name.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " }).map { word -> String in
            Self.spelledOut[word.uppercased()] ?? word.lowercased()
        }
        guard let first = words.first else { return name }
        let joined = words.joined(separator: " ")
        return first.count == 1 ? joined : first.prefix(1).uppercased() + joined.dropFirst()
    }

    /// The terminal's color names (choices all among them are a color).
    static let colorNames: Set<String> = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "gray", "grey", "default",
        "bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue", "bright-magenta", "bright-cyan", "bright-white",
    ]

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

    /// `problem(with:)` in words for a person: the argument named by its label ("W must be…" → "Width must be…"),
    /// without the command line's "(esc cancels)".
    public func labelledProblem(with text: String) -> String? {
        guard var problem = problem(with: text) else { return nil }
        if problem.hasSuffix(" (esc cancels)") { problem = String(problem.dropLast(" (esc cancels)".count)) }
        if problem.hasPrefix(name + " ") { problem = label + problem.dropFirst(name.count) }
        return problem
    }
}
