import FolioCore
import FolioTerminal

/// Pure render functions for the screens beyond the launcher; each draws a whole frame.
public enum Screens {
    static let theme = Theme.standard

    /// A header bar on the first row and a key-hint line on the last.
    static func chrome(_ grid: inout CellGrid, title: String, right: String = "", hints: String) {
        let bar = CellStyle(bold: true, reverse: true)
        grid.put(String(repeating: " ", count: grid.width), x: 0, y: 0, style: bar)
        grid.put(" " + DisplayWidth.truncate(title, to: max(0, grid.width - 2)), x: 0, y: 0, style: bar)
        let r = DisplayWidth.truncate(right, to: max(0, grid.width / 2))
        if !r.isEmpty { grid.put(r + " ", x: grid.width - DisplayWidth.width(of: r) - 1, y: 0, style: bar) }
        grid.put(" " + DisplayWidth.truncate(hints, to: max(0, grid.width - 2)), x: 0, y: grid.height - 1, style: theme.footer)
    }

    static func vline(_ grid: inout CellGrid, x: Int, from y0: Int, to y1: Int) {
        guard y0 < y1 else { return }
        for y in y0..<y1 { grid.put("│", x: x, y: y, style: theme.border) }
    }

    /// The template picker: a spinner per loading source, an error line per failed one, templates grouped and
    /// filtered, and a preview of the selected template (summary, variables, files).
    public static func picker(_ state: PickerState, sources: [TemplateSourceStatus], width: Int, height: Int, tick: Int = 0) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        let scope = [state.group.map { "group \($0)" }, state.contentType.map { "type \($0.identifier)" }].compactMap { $0 }.joined(separator: ", ")
        chrome(&grid, title: "Choose a Template", right: scope, hints: "↑↓ select · type to filter · ⏎ choose · esc back")
        guard height >= 4 else { return grid }
        let listWidth = width >= 70 ? max(24, width * 2 / 5) : width
        grid.put("Filter: ", x: 1, y: 1, style: theme.subtitle)
        grid.put(state.filter + "▏", x: 9, y: 1, style: theme.key, maxWidth: max(0, listWidth - 10))
        var y = 2
        let bottom = height - 1
        for source in sources where y < bottom {
            switch source.state {
            case .loading: grid.put(" \(Spinner.frame(tick)) \(source.name): loading…", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth); y += 1
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
        // Rows: a heading per group, then its templates; scrolled to keep the selection visible.
        var rows: [(text: String, index: Int?)] = []
        var lastGroup: String?
        for (index, template) in visible.enumerated() {
            if template.group != lastGroup { rows.append((template.group.isEmpty ? "Other" : template.group.capitalized, nil)); lastGroup = template.group }
            rows.append((template.name, index))
        }
        let room = max(0, bottom - y)
        let selectedRow = rows.firstIndex { $0.index == state.selection } ?? 0
        let first = max(0, min(selectedRow - room + 1, rows.count - room))
        for row in rows.dropFirst(first).prefix(room) {
            if let index = row.index {
                let selected = index == state.selection
                let style = selected ? theme.selected : theme.action
                grid.put(String(repeating: " ", count: max(0, listWidth - 2)), x: 1, y: y, style: style)
                grid.put((selected ? "▸ " : "  ") + row.text, x: 1, y: y, style: style, maxWidth: max(0, listWidth - 2))
                grid.put(visible[index].contentType.identifier.split(separator: ".").last.map(String.init) ?? "", x: max(0, listWidth - 12), y: y,
                         style: selected ? theme.selected : theme.subtitle, maxWidth: 10)
            } else {
                grid.put(" " + row.text, x: 0, y: y, style: theme.heading, maxWidth: listWidth)
            }
            y += 1
        }
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

    /// The variable form: fields with values, choices and messages, and the destination.
    public static func form(_ state: FormState, width: Int, height: Int) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        chrome(&grid, title: state.title, hints: "⏎ next · ⏎ on last creates · tab/↑↓ move · ←→ choose · esc cancel")
        let labelWidth = min(20, (state.fields.map { DisplayWidth.width(of: $0.label) }.max() ?? 0) + 1)
        var y = 2
        if case let .template(template) = state.purpose, !template.summary.isEmpty {
            grid.put(" " + template.summary, x: 0, y: y, style: theme.subtitle, maxWidth: width - 1)
            y += 2
        }
        if state.fields.isEmpty { grid.put(" Nothing to fill in — press ⏎ to create.", x: 0, y: y, style: theme.subtitle) }
        for (index, field) in state.fields.enumerated() where y < height - 2 {
            let focused = index == state.focus
            grid.put(focused ? "▸" : " ", x: 1, y: y, style: theme.key)
            grid.put(DisplayWidth.pad(field.label + (field.required ? "*" : ""), to: labelWidth), x: 3, y: y, style: focused ? CellStyle(bold: true) : theme.action)
            let x = 3 + labelWidth + 1
            let boxWidth = max(0, width - x - 2)
            let valueText: String
            if field.choices.isEmpty {
                valueText = field.value + (focused ? "▏" : "")
            } else {
                valueText = field.choices.map { $0 == field.value ? "[\($0)]" : " \($0) " }.joined(separator: " ")
            }
            grid.put(DisplayWidth.pad(valueText, to: boxWidth), x: x, y: y, style: CellStyle(underline: field.choices.isEmpty))
            y += 1
            if let message = field.message {
                grid.put("! " + message, x: x, y: y, style: theme.error, maxWidth: boxWidth)
                y += 1
            }
            y += 1
        }
        return grid
    }

    /// The editor host frame: the plugin's view, a status line (title, type, latest commit) and a command bar;
    /// commands needing a selection are dim without one; Ctrl-P shows the palette of all commands.
    public static func editor(_ state: EditorState, view: any EditorViewProvider, width: Int, height: Int) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        let bodyHeight = max(0, height - 3)
        let numbered = state.items != nil
        let lines = numbered
            ? view.render(width: max(0, width - 2), height: bodyHeight, cursor: state.cursor, selection: state.selection, scroll: state.scroll)
            : view.render(width: max(0, width - 2), height: bodyHeight, selection: state.selection)
        grid.put(" " + state.title, x: 0, y: 0, style: CellStyle(bold: true))
        grid.put(state.path, x: max(0, width - DisplayWidth.width(of: state.path) - 1), y: 0, style: theme.subtitle, maxWidth: max(0, width / 2))
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
        }
        // Status line.
        let status = CellStyle(reverse: true)
        let statusY = height - 2
        if statusY >= 0 {
            grid.put(String(repeating: " ", count: width), x: 0, y: statusY, style: status)
            let commit = state.commitID.isEmpty ? "no commits yet" : "\(state.commitID.prefix(7)) \(state.commitMessage)"
            let left = " \(state.title) · \(state.contentType.identifier)"
            grid.put(left, x: 0, y: statusY, style: CellStyle(bold: true, reverse: true), maxWidth: max(0, width / 2))
            let right = DisplayWidth.truncate(commit, to: max(0, width - min(width / 2, DisplayWidth.width(of: left)) - 3))
            grid.put(right + " ", x: max(0, width - DisplayWidth.width(of: right) - 1), y: statusY, style: status)
        }
        let barY = height - 1
        if let prompt = state.prompt {
            // The one-line prompt replaces the command bar.
            let label = " \(prompt.command.title) — \(prompt.currentArgument?.name ?? ""): "
            grid.put(label, x: 0, y: barY, style: theme.key, maxWidth: width)
            grid.put(prompt.shownText + "▏", x: min(width, DisplayWidth.width(of: label)), y: barY, style: CellStyle(bold: true),
                     maxWidth: max(0, width - DisplayWidth.width(of: label)))
            if let message = state.message, barY - 1 > 0 { grid.put(" ✗ " + message, x: 0, y: barY - 1, style: theme.error, maxWidth: width) }
        } else if let message = state.message {
            grid.put(" ✗ " + message, x: 0, y: barY, style: theme.error, maxWidth: width)
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

    static func palette(_ state: EditorState, into grid: inout CellGrid) {
        let commands = state.paletteCommands
        let boxWidth = min(grid.width - 4, max(30, (commands.map { DisplayWidth.width(of: $0.title) }.max() ?? 0) + 26))
        let boxHeight = min(grid.height - 4, commands.count + 2)
        guard boxWidth > 4, boxHeight > 2 else { return }
        let x = (grid.width - boxWidth) / 2, y = max(1, (grid.height - boxHeight) / 3)
        grid.fill(Rect(x: x, y: y, width: boxWidth, height: boxHeight), with: Cell())
        grid.put("╭─ Commands " + String(repeating: "─", count: max(0, boxWidth - 13)) + "╮", x: x, y: y, style: theme.border)
        for row in 1..<(boxHeight - 1) {
            grid.put("│", x: x, y: y + row, style: theme.border)
            grid.put("│", x: x + boxWidth - 1, y: y + row, style: theme.border)
            let index = row - 1
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

    /// The history browser: commits newest first (more load as the selection nears the end), and the selected
    /// commit's diff.
    public static func history(_ state: HistoryState, title: String, width: Int, height: Int, tick: Int = 0) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        chrome(&grid, title: "History — \(title)", right: state.compareMark.map { "comparing with \($0.prefix(7))" } ?? "",
               hints: "↑↓ select · ⏎ diff · r restore · t tag · c compare · esc back")
        let listWidth = width >= 70 ? width / 2 : width
        let bottom = height - 1
        var y = 1
        if let error = state.error { grid.put(" ✗ " + error, x: 0, y: y, style: theme.error, maxWidth: listWidth); y += 1 }
        let room = max(0, bottom - y - (state.loading ? 1 : 0))
        let first = max(0, min(state.selection - room + 1, state.entries.count - room))
        for (offset, entry) in state.entries.dropFirst(first).prefix(room).enumerated() {
            let index = first + offset
            let selected = index == state.selection
            let style = selected ? theme.selected : theme.action
            grid.put(String(repeating: " ", count: max(0, listWidth - 1)), x: 0, y: y, style: style)
            grid.put(entry.compareMarkSymbol(state.compareMark), x: 0, y: y, style: theme.key)
            grid.put(entry.shortID, x: 2, y: y, style: selected ? style : CellStyle(foreground: .named(.yellow)))
            var message = entry.message
            if !entry.tags.isEmpty { message = "(" + entry.tags.joined(separator: ", ") + ") " + message }
            let dateWidth = listWidth >= 50 ? DisplayWidth.width(of: entry.date) : 0
            grid.put(message, x: 10, y: y, style: style, maxWidth: max(0, listWidth - 12 - dateWidth))
            if dateWidth > 0 { grid.put(entry.date, x: listWidth - dateWidth - 2, y: y, style: selected ? style : theme.subtitle) }
            y += 1
        }
        if state.loading, y < bottom { grid.put(" \(Spinner.frame(tick)) loading older commits…", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth) }
        else if state.exhausted, y < bottom, !state.entries.isEmpty { grid.put("   — first commit —", x: 0, y: y, style: theme.subtitle, maxWidth: listWidth) }
        if listWidth < width {
            vline(&grid, x: listWidth, from: 1, to: bottom)
            let x = listWidth + 2, paneWidth = width - x - 1
            var py = 1
            if state.entries.indices.contains(state.selection) {
                let entry = state.entries[state.selection]
                grid.put(entry.message, x: x, y: py, style: theme.title, maxWidth: paneWidth); py += 1
                grid.put("\(entry.shortID) · \(entry.author) · \(entry.date)", x: x, y: py, style: theme.subtitle, maxWidth: paneWidth); py += 2
            }
            for line in state.diff where py < bottom {
                let style: CellStyle = line.hasPrefix("+") ? theme.success : line.hasPrefix("-") ? theme.error : line.hasPrefix("@@") ? theme.key : .plain
                grid.put(line, x: x, y: py, style: style, maxWidth: paneWidth)
                py += 1
            }
        }
        return grid
    }

    /// The settings screen: author, sync mode, colors, template sources and editor associations.
    public static func settings(_ settings: Settings, path: String, width: Int, height: Int, editing: SettingsState? = nil) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        chrome(&grid, title: "Settings", right: path,
               hints: editing == nil ? "edit the file shown above · esc back" : "↑↓ field · type to edit · ←→ sync mode · ⏎ save · esc back")
        var y = 2
        if let editing {
            func field(_ label: String, _ value: String, _ which: SettingsState.Field) {
                guard y < height - 1 else { return }
                let focused = editing.focus == which
                grid.put(focused ? " ▸ " : "   ", x: 0, y: y, style: theme.key)
                grid.put(DisplayWidth.pad(label, to: 18), x: 3, y: y, style: focused ? CellStyle(bold: true) : theme.subtitle)
                grid.put(value + (focused && which != .sync ? "▏" : ""), x: 22, y: y, style: CellStyle(underline: which != .sync), maxWidth: max(0, width - 23))
                y += 1
            }
            field("Author name", editing.authorName, .authorName)
            field("Author email", editing.authorEmail, .authorEmail)
            field("Sync mode", [SyncMode.full, SyncMode.none].map { $0 == editing.sync ? "[\($0.rawValue)]" : " \($0.rawValue) " }.joined(separator: " "), .sync)
            field("Set color", editing.colorEntry.isEmpty && editing.focus != .color ? "NAME=#rrggbb" : editing.colorEntry, .color)
            field("Add source", editing.sourceEntry.isEmpty && editing.focus != .source ? "NAME URL [REF] · -NAME removes" : editing.sourceEntry, .source)
            field("Editor for type", editing.associationEntry.isEmpty && editing.focus != .association ? "CONTENT.TYPE=EDITOR" : editing.associationEntry, .association)
            if let message = editing.message, y < height - 1 { grid.put("   " + message, x: 0, y: y, style: theme.success, maxWidth: width) }
            y += 2
        }
        func section(_ title: String) { if y < height - 1 { grid.put(" " + title, x: 0, y: y, style: theme.heading) }; y += 1 }
        func row(_ key: String, _ value: String) {
            if y < height - 1 {
                grid.put("   " + DisplayWidth.pad(key, to: 18), x: 0, y: y, style: theme.subtitle)
                grid.put(value, x: 22, y: y, style: theme.action, maxWidth: max(0, width - 23))
            }
            y += 1
        }
        if editing == nil {
            section("Author")
            row("name", settings.author?.name ?? "(not set)")
            row("email", settings.author?.email ?? "(not set)")
            y += 1
            section("Sync")
            row("mode", settings.sync.rawValue)
            y += 1
        }
        section("Colors")
        if settings.colors.isEmpty { row("(defaults)", "") }
        for (key, value) in settings.colors.sorted(by: { $0.key < $1.key }) { row(key, value) }
        y += 1
        section("Template sources")
        if settings.templateSources.isEmpty { row("(none)", "") }
        for source in settings.templateSources { row(source.name, source.url + (source.ref.map { " @ \($0)" } ?? "")) }
        y += 1
        section("Editor associations")
        if settings.editorAssociations.isEmpty { row("(defaults)", "") }
        for (key, value) in settings.editorAssociations.sorted(by: { $0.key < $1.key }) { row(key, value) }
        return grid
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

extension HistoryEntry {
    func compareMarkSymbol(_ mark: String?) -> String { mark == id ? "◆" : " " }
}

/// Reading the numbered lines of a plugin view ("> 12 [x] Milk", "   3  text").
public enum ViewLines {
    /// The item number a view line shows, nil for other lines (headers, blank lines).
    public static func itemNumber(_ line: String) -> Int? {
        var scalars = Substring(line).unicodeScalars.drop { $0 == ">" || $0 == " " || $0 == "›" }
        var digits = ""
        while let first = scalars.first, ("0"..."9").contains(first) { digits.unicodeScalars.append(first); scalars = scalars.dropFirst() }
        guard !digits.isEmpty, digits.count < 10, scalars.first == " " else { return nil }
        return Int(digits)
    }

    /// The item layout of a whole view: numbered lines 1…n in order after a header; nil when there are none.
    public static func layout(_ lines: [String]) -> ItemLayout? {
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
