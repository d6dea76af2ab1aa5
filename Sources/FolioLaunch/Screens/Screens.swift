import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

/// Pure render functions for the screens beyond the launcher; each draws a whole frame.
package enum Screens {
    static let theme = Theme.standard

    /// A header bar on the first row and a key-hint line on the last.
    static func chrome(_ grid: inout CellGrid, title: String, right: String = "", hints: String) {
        let bar = CellStyle(bold: true, reverse: true)
        grid.put(String(repeating: " ", count: grid.width), x: 0, y: 0, style: bar)
        grid.put(" " + DisplayWidth.truncate(title, to: max(0, grid.width - 2)), x: 0, y: 0, style: bar)
        let r = DisplayWidth.truncate(right, to: max(0, grid.width / 2))
        if !r.isEmpty { grid.put(r + " ", x: grid.width - DisplayWidth.width(of: r) - 1, y: 0, style: bar) }
        grid.put(" " + fittedHints(hints, width: max(0, grid.width - 2)), x: 0, y: grid.height - 1, style: theme.footer)
    }

    /// A footer's hints ("a · b · esc back · ? help") in `width` cells without cutting one: whole entries give way,
    /// the last listed first (they are listed most needed first), except the ways out and to help ("esc …",
    /// "? help", "F1 help"), which stay while anything does.
    static func fittedHints(_ hints: String, width: Int) -> String {
        guard DisplayWidth.width(of: hints) > width else { return hints }
        let entries = hints.components(separatedBy: " · ")
        let kept = { (entry: String) in entry.hasPrefix("esc") || entry.hasSuffix(" help") }
        var shown = Array(entries.indices)
        func text() -> String { shown.map { entries[$0] }.joined(separator: " · ") }
        while DisplayWidth.width(of: text()) > width, let drop = shown.last(where: { !kept(entries[$0]) }) ?? shown.last {
            shown.removeAll { $0 == drop }
        }
        return text()
    }

    static func vline(_ grid: inout CellGrid, x: Int, from y0: Int, to y1: Int) {
        guard y0 < y1 else { return }
        for y in y0..<y1 { grid.put("│", x: x, y: y, style: theme.border) }
    }

    /// The template picker: a spinner per loading source, an error line per failed one, templates grouped and
    /// filtered, and a preview of the selected template (summary, variables, files).
    package static func picker(_ state: PickerState, sources: [TemplateSourceStatus], width: Int, height: Int, tick: Int = 0) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        let scope = [state.group.map { "group \($0)" }, state.contentType.map { "type \($0.identifier)" }].compactMap { $0 }.joined(separator: ", ")
        chrome(&grid, title: "Choose a Template", right: scope,
               hints: state.listFocused ? "↑↓ jk move · type filters · ⏎ choose · esc back · F1 help"
                                        : "↑↓ move · ⏎ choose · esc clears the filter · F1 help")
        guard height >= 4 else { return grid }
        let listWidth = pickerListWidth(columns: width)
        grid.put("Filter: ", x: 1, y: 1, style: theme.subtitle)
        state.filterField.draw(into: &grid, x: 9, y: 1, width: pickerFilterWidth(columns: width), style: theme.key, focused: !state.listFocused)
        var y = 2
        let bottom = height - 1
        for source in sources where y < bottom {
            switch source.state {
            case .loading:
                let doing = source.progress ?? "loading…"
                grid.put(" \(Spinner.frame(tick)) \(source.name): \(doing)", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth); y += 1
            case let .failed(reason): grid.put(" ✗ \(source.name): \(reason)", x: 0, y: y, style: theme.error, maxWidth: listWidth); y += 1
            case .loaded: break
            }
        }
        let visible = state.visible(sources)
        if visible.isEmpty, y < bottom {
            let loading = sources.contains { $0.state == .loading }
            grid.put(loading ? "   Templates appear as their sources load" : (state.filter.isEmpty ? "   No templates" : "   No template matches “\(state.filter)”"),
                     x: 0, y: y, style: theme.subtitle, maxWidth: width)
        }
        drawPickerRows(state, visible: visible, into: &grid, from: y, to: bottom, listWidth: listWidth)
        // Preview pane.
        if listWidth < width, visible.indices.contains(state.selection) {
            let template = visible[state.selection]
            let x = listWidth + 2
            let paneWidth = width - x - 1
            vline(&grid, x: listWidth, from: 1, to: bottom)
            var py = 2
            func line(_ text: String, _ style: CellStyle) { if py < bottom { grid.put(text, x: x, y: py, style: style, maxWidth: paneWidth) }; py += 1 }
            line(template.name, theme.title)
            line(template.contentType.identifier + (template.group.isEmpty ? "" : " · " + template.group), theme.subtitle)
            py += 1
            for chunk in wrap(template.summary, width: paneWidth) { line(chunk, theme.action) }
            if !template.variables.isEmpty {
                py += 1
                line("Variables", theme.heading)
                for variable in template.variables {
                    var text = "  " + variable.name
                    if !variable.defaultValue.isEmpty { text += " = \(variable.defaultValue)" }
                    if !variable.choices.isEmpty { text += " (\(variable.choices.joined(separator: " | ")))" }
                    if variable.required { text += " *" }
                    line(text, theme.action)
                }
            }
            if !template.files.isEmpty {
                py += 1
                line("Files", theme.heading)
                for file in template.files { line("  " + file, theme.subtitle) }
            }
        }
        return grid
    }

    /// The picker's rows from `top` to `bottom`: without a filter a heading per group, then its templates; with one the
    /// best matches first, without headings. Each row is a name column and a type column, both measured in cells and
    /// cut with "…", so a long name never runs into the type; scrolled to keep the selection shown.
    static func drawPickerRows(_ state: PickerState, visible: [TemplateSummary], into grid: inout CellGrid, from top: Int, to bottom: Int,
                               listWidth: Int) {
        var rows: [(text: String, index: Int?)] = []
        var lastGroup: String?
        for (index, template) in visible.enumerated() {
            if state.grouped, template.group != lastGroup {
                rows.append((template.group.isEmpty ? "Other" : template.group.capitalized, nil)); lastGroup = template.group
            }
            rows.append((template.name, index))
        }
        let columns = pickerColumns(visible, listWidth: listWidth)
        let room = max(0, bottom - top)
        let selectedRow = rows.firstIndex { $0.index == state.selection } ?? 0
        let first = max(0, min(selectedRow - room + 1, rows.count - room))
        for (offset, row) in rows.dropFirst(first).prefix(room).enumerated() {
            let y = top + offset
            guard let index = row.index else {
                grid.put(" " + DisplayWidth.truncate(row.text, to: max(0, listWidth - 2)), x: 0, y: y, style: theme.heading)
                continue
            }
            let selected = index == state.selection
            let style = selected ? theme.selected : theme.action
            grid.put(String(repeating: " ", count: max(0, listWidth - 2)), x: 1, y: y, style: style)
            grid.put((selected ? "▸ " : "  ") + DisplayWidth.truncate(row.text, to: columns.name), x: 1, y: y, style: style)
            if columns.type > 0 {
                grid.put(DisplayWidth.truncate(pickerTypeLabel(visible[index]), to: columns.type), x: columns.typeX, y: y,
                         style: selected ? theme.selected : theme.subtitle)
            }
        }
    }

    /// The short type a picker row shows ("shapes" for org.folio.shapes).
    static func pickerTypeLabel(_ template: TemplateSummary) -> String {
        template.contentType.identifier.split(separator: ".").last.map(String.init) ?? template.contentType.identifier
    }

    /// The picker's columns inside a list `listWidth` cells wide (drawn from x = 1): the name's cells after the
    /// marker, the type column's x and cells (at most 12, at most a third of the row; none when the row is tiny), a
    /// cell between them.
    static func pickerColumns(_ visible: [TemplateSummary], listWidth: Int) -> (name: Int, typeX: Int, type: Int) {
        let inner = max(0, listWidth - 3)
        let widest = visible.map { DisplayWidth.width(of: pickerTypeLabel($0)) }.max() ?? 0
        let type = inner >= 16 ? min(widest, 12, inner / 3) : 0
        let name = max(0, inner - 2 - (type > 0 ? type + 1 : 0))
        return (name, 1 + 2 + name + 1, type)
    }

    /// Where the form's parts go on a `width`×`height` screen: the label column (as wide as the longest label when
    /// there is room, else 40% of the width), the value boxes, and which fields are shown — all of them with a blank
    /// line between when they fit, else without, else scrolled so the focused field (and its message) is shown.
    package struct FormLayout: Equatable, Sendable {
        package var labelWidth: Int
        package var valueX: Int
        package var valueWidth: Int
        /// The first row of fields.
        package var top: Int
        /// The first field shown.
        package var scroll: Int
        /// The fields shown with the row each starts on.
        package var rows: [(field: Int, y: Int)]
        package var spaced: Bool
        package static func == (a: FormLayout, b: FormLayout) -> Bool {
            a.labelWidth == b.labelWidth && a.valueX == b.valueX && a.valueWidth == b.valueWidth && a.top == b.top && a.scroll == b.scroll
                && a.rows.map(\.field) == b.rows.map(\.field) && a.rows.map(\.y) == b.rows.map(\.y) && a.spaced == b.spaced
        }
    }

    package static func formLayout(_ state: FormState, width: Int, height: Int) -> FormLayout {
        // Labels take what the values leave: the widest value (or row of choices) plus room to type, at most half.
        let natural = (state.fields.map { DisplayWidth.width(of: $0.label) + ($0.required ? 1 : 0) }.max() ?? 0) + 1
        let values = state.fields.map { field in
            field.choices.isEmpty ? DisplayWidth.width(of: field.value) + 4 : field.choices.reduce(0) { $0 + DisplayWidth.width(of: $1) + 3 }
        }
        let valueRoom = max(12, min(values.max() ?? 0, width / 2))
        let labelWidth = max(4, min(natural, width - 6 - valueRoom))
        let valueX = 3 + labelWidth + 1
        var top = 2
        if case let .template(template) = state.purpose, !template.summary.isEmpty, height >= 12 { top = 4 }
        let bottom = max(top, height - 1)
        // A destination shows where it resolves; a message wraps under its field (at most three rows).
        let heights = state.fields.map { 1 + ($0.message.map { fieldMessageLines($0, width: width).count } ?? (FormState.isDestination($0) ? 1 : 0)) }
        let spaced = heights.reduce(0, +) + heights.count <= bottom - top
        let step = spaced ? 1 : 0
        var scroll = min(max(0, state.scroll), max(0, state.fields.count - 1))
        let focus = min(max(0, state.focus), max(0, state.fields.count - 1))
        if focus < scroll { scroll = focus }
        while scroll < focus, heights[scroll...focus].reduce(0, +) + step * (focus - scroll) > bottom - top { scroll += 1 }
        var rows: [(Int, Int)] = []
        var y = top
        for index in state.fields.indices.dropFirst(scroll) {
            guard y + heights[index] <= bottom else { break }
            rows.append((index, y))
            y += heights[index] + step
        }
        return FormLayout(labelWidth: labelWidth, valueX: valueX, valueWidth: max(1, width - valueX - 2), top: top, scroll: scroll, rows: rows, spaced: spaced)
    }

    /// A form field's message as it is drawn under the field: "✗ " and the text wrapped to the form's width, at most
    /// three rows (the last one marked with "…" when more would follow).
    static func fieldMessageLines(_ message: String, width: Int) -> [String] {
        let wrapped = DisplayWidth.wrap(message, width: max(8, width - 6))
        var lines = Array(wrapped.prefix(3))
        if wrapped.count > 3, let last = lines.popLast() { lines.append(last + " …") }
        return lines.enumerated().map { $0.offset == 0 ? "✗ " + $0.element : "  " + $0.element }
    }

    /// The picker's list: the whole width below 70 columns, else two fifths (at least 34 cells, so names stay apart).
    static func pickerListWidth(columns: Int) -> Int { columns >= 70 ? min(columns / 2, max(34, columns * 2 / 5)) : columns }
    /// The cells the picker's filter has.
    static func pickerFilterWidth(columns: Int) -> Int { max(1, pickerListWidth(columns: columns) - 10) }

    /// The variable form: fields with values, choices and messages, and the destination; scrolled to the focused
    /// field when they do not all fit (the title bar says which fields are shown).
    package static func form(_ state: FormState, width: Int, height: Int, currentFolder: String? = nil, home: String? = nil) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        let layout = formLayout(state, width: width, height: height)
        let shown = layout.rows.map(\.field)
        let position = shown.count < state.fields.count && !shown.isEmpty
            ? "fields \((shown.first ?? 0) + 1)–\((shown.last ?? 0) + 1) of \(state.fields.count)" : ""
        chrome(&grid, title: state.title, right: position, hints: state.purpose == .open ? "Tab completes · ⏎ opens · esc cancel · F1 help"
                                                                                    : "⏎ next · tab ↑↓ move · ←→ choose · esc cancel · F1 help")
        if layout.top > 2, case let .template(template) = state.purpose {
            grid.put(" " + template.summary, x: 0, y: 2, style: theme.subtitle, maxWidth: width - 1)
        }
        if state.fields.isEmpty { grid.put(" Nothing to fill in — press ⏎ to create.", x: 0, y: layout.top, style: theme.subtitle, maxWidth: width) }
        for (index, y) in layout.rows {
            let field = state.fields[index]
            let focused = index == state.focus
            grid.put(focused ? "▸" : " ", x: 1, y: y, style: theme.key)
            grid.put(DisplayWidth.pad(field.label + (field.required ? "*" : ""), to: layout.labelWidth), x: 3, y: y,
                     style: focused ? CellStyle(bold: true) : theme.action)
            if field.choices.isEmpty {
                // A template's secret (a token, a password) is never drawn: a • for each character.
                let input = field.declaration?.secret == true ? field.input.masked : field.input
                input.draw(into: &grid, x: layout.valueX, y: y, width: layout.valueWidth, style: CellStyle(underline: true), focused: focused)
            } else {
                let text = field.choices.map { $0 == field.value ? "[\($0)]" : " \($0) " }.joined(separator: " ")
                grid.put(DisplayWidth.pad(text, to: layout.valueWidth), x: layout.valueX, y: y)
            }
            if let message = field.message {
                for (offset, line) in fieldMessageLines(message, width: width).enumerated() {
                    grid.put(line, x: 3, y: y + 1 + offset, style: theme.error, maxWidth: max(0, width - 4))
                }
            } else if FormState.isDestination(field) {
                drawResolvedDestination(field, folder: currentFolder, home: home, x: layout.valueX, y: y + 1, into: &grid)
            }
        }
        if let browser = state.browser, let last = layout.rows.last { drawPathBrowser(browser, into: &grid, from: last.y + 2, x: layout.valueX) }
        return grid
    }

    /// The editor host frame: the plugin's view, a status line (title, type, latest commit) and a command bar;
    /// commands needing a selection are dim without one; Ctrl-P shows the palette of all commands. A shared document's
    /// sync state (as of `now`) leads the status line's right side, and a conflict puts its banner over the title row.
    package static func editor(_ state: EditorState, view: any EditorViewProvider, width: Int, height: Int, now: Date = Date()) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        let bodyHeight = max(0, height - 3)
        let numbered = state.items != nil
        let lines = view.render(RenderRequest(width: max(0, width - 2), height: bodyHeight, selection: state.viewSelection)).shown
        grid.put(" " + state.title, x: 0, y: 0, style: CellStyle(bold: true))
        grid.put(state.path, x: max(0, width - DisplayWidth.width(of: state.path) - 1), y: 0, style: theme.subtitle, maxWidth: max(0, width / 2))
        drawConflictBanner(state, into: &grid)
        for (row, text) in lines.prefix(bodyHeight).enumerated() {
            let y = row + 1
            let selected: Bool
            if numbered {
                selected = state.selection.map { selection in ViewLines.itemIndex(text, in: state.items).map { selection.start...selection.end ~= $0 } ?? false } ?? false
            } else {
                selected = state.selection.map { $0.start...$0.end ~= row } ?? false
                if row == state.cursor { grid.put("›", x: 0, y: y, style: theme.key) }
            }
            grid.put(text, x: 1, y: y, style: selected ? CellStyle(reverse: true) : .plain, maxWidth: max(0, width - 2))
            // An item a version from elsewhere just touched: its mark in the gutter, for a few seconds.
            if numbered, let mark = state.arrivalMarks?.mark(text, at: now) { grid.put(mark.symbol, x: 0, y: y, style: changeStyle(mark)) }
        }
        // Status line.
        let status = CellStyle(reverse: true)
        let statusY = height - 2
        if statusY >= 0 {
            grid.put(String(repeating: " ", count: width), x: 0, y: statusY, style: status)
            let commit = state.commitID.isEmpty ? "no commits yet" : "\(state.commitID.prefix(7)) \(state.commitMessage)"
            // While a range is selected, how many items it holds leads the line.
            let count = state.selection.map { "\($0.end - $0.start + 1) selected · " } ?? ""
            let left = " \(count)\(state.title) · \(state.contentType.identifier)"
            let (text, sync) = statusRight(state, commit: commit, now: now)
            // The sync state is whole when it fits: the title gives way to it.
            let leftRoom = max(0, min(width / 2, width - DisplayWidth.width(of: sync ?? "") - 5))
            grid.put(left, x: 0, y: statusY, style: CellStyle(bold: true, reverse: true), maxWidth: leftRoom)
            let right = DisplayWidth.truncate(text, to: max(0, width - min(leftRoom, DisplayWidth.width(of: left)) - 3))
            let rightX = max(0, width - DisplayWidth.width(of: right) - 1)
            grid.put(right + " ", x: rightX, y: statusY, style: status)
            if let sync, let phase = state.sharing?.phase, right.hasPrefix(sync) { grid.put(sync, x: rightX, y: statusY, style: syncStyle(phase)) }
        }
        let barY = height - 1
        if let prompt = state.prompt, prompt.isForm {
            // A command's form over the view; its keys on the command bar.
            let cursorRow = numbered ? lines.prefix(bodyHeight).firstIndex { ViewLines.itemIndex($0, in: state.items) == state.cursor }.map { $0 + 1 } : nil
            drawCommandForm(prompt, keep: cursorRow, into: &grid)
            if let message = state.message { grid.putLine(" " + message.shown, y: barY, style: theme.style(message)) } else if prompt.discardAsked {
                grid.putLine(" esc again discards what you typed in this form · any other key keeps it", y: barY, style: theme.key)
            } else {
                grid.putLine(" " + commandFormHints(prompt), y: barY, style: theme.footer)
            }
        } else if let prompt = state.prompt {
            // The one-line prompt replaces the command bar.
            let label = DisplayWidth.truncate(promptLabel(prompt), to: max(0, width * 2 / 3))
            let labelWidth = DisplayWidth.width(of: label)
            grid.put(label, x: 0, y: barY, style: theme.key, maxWidth: width)
            prompt.input.draw(into: &grid, x: labelWidth, y: barY, width: max(0, width - labelWidth), style: CellStyle(bold: true), focused: true)
            // The message replaces the whole status line (nothing of the old line is left beside it).
            if let message = state.message, barY - 1 > 0 { putMessage(message.shown, bottom: barY - 1, style: theme.style(message), into: &grid) }
        } else if let message = state.message {
            putMessage(message.shown, bottom: barY, style: theme.style(message), into: &grid)
        } else if let hint = state.hint {
            putMessage(hint, bottom: barY, style: theme.subtitle, into: &grid)
        } else {
            // Command bar.
            // Command bar: the plugin's commands, then Folio's, as many as fit; the palette (which lists them all) always.
            var x = 1
            let enabledSelection = state.effectiveSelection != nil
            let palette = EditorState.hostCommands.first { $0.id == "folio.palette" }
            let paletteWidth = palette.map { DisplayWidth.width(of: AppState.displayShortcut($0.shortcut)) + DisplayWidth.width(of: $0.title) + 3 } ?? 0
            var shown = state.commands + EditorState.hostCommands.filter { $0.id != "folio.palette" }
            if let palette { shown.append(palette) }
            for command in shown {
                let enabled = !command.needsSelection || enabledSelection
                let keyText = AppState.displayShortcut(command.shortcut)
                let cellWidth = DisplayWidth.width(of: keyText) + DisplayWidth.width(of: command.title) + 3
                let isPalette = command.id == "folio.palette"
                if !isPalette, x + cellWidth + paletteWidth > grid.width { continue }
                if x + cellWidth > grid.width { break }
                grid.put(keyText, x: x, y: barY, style: enabled ? CellStyle(foreground: .named(.cyan), bold: true) : theme.disabled)
                grid.put(" " + command.title, x: x + DisplayWidth.width(of: keyText), y: barY, style: enabled ? theme.action : theme.disabled)
                x += cellWidth
            }
        }
        if state.paletteOpen { palette(state, into: &grid) }
        return grid
    }

    /// The one-line prompt's label: " Rename item — Title: " (the argument's label, never its usage word).
    static func promptLabel(_ prompt: EditorPrompt) -> String {
        let argument = prompt.argument(prompt.asking)
        let expectation = prompt.expectation(prompt.asking)
        let takes = expectation.isEmpty ? "" : " (\(expectation))"
        return " \(prompt.command.title) — \(argument.label)\(takes): "
    }

    /// The palette: a filter line, then the commands that match, scrolled to keep the selected one shown.
    static func palette(_ state: EditorState, into grid: inout CellGrid) {
        let commands = state.filteredPaletteCommands
        let boxWidth = min(grid.width - 4, max(30, (state.paletteCommands.map { DisplayWidth.width(of: $0.title) }.max() ?? 0) + 26))
        // Sized for every command, not the filtered ones: the box stays put while typing narrows its list.
        let boxHeight = min(grid.height - 2, max(state.paletteCommands.count, 1) + 3)
        guard boxWidth > 4, boxHeight > 3 else { return }
        let x = (grid.width - boxWidth) / 2, y = max(1, (grid.height - boxHeight) / 3)
        let listRows = boxHeight - 3
        let first = max(0, min(state.paletteIndex - listRows + 1, commands.count - listRows))
        grid.fill(Rect(x: x, y: y, width: boxWidth, height: boxHeight), with: Cell())
        let more = commands.count > listRows ? " \(first + 1)–\(min(commands.count, first + listRows)) of \(commands.count) " : ""
        grid.put("╭─ Commands " + String(repeating: "─", count: max(0, boxWidth - 13 - DisplayWidth.width(of: more))) + more + "╮", x: x, y: y, style: theme.border)
        grid.put("│", x: x, y: y + 1, style: theme.border)
        grid.put("│", x: x + boxWidth - 1, y: y + 1, style: theme.border)
        grid.put(" ⌕ ", x: x + 1, y: y + 1, style: theme.subtitle)
        state.paletteFilter.draw(into: &grid, x: x + 4, y: y + 1, width: max(1, boxWidth - 6), style: theme.key, focused: true)
        if commands.isEmpty { grid.put(" no command matches", x: x + 1, y: y + 2, style: theme.subtitle, maxWidth: boxWidth - 2) }
        for row in 2..<(boxHeight - 1) {
            grid.put("│", x: x, y: y + row, style: theme.border)
            grid.put("│", x: x + boxWidth - 1, y: y + row, style: theme.border)
            let index = first + row - 2
            guard commands.indices.contains(index) else { continue }
            let command = commands[index]
            let enabled = !command.needsSelection || state.effectiveSelection != nil
            var style = enabled ? theme.action : theme.disabled
            if index == state.paletteIndex { style.reverse = true; style.bold = true }
            let shortcut = AppState.displayShortcut(command.shortcut)
            let label = DisplayWidth.pad(" " + command.title + (enabled ? "" : " (needs a selection)"), to: max(0, boxWidth - 4 - DisplayWidth.width(of: shortcut)))
            grid.put(label + " " + shortcut + " ", x: x + 1, y: y + row, style: style)
        }
        grid.put("╰" + String(repeating: "─", count: boxWidth - 2) + "╯", x: x, y: y + boxHeight - 1, style: theme.border)
    }

    /// `text` wrapped at word boundaries to lines of at most `width` cells.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if DisplayWidth.width(of: candidate) <= width { current = candidate; continue }
            if !current.isEmpty { lines.append(current) }
            current = DisplayWidth.truncate(String(word), to: width)
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

/// Reading the numbered lines of a plugin view ("> 12 [x] Milk", "   3  text").
package enum ViewLines {
    /// The item number a view line shows, nil for other lines (headers, blank lines).
    package static func itemNumber(_ line: String) -> Int? {
        var scalars = Substring(line).unicodeScalars.drop { $0 == ">" || $0 == " " || $0 == "›" }
        var digits = ""
        while let first = scalars.first, ("0"..."9").contains(first) { digits.unicodeScalars.append(first); scalars = scalars.dropFirst() }
        guard !digits.isEmpty, digits.count < 10, scalars.first == " " else { return nil }
        return Int(digits)
    }

    /// The item layout of a whole view: numbered lines 1…n in order after a header; nil when there are none.
    package static func layout(_ lines: [String]) -> ItemLayout? {
        var header: Int?
        var count = 0
        for (index, line) in lines.enumerated() {
            guard let number = itemNumber(line) else { if header != nil { break } else { continue } }
            if header == nil { guard number == 1 else { continue }; header = index }
            guard number == count + 1 else { break }
            count += 1
        }
        guard let header else { return nil }
        return ItemLayout(count: count, headerLines: header)
    }
}
