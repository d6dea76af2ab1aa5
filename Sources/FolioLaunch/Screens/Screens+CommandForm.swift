import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

extension Screens {
    /// Where a command's form goes over the editor's view: a box with one row per field (label, value, what the field
    /// takes) and a row under a field with a problem, scrolled to keep the focused field shown.
    struct CommandFormLayout: Equatable {
        var x: Int, y: Int, width: Int, height: Int
        var labelWidth: Int
        var valueX: Int
        var valueWidth: Int
        /// The rows inside the box: a field's row (its index in `names`), or a line of its problem (wrapped).
        var rows: [(field: Int, problem: String?)]
        static func == (a: Self, b: Self) -> Bool {
            a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height && a.valueWidth == b.valueWidth
                && a.rows.map(\.field) == b.rows.map(\.field) && a.rows.map(\.problem) == b.rows.map(\.problem)
        }
    }

    /// The line above the fields saying what the command acts on ("Item 3", "Items 2-4"), nil when nothing is filled in.
    static func commandFormSubject(_ prompt: EditorPrompt) -> String? {
        let filled = prompt.names.indices.compactMap { index -> String? in
            guard prompt.values.indices.contains(index), let value = prompt.values[index] else { return nil }
            let label = prompt.argument(index).label
            return value.contains("-") ? "\(label)s \(value)" : "\(label) \(value)"
        }
        return filled.isEmpty ? nil : "On " + filled.joined(separator: ", ").lowercased()
    }

    /// The layout of `prompt`'s form on a `width`×`height` editor frame; the box goes below (else above) row `keep`
    /// (the cursor's item) when it fits there, so the item the command acts on stays in sight.
    static func commandFormLayout(_ prompt: EditorPrompt, width: Int, height: Int, keep: Int? = nil) -> CommandFormLayout {
        let bodyTop = 1, bodyBottom = max(bodyTop, height - 2)  // the status line stays shown
        let boxWidth = max(0, min(width - 2, 76))
        let x = max(0, (width - boxWidth) / 2)
        let labels = prompt.asked.map { DisplayWidth.width(of: prompt.argument($0).label) }
        let labelWidth = min(max(4, (labels.max() ?? 0) + 1), max(4, boxWidth / 3))
        let valueX = x + 2 + 2 + labelWidth
        // Choices are drawn in their field, not as a hint.
        let hints = prompt.asked.filter { prompt.argument($0).choices.isEmpty }
            .map { EditorCommand.isMultiLineArgument(prompt.names[$0]) ? "^O: $EDITOR" : prompt.expectation($0) }
        let hintWidth = (hints.map { DisplayWidth.width(of: $0) }.max() ?? 0) + 2
        let roomForValue = x + boxWidth - 2 - valueX
        let valueWidth = max(1, roomForValue - hintWidth >= 14 ? roomForValue - hintWidth : roomForValue)
        var lines: [(field: Int, problem: String?)] = []
        let problemWidth = max(8, x + boxWidth - 2 - (x + 4) - 2)
        for index in prompt.asked {
            lines.append((index, nil))
            if let problem = prompt.problems[index] {
                lines += wrapped(problem, width: problemWidth).enumerated().map { (index, ($0.offset == 0 ? "✗ " : "  ") + $0.element) }
            }
        }
        let subject = commandFormSubject(prompt) == nil ? 0 : 1
        let room = max(1, bodyBottom - bodyTop - 2 - subject)
        var first = 0
        if lines.count > room, let focusLine = lines.firstIndex(where: { $0.field == prompt.asking }) {
            let focusEnd = (lines.lastIndex { $0.field == prompt.asking }) ?? focusLine
            first = min(max(0, focusEnd - room + 1), lines.count - room)
        }
        let shown = Array(lines.dropFirst(first).prefix(room))
        let boxHeight = shown.count + 2 + subject
        var y = bodyTop + max(0, (bodyBottom - bodyTop - boxHeight) / 3)
        if let keep, keep >= y, keep < y + boxHeight {
            if keep + 1 + boxHeight <= bodyBottom { y = keep + 1 } else if keep - boxHeight >= bodyTop { y = keep - boxHeight }
        }
        return CommandFormLayout(x: x, y: y, width: boxWidth, height: boxHeight, labelWidth: labelWidth, valueX: valueX,
                                 valueWidth: valueWidth, rows: shown)
    }

    /// A command's form over the editor's view: a box titled with the command, what it acts on, one row per field —
    /// its label (never the raw usage word), its value (a choice shown among the others, a suggestion dim), what it
    /// takes ("whole number", "optional") — and a field's problem in words under it.
    static func drawCommandForm(_ prompt: EditorPrompt, keep: Int? = nil, into grid: inout CellGrid) {
        let layout = commandFormLayout(prompt, width: grid.width, height: grid.height, keep: keep)
        guard layout.width > 8, layout.height > 2 else { return }
        let (x, y, w) = (layout.x, layout.y, layout.width)
        grid.fill(Rect(x: x, y: y, width: w, height: layout.height), with: Cell())
        let title = " " + DisplayWidth.truncate(prompt.command.title, to: max(0, w - 6)) + " "
        let hiddenAbove = prompt.asked.first.map { first in layout.rows.first?.field != first } ?? false
        let hiddenBelow = prompt.asked.last.map { last in layout.rows.last?.field != last } ?? false
        let more = hiddenAbove || hiddenBelow ? " ↕ " : ""
        grid.put("╭─" + title + String(repeating: "─", count: max(0, w - 4 - DisplayWidth.width(of: title) - DisplayWidth.width(of: more))) + more + "─╮",
                 x: x, y: y, style: theme.border)
        grid.put(title, x: x + 2, y: y, style: CellStyle(bold: true))
        var row = y + 1
        if let subject = commandFormSubject(prompt) {
            grid.put("│", x: x, y: row, style: theme.border); grid.put("│", x: x + w - 1, y: row, style: theme.border)
            grid.put(subject, x: x + 2, y: row, style: theme.subtitle, maxWidth: w - 4)
            row += 1
        }
        for line in layout.rows {
            grid.put("│", x: x, y: row, style: theme.border); grid.put("│", x: x + w - 1, y: row, style: theme.border)
            if let problem = line.problem {
                grid.put(problem, x: x + 4, y: row, style: theme.error, maxWidth: max(0, w - 6))
            } else {
                drawCommandField(prompt, index: line.field, layout: layout, y: row, into: &grid)
            }
            row += 1
        }
        grid.put("╰" + String(repeating: "─", count: max(0, w - 2)) + "╯", x: x, y: row, style: theme.border)
    }

    static func drawCommandField(_ prompt: EditorPrompt, index: Int, layout: CommandFormLayout, y: Int, into grid: inout CellGrid) {
        let argument = prompt.argument(index)
        let focused = index == prompt.asking
        grid.put(focused ? "▸" : " ", x: layout.x + 2, y: y, style: theme.key)
        grid.put(DisplayWidth.truncate(argument.label, to: layout.labelWidth), x: layout.x + 4, y: y,
                 style: focused ? CellStyle(bold: true) : theme.action)
        let input = prompt.inputs[index]
        var end = layout.valueX + layout.valueWidth
        if argument.choices.isEmpty {
            input.draw(into: &grid, x: layout.valueX, y: y, width: layout.valueWidth, style: CellStyle(underline: true), focused: focused)
        } else {
            end = drawChoices(argument, chosen: input.text, focused: focused, x: layout.valueX, y: y, width: layout.valueWidth, into: &grid)
        }
        let lines = EditorCommand.isMultiLineArgument(prompt.names[index])
        let hint = lines ? "^O: $EDITOR" : prompt.expectation(index)
        let hintX = layout.valueX + layout.valueWidth + 2
        if !hint.isEmpty, argument.choices.isEmpty, hintX + DisplayWidth.width(of: hint) <= layout.x + layout.width - 2 {
            grid.put(hint, x: hintX, y: y, style: theme.subtitle)
        }
    }

    /// `text` in lines of at most `width` cells, broken between words (a word wider than a line is cut into pieces).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if DisplayWidth.width(of: candidate) <= width { line = candidate; continue }
            if !line.isEmpty { lines.append(line) }
            var rest = word
            while DisplayWidth.width(of: rest) > width {
                let piece = DisplayWidth.truncate(rest, to: width, ellipsis: "")
                guard !piece.isEmpty else { break }
                lines.append(piece)
                rest = String(rest.dropFirst(piece.count))
            }
            line = rest
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// A choice field: every choice with the chosen one marked when they fit, else "‹ red › 2/8"; a color choice
    /// with a swatch of it. Returns the column after what was drawn.
    @discardableResult
    static func drawChoices(_ argument: CommandArgument, chosen: String, focused: Bool, x: Int, y: Int, width: Int, into grid: inout CellGrid) -> Int {
        let swatch = TerminalColor(parsing: chosen).map { _ in 3 } ?? 0
        let full = argument.choices.map { $0 == chosen ? "[\($0)]" : " \($0) " }.joined(separator: " ")
        var cx = x
        var chosenStyle = CellStyle(bold: true)
        if focused { chosenStyle.reverse = true }
        if DisplayWidth.width(of: full) + swatch + (focused ? 3 : 0) <= width {
            for choice in argument.choices {
                let isChosen = choice == chosen
                cx = grid.put(isChosen ? "[\(choice)]" : " \(choice) ", x: cx, y: y, style: isChosen ? chosenStyle : theme.subtitle) + 1
            }
        } else {
            let position = argument.choices.firstIndex(of: chosen).map { "\($0 + 1)/\(argument.choices.count)" } ?? "\(argument.choices.count) choices"
            cx = grid.put("‹ ", x: cx, y: y, style: theme.key)
            cx = grid.put(chosen.isEmpty ? "none" : chosen, x: cx, y: y, style: chosenStyle, maxWidth: max(0, width - 12))
            cx = grid.put(" › ", x: cx, y: y, style: theme.key)
            cx = grid.put(position, x: cx, y: y, style: theme.subtitle) + 1
        }
        if let color = TerminalColor(parsing: chosen) { cx = grid.put("██", x: cx, y: y, style: CellStyle(foreground: color)) + 1 }
        if focused, cx + 2 <= x + width { cx = grid.put("←→", x: cx, y: y, style: theme.key) }
        return cx
    }

    /// The command bar under a form: the keys it takes (⏎ runs on the last field).
    static func commandFormHints(_ prompt: EditorPrompt) -> String {
        let runs = prompt.nextNeedingValue == nil && prompt.argument(prompt.asking).problem(with: prompt.input.text) == nil
        var parts = [runs ? "⏎ run" : "⏎ next", "tab ↑↓ fields"]
        if !prompt.argument(prompt.asking).choices.isEmpty { parts.append("←→ choose") }
        if prompt.takesLines { parts.append("^O $EDITOR") }
        parts.append("esc cancel")
        return parts.joined(separator: " · ")
    }
}
