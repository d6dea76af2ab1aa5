import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

/// A command's arguments being asked: one field for each argument the host does not fill in from the cursor — a
/// one-line prompt on the command bar when there is one, one form over the view when there are several. Every field
/// keeps its value on any error; a field's problem stays on it, in words.
package struct EditorPrompt: Equatable, Sendable {
    package var command: EditorCommand
    /// The arguments the host filled in (item numbers from the cursor or the selection), in usage order; nil where a
    /// field asks for the argument.
    package var values: [String?]
    package var names: [String]
    /// One field per argument (in usage order; those filled in by the host are unused).
    package var inputs: [TextField]
    /// The problem with each field's value as it was last checked, nil when none.
    package var problems: [String?]
    /// The index in `names` of the focused field.
    package var asking: Int
    /// The version the window showed when the command started: item numbers refer to it, and the command applies to it.
    package var base: String? = nil
    /// The window's cursor and selection when the command started: the command gets them.
    package var selection: ViewSelection? = nil
    /// The fields' texts as the form opened (a form still equal to them has nothing to lose).
    package var initial: [String]
    /// What was typed on the focused choice field, to pick a choice by its first letters.
    var choiceTyped = ""
    /// Whether Esc was pressed once on a form with typed values: Esc again discards them, any other key keeps them.
    var discardAsked = false
    /// The positions of the view's items when the form opened ([2], [1, 3]), for the range of a position argument.
    var positions: [[Int]] = []
    /// Whether the editor's current values filled a field (`fill`): ⏎ on the form still as it opened then changes nothing.
    var filledFromEditor = false
    /// The fields a key has edited or moved in (a suggestion made editable by End counts, though its text is the same):
    /// the editor's late current values never replace them.
    var keyed: Set<Int> = []

    /// A prompt asking the arguments that are nil in `values`, the focused one (`asking`) holding `input`.
    package init(command: EditorCommand, values: [String?], names: [String], input: TextField = TextField(), asking: Int,
                base: String? = nil, selection: ViewSelection? = nil) {
        self.command = command; self.values = values; self.names = names; self.asking = asking; self.base = base; self.selection = selection
        inputs = Array(repeating: TextField(), count: names.count)
        problems = Array(repeating: nil, count: names.count)
        if inputs.indices.contains(asking) { inputs[asking] = input }
        initial = inputs.map(\.text)
    }

    /// The focused field.
    package var input: TextField {
        get { inputs.indices.contains(asking) ? inputs[asking] : TextField() }
        set {
            guard inputs.indices.contains(asking) else { return }
            if newValue != inputs[asking] { keyed.insert(asking) }
            inputs[asking] = newValue
        }
    }

    /// The indices (in `names`) of the arguments asked, in order.
    package var asked: [Int] { names.indices.filter { !values.indices.contains($0) || values[$0] == nil } }
    /// Whether the arguments are asked in one form (more than one field) rather than a one-line prompt.
    package var isForm: Bool { asked.count > 1 }

    /// The argument at `index` as its usage word declares it.
    package func argument(_ index: Int) -> CommandArgument {
        CommandArgument(usageWord: names.indices.contains(index) ? names[index] : "")
    }

    /// The range of a leading position argument as the view's items show it: ACT from 1 to the last act, SCENE from 1
    /// to the last scene of the act the ACT field names; nil for other arguments or when the view does not tell.
    func positionRange(_ index: Int) -> ClosedRange<Int>? {
        guard names.indices.contains(index), argument(index).kind != .text,
              names[...index].allSatisfy({ CommandArgument(usageWord: $0).kind != .text && !EditorCommand.isItemArgument($0) }) else { return nil }
        let prefix = (0..<index).map { Int(inputs[$0].text.trimming(.whitespaces)) }
        guard !prefix.contains(nil) else { return nil }
        let known = prefix.compactMap { $0 }
        let last = positions.filter { $0.count == index + 1 && Array($0.prefix(index)) == known }.compactMap(\.last).max()
        return last.map { 1...max(1, $0) }
    }

    /// What a field takes, in words: its range when the view tells it ("1 to 3"), else its usage's ("1 or more").
    func expectation(_ index: Int) -> String {
        if let range = positionRange(index) { return range.lowerBound == range.upperBound ? "only \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)" }
        return argument(index).expectation
    }

    /// Whether the focused field takes several lines (a `TEXT` argument): it can be edited in `$VISUAL`/`$EDITOR`.
    var takesLines: Bool { names.indices.contains(asking) && EditorCommand.isMultiLineArgument(names[asking]) }

    /// Whether a field's text differs from what the form opened with.
    package var isEdited: Bool { asked.contains { inputs[$0].text != (initial.indices.contains($0) ? initial[$0] : "") } }

    // MARK: Checking and moving

    /// Checks field `index` with its argument's check (the one the command line's usage declares); true when acceptable.
    @discardableResult
    mutating func check(_ index: Int) -> Bool {
        guard inputs.indices.contains(index) else { return true }
        problems[index] = argument(index).labelledProblem(with: inputs[index].text)
        return problems[index] == nil
    }

    /// Moves the focus among the asked fields by `step` after checking the one left: forward stops on a problem,
    /// backward moves on (the problem stays shown on its field).
    mutating func move(by step: Int) {
        let fields = asked
        guard let here = fields.firstIndex(of: asking) else { return }
        if !check(asking), step > 0 { return }
        asking = fields[min(fields.count - 1, max(0, here + step))]
        choiceTyped = ""
    }

    /// The next field (after the focused one, then from the first) whose value its argument does not accept yet,
    /// nil when every one does (then ⏎ runs the command).
    var nextNeedingValue: Int? {
        let fields = asked
        let here = fields.firstIndex(of: asking) ?? 0
        let order = fields[(here + 1)...] + fields[..<here]
        return order.first { argument($0).problem(with: inputs[$0].text) != nil }
    }

    /// On a field with choices, the next (`step` 1) or previous (-1) choice; an optional field's cycle has "none" (empty).
    mutating func choose(by step: Int) {
        let argument = argument(asking)
        guard !argument.choices.isEmpty else { return }
        let choices = (argument.optional ? [""] : []) + argument.choices
        let index = choices.firstIndex(of: input.text.trimming(.whitespaces)) ?? (step > 0 ? -1 : 0)
        input = TextField(choices[(index + step + choices.count) % choices.count])
        problems[asking] = nil
        choiceTyped = ""
    }

    /// On a field with choices, the choice that starts with what was typed on it ("e" picks "ellipse", "re" then
    /// "rect"); a letter no choice continues with starts again from that letter.
    mutating func choose(typing letter: Character) {
        let choices = argument(asking).choices
        for typed in [choiceTyped + String(letter), String(letter)] {
            if let found = choices.first(where: { $0.lowercased().hasPrefix(typed.lowercased()) }) {
                input = TextField(found)
                choiceTyped = typed
                problems[asking] = nil
                return
            }
        }
    }

    /// The arguments to run the command with: trailing optional arguments left empty are left out, as on the
    /// command line.
    package var submittedArguments: [String] {
        var arguments = names.indices.map { index in
            (values.indices.contains(index) ? values[index] : nil) ?? inputs[index].text.trimming(.whitespaces)
        }
        while let last = arguments.last, last.isEmpty, argument(arguments.count - 1).optional { arguments.removeLast() }
        return arguments
    }
}

extension EditorPrompt {
    /// The failure the editor gave, as it shows on the field it names: without the usage line, the argument named by
    /// its label ("W must be…: got '0' (usage: add …)" → "Width must be…: got '0'").
    static func shown(failure: String, on argument: CommandArgument?) -> String {
        var text = failure
        if let usage = text.firstRange(of: " (usage:") { text = String(text[..<usage.lowerBound]) }
        guard let argument else { return text }
        let name = argument.name
        var searchStart = text.startIndex
        while let found = text[searchStart...].firstRange(of: name) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if before.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true, after.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true {
                return argument.label + text[found.upperBound...]
            }
            searchStart = found.upperBound
        }
        return text
    }
}
