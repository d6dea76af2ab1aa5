import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

// Opening a command's prompt or form from what is there (the cursor's item, its title), refusing a selection the
// command cannot take before asking anything, and asking again after the editor refused the command.

extension AppState {
    /// Asks the arguments `values` leaves nil (a one-line prompt for one, a form for several), prefilled from the
    /// view at once, then from the editor's current values when they come (the run loop asks for them as the form
    /// opens: `argumentValuesRequest(from:to:)`; `invoke` has refused a selection the command cannot take before
    /// this). False when nothing is asked.
    @discardableResult
    static func openPrompt(_ command: EditorCommand, values: [String?], base: String?, editor: inout EditorState) -> Bool {
        let names = command.argumentNames
        guard let first = values.indices.first(where: { values[$0] == nil }) else { return false }
        editor.prompt = EditorPrompt(command: command, values: values, names: names, asking: first, base: base,
                                     selection: editor.commandSelection).prefilled(from: editor)
        return true
    }

    /// Why `command` cannot act on the editor's selection, nil when it can: a command that takes one item
    /// (`EditorCommand.takesOneItem`) is not given a range — said before anything is asked or run.
    static func selectionRefusal(_ command: EditorCommand, editor: EditorState) -> String? {
        guard command.takesOneItem(rangesDeclared: EditorCommand.declareRanges(editor.commands)), let selection = editor.selection, selection.end > selection.start else { return nil }
        let count = selection.end - selection.start + 1
        return "\(command.title) acts on one item, and \(count) are selected: esc ends the selection, then choose one"
    }

    /// The prompt again after the editor refused the command: every value kept, the failure (without its usage line)
    /// on the field it names (else the first one asked), that field focused. Item numbers from the cursor are kept.
    package mutating func reopeningPrompt(after effect: AppEffect, failure: String) {
        guard case let .runEditorCommand(id, arguments, base, selection) = effect, case var .editor(editor) = screen,
              let command = editor.commands.first(where: { $0.id == id }) else { return }
        let names = command.argumentNames
        let asked = names.indices.filter { !EditorCommand.isItemArgument(names[$0]) }
        guard let first = asked.first else { return }
        let values: [String?] = names.indices.map { asked.contains($0) ? nil : ($0 < arguments.count ? arguments[$0] : "") }
        var prompt = EditorPrompt(command: command, values: values, names: names, asking: first, base: base, selection: selection)
        for index in asked { prompt.inputs[index] = TextField(index < arguments.count ? arguments[index] : "") }
        prompt.initial = prompt.inputs.map { _ in "" }  // the values were typed: ^Q asks before losing them
        // The first argument name among the failure's words ("W must be…: got '0' (usage: add rect|ellipse X Y W H)").
        let withoutUsage = failure.firstRange(of: " (usage:").map { String(failure[..<$0.lowerBound]) } ?? failure
        let words = withoutUsage.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
        let named = words.lazy.compactMap { word in asked.first { prompt.argument($0).name == word } }.first
        prompt.asking = named ?? first
        prompt.problems[prompt.asking] = EditorPrompt.shown(failure: failure, on: named.map { prompt.argument($0) })
        editor.prompt = prompt
        editor.message = prompt.isForm ? nil : prompt.problems[prompt.asking].map(StatusLine.failure)
        screen = .editor(editor)
    }
}

extension EditorPrompt {
    /// The fields started from what is there: a command's leading whole-number arguments are the position of the item
    /// under the cursor as its line shows it (the story's `set-text ACT SCENE TEXT` on scene 2.3: ACT 2, SCENE 3); a
    /// choice starts on its first choice; a rename's TITLE (or NAME) is the item's title as its line shows it. Numbers
    /// and titles are suggestions: typing replaces them, arrows edit them. The focus starts after the position.
    func prefilled(from editor: EditorState) -> EditorPrompt {
        var prompt = self
        prompt.positions = editor.items?.paths ?? []
        let path = editor.items.flatMap { items in editor.effectiveSelection.flatMap { items.paths.indices.contains($0.start) ? items.paths[$0.start] : nil } } ?? []
        var leading = true
        var numbers: [Int] = []
        for index in names.indices {
            let argument = argument(index)
            let filled = values.indices.contains(index) && values[index] != nil
            if !filled, !argument.choices.isEmpty, !argument.optional { prompt.inputs[index] = TextField(argument.choices[0]) }
            let numeric = argument.kind != .text || EditorCommand.isItemArgument(names[index])
            if !numeric { leading = false }
            if leading, !filled, argument.kind != .text, index < path.count {
                prompt.inputs[index] = .suggesting(String(path[index]))
                numbers.append(path[index])
            }
        }
        // The focus starts on the first field not already given by the cursor's position.
        prompt.asking = asked.first { $0 >= numbers.count } ?? prompt.asking
        if command.renamesItem, let title = prompt.currentTitle(editor: editor, numbers: numbers),
           let index = asked.first(where: { ["TITLE", "NAME"].contains(argument($0).name) }) {
            prompt.inputs[index] = .suggesting(title)
        }
        prompt.initial = prompt.inputs.map(\.text)
        return prompt
    }

    /// The title of the item the command acts on: the one its item argument names (the cursor's), else the one whose
    /// position is the leading numbers prefilled (`rename-act ACT TITLE` on scene 1.2: act 1).
    func currentTitle(editor: EditorState, numbers: [Int]) -> String? {
        guard let items = editor.items else { return nil }
        let index: Int?
        if names.contains(where: EditorCommand.isItemArgument) {
            index = editor.effectiveSelection?.start
        } else {
            index = numbers.isEmpty ? nil : items.paths.firstIndex(of: numbers)
        }
        guard let index, items.titles.indices.contains(index) else { return nil }
        return items.titles[index]
    }
}

extension EditorCommand {
    /// Whether the command gives an existing item a new title (its id or title starts with "rename"): its form starts
    /// from the current title.
    var renamesItem: Bool { id.lowercased().hasPrefix("rename") || title.lowercased().hasPrefix("rename") }
}

extension ViewLines {
    /// An item's title as its view line shows it: after the position, without a check box ("[ ] ", "[x] ") and
    /// without a right-hand column set off by two or more spaces ("4 words"); nil when the line was cut ("…") or
    /// shows nothing.
    package static func itemTitle(_ line: String) -> String? {
        guard itemPath(line) != nil else { return nil }
        var rest = Substring(line).drop { $0 == ">" || $0 == " " || $0 == "›" }.drop { $0.isNumber || $0 == "." }.dropFirst()
        for box in ["[ ] ", "[x] ", "[X] "] where rest.hasPrefix(box) { rest = rest.dropFirst(box.count) }
        if let gap = rest.firstRange(of: "  ") { rest = rest[..<gap.lowerBound] }
        let title = rest.trimming(.whitespaces)
        return title.isEmpty || title.hasSuffix("…") ? nil : title
    }
}
