import FolioCore
import FolioTerminal

extension Screens {
    /// One row of the settings screen.
    enum SettingsRow: Equatable {
        case field(SettingsState.Field)
        case problem(SettingsState.Field, String)
        case note(StatusLine)
        /// A dim line explaining the field above it.
        case help(String)
        case blank
        case section(String)
        case item(String, String, failed: Bool)
        /// Color names, each drawn in its color.
        case swatches([String])
        /// How the check of the source being added went (nil: still checking).
        case sourceCheck(String, failed: Bool?)
        /// A further row of the wrapped problem or check above it (failed: in the error colour).
        case continued(String, failed: Bool?)
    }

    /// The label column of the settings fields.
    static let settingsLabelWidth = 18
    /// The cells a settings text field has.
    static func settingsFieldWidth(columns: Int) -> Int { max(1, columns - settingsLabelWidth - 5) }

    /// The rows of the editable fields (each followed by its problem when it has one) and the screen's note.
    /// A problem or a source check wraps to the screen's `width` (up to three rows), never cut short.
    static func settingsFieldRows(_ editing: SettingsState, width: Int = Int.max / 2) -> [SettingsRow] {
        var rows: [SettingsRow] = []
        // The text wrapped to the room after "   ✗ ": its first row as `first`, the others as continued rows.
        func wrapping(_ text: String, failed: Bool?, first: (String) -> SettingsRow) -> [SettingsRow] {
            let lines = DisplayWidth.wrap(text, width: max(8, width - 7))
            guard let head = lines.first else { return [first(text)] }
            var tail = Array(lines.dropFirst().prefix(2))
            if lines.count > 3, let last = tail.popLast() { tail.append(last + " …") }
            return [first(head)] + tail.map { .continued($0, failed: failed) }
        }
        for field in SettingsState.Field.allCases {
            rows.append(.field(field))
            if let problem = editing.problems[field] { rows += wrapping(problem, failed: true) { .problem(field, $0) } }
            if field == .sync { rows += durabilityHelp.map(SettingsRow.help) }
            if field == .color, editing.focus == .color || editing.problems[.color] != nil {
                rows += wrapped(ColorSlots.names, width: 48).enumerated().map { .help(($0.offset == 0 ? "parts: " : "       ") + $0.element) }
                rows += colorNameRows.map(SettingsRow.swatches)
            }
            if field == .source, let check = editing.sourceCheck, check.state != .unchecked,
               check.entry == editing.sourceEntry.trimming(.whitespaces) {
                if case let .sourceCheck(text, failed) = sourceCheckRow(check) {
                    rows += wrapping(text, failed: failed) { .sourceCheck($0, failed: failed) }
                }
            }
        }
        if let message = editing.message { rows.append(.note(message)) }
        return rows
    }

    /// The color names in rows of at most 54 cells ("■ name" each), for the list under the color field.
    static var colorNameRows: [[String]] {
        var rows: [[String]] = [[]]
        var used = 0
        for name in ColorSlots.colorNames {
            let cells = DisplayWidth.width(of: name) + 3
            if used + cells > 54, !(rows.last ?? []).isEmpty { rows.append([]); used = 0 }
            rows[rows.count - 1].append(name)
            used += cells
        }
        return rows
    }

    /// `words` joined with spaces in lines of at most `width` cells.
    static func wrapped(_ words: [String], width: Int) -> [String] {
        var lines: [String] = []
        for word in words {
            if let last = lines.last, DisplayWidth.width(of: last) + 1 + DisplayWidth.width(of: word) <= width { lines[lines.count - 1] += " " + word }
            else { lines.append(word) }
        }
        return lines
    }

    static func sourceCheckRow(_ check: SourceCheck) -> SettingsRow {
        switch check.state {
        case .checking: return .sourceCheck("checking \(check.name) (\(check.url))…", failed: nil)
        case let .found(what): return .sourceCheck("\(check.name): a template repository, \(what)", failed: false)
        case let .failed(why): return .sourceCheck("\(check.name): \(why)", failed: true)
        }
    }

    /// The rows the settings screen has below the title bar, before the footer.
    static func settingsRows(height: Int) -> Int { max(1, height - 3) }

    /// The first row shown: the stored scroll, moved just enough to show the focused field and its problem.
    static func settingsScroll(_ editing: SettingsState, height: Int, width: Int = Int.max / 2) -> Int {
        let rows = settingsFieldRows(editing, width: width)
        let room = settingsRows(height: height)
        guard let at = rows.firstIndex(of: .field(editing.focus)) else { return 0 }
        let last = rows.indices.contains(at + 1) && { if case .problem = rows[at + 1] { return true } else { return false } }() ? at + 1 : at
        var scroll = min(max(0, editing.scroll), at)
        if last >= scroll + room { scroll = last - room + 1 }
        return max(0, scroll)
    }

    /// The settings screen: the editable fields (with their problems) when `editing`, then colors, template sources
    /// (a source that failed to load says why and how to remove it) and editor associations; scrolled to keep the
    /// focused field shown.
    package static func settings(_ settings: Settings, path: String, width: Int, height: Int, editing: SettingsState? = nil,
                                sources: [TemplateSourceStatus] = []) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        var rows: [SettingsRow] = []
        if let editing {
            rows = settingsFieldRows(editing, width: width) + [.blank]
        } else {
            rows += [.section("Author"), .item("name", settings.author?.name ?? "(not set)", failed: false),
                     .item("email", settings.author?.email ?? "(not set)", failed: false), .blank,
                     .section("Durability"), .item("level", settings.sync.rawValue, failed: false)] + durabilityHelp.map(SettingsRow.help) + [.blank,
                     .section("Sharing"), .item("sync interval", settings.syncInterval.map { "\(Int(exactly: $0).map(String.init) ?? String($0)) s" } ?? "30 s (default)", failed: false), .blank]
        }
        rows.append(.section("Colors"))
        if settings.colors.isEmpty { rows.append(.item("(defaults)", "", failed: false)) }
        rows += settings.colors.sorted(by: { $0.key < $1.key }).map { .item($0.key, $0.value, failed: false) }
        rows += [.blank, .section("Template sources")]
        if settings.templateSources.isEmpty { rows.append(.item("(none)", "", failed: false)) }
        for source in settings.templateSources {
            rows.append(.item(source.name, source.url + (source.ref.map { " @ \($0)" } ?? ""), failed: false))
            if let status = sources.first(where: { $0.name == source.name }), case let .failed(reason) = status.state {
                rows.append(.item("", "✗ \(reason) — Add source: -\(source.name) removes it", failed: true))
            }
        }
        rows += [.blank, .section("Editor associations")]
        if settings.editorAssociations.isEmpty { rows.append(.item("(defaults)", "", failed: false)) }
        rows += settings.editorAssociations.sorted(by: { $0.key < $1.key }).map { .item($0.key, $0.value, failed: false) }

        let room = settingsRows(height: height)
        let scroll = editing.map { settingsScroll($0, height: height, width: width) } ?? 0
        let more = (scroll > 0 ? " ↑" : "") + (rows.count - scroll > room ? " ↓" : "")
        chrome(&grid, title: "Settings" + (more.isEmpty ? "" : " ·" + more + " more"), right: path,
               hints: editing == nil ? "edit the file shown above · esc back" : "↑↓ field · type to edit · ⏎ save · esc back · F1 help")
        for (offset, row) in rows.dropFirst(scroll).prefix(room).enumerated() {
            drawSettingsRow(row, into: &grid, y: 2 + offset, width: width, editing: editing)
        }
        return grid
    }

    static func drawSettingsRow(_ row: SettingsRow, into grid: inout CellGrid, y: Int, width: Int, editing: SettingsState?) {
        let valueX = settingsLabelWidth + 4
        switch row {
        case let .field(which):
            guard let editing else { return }
            let focused = editing.focus == which
            grid.put(focused ? " ▸ " : "   ", x: 0, y: y, style: theme.key)
            grid.put(DisplayWidth.pad(settingsLabel(which), to: settingsLabelWidth), x: 3, y: y, style: focused ? CellStyle(bold: true) : theme.subtitle)
            let boxWidth = settingsFieldWidth(columns: width)
            if which == .sync {
                let text = [SyncMode.full, SyncMode.none].map { $0 == editing.sync ? "[\($0.rawValue)]" : " \($0.rawValue) " }.joined(separator: " ")
                grid.put(text, x: valueX, y: y, maxWidth: boxWidth)
            } else if !focused, editing.text(which).isEmpty {
                grid.put(DisplayWidth.pad(settingsPlaceholder(which), to: boxWidth), x: valueX, y: y, style: CellStyle(dim: true, underline: true))
            } else {
                (editing.inputs[which] ?? TextField()).draw(into: &grid, x: valueX, y: y, width: boxWidth, style: CellStyle(underline: true), focused: focused)
            }
        case let .problem(_, text): grid.put("✗ " + text, x: 3, y: y, style: theme.error, maxWidth: max(0, width - 4))
        case let .help(text): grid.put(text, x: 3, y: y, style: CellStyle(dim: true), maxWidth: max(0, width - 4))
        case let .note(line): grid.put("   " + line.shown, x: 0, y: y, style: theme.style(line), maxWidth: width)
        case .blank: break
        case let .section(title): grid.put(" " + title, x: 0, y: y, style: theme.heading, maxWidth: width)
        case let .swatches(names):
            var x = 5
            for name in names {
                let color = TerminalColor(parsing: name) ?? .default
                grid.put("■", x: x, y: y, style: CellStyle(foreground: color))
                grid.put(name, x: x + 2, y: y, style: CellStyle(dim: true), maxWidth: max(0, width - x - 3))
                x += DisplayWidth.width(of: name) + 3
            }
        case let .sourceCheck(text, failed):
            let mark = failed == nil ? "… " : failed == true ? "✗ " : "✓ "
            grid.put(mark + text, x: 3, y: y, style: failed == true ? theme.error : failed == false ? theme.success : CellStyle(dim: true),
                     maxWidth: max(0, width - 4))
        case let .continued(text, failed):
            grid.put("  " + text, x: 3, y: y, style: failed == true ? theme.error : failed == false ? theme.success : CellStyle(dim: true),
                     maxWidth: max(0, width - 4))
        case let .item(key, value, failed):
            grid.put("   " + DisplayWidth.pad(key, to: settingsLabelWidth), x: 0, y: y, style: theme.subtitle)
            grid.put(value, x: valueX, y: y, style: failed ? theme.error : theme.action, maxWidth: max(0, width - valueX - 1))
        }
    }

    static func settingsLabel(_ field: SettingsState.Field) -> String {
        switch field {
        case .authorName: "Author name"
        case .authorEmail: "Author email"
        case .sync: "Durability"
        case .syncInterval: "Sync interval"
        case .color: "Set color"
        case .source: "Add source"
        case .association: "Editor for type"
        }
    }

    /// What the durability setting (`Settings.sync`, about flushing to disk, not about sharing) means.
    static let durabilityHelp = ["full: every change is flushed to disk before it counts (safe on power loss)",
                                 "none: faster, safe against crashes but not power loss"]

    static func settingsPlaceholder(_ field: SettingsState.Field) -> String {
        switch field {
        case .color: "PART=COLOR, such as key=cyan"
        case .source: "NAME URL [REF] · -NAME removes"
        case .association: "CONTENT.TYPE=EDITOR"
        case .syncInterval: "30 (seconds between looks at a shared document's remote)"
        default: ""
        }
    }
}
