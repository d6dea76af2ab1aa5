import FolioCore
import FolioTerminal

extension Screens {
    /// The widest terminal that shows the tree alone (wider ones show the selected file beside it).
    static let genericSplitWidth = 100

    /// The generic document view: the file tree with sizes (and the selected file beside it when wide), or the file
    /// full-screen when it has focus on a narrow terminal; the status line says why no editor opened the document.
    /// `message` is the launcher's one-line message (a failed undo), shown when the view has none of its own.
    package static func generic(_ state: GenericViewState, message: StatusLine? = nil, width: Int, height: Int) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        let title = GenericText.sanitize(state.title)
        grid.put(" " + title, x: 0, y: 0, style: CellStyle(bold: true), maxWidth: max(0, width / 2))
        let path = GenericText.sanitize(state.path)
        grid.put(path, x: max(width / 2 + 1, width - DisplayWidth.width(of: path) - 1), y: 0, style: theme.subtitle,
                 maxWidth: max(0, width - width / 2 - 2))
        let bottom = max(1, height - 2)
        let split = width >= genericSplitWidth
        if state.focus == .file, !split, let file = state.file {
            genericFile(file, focused: true, into: &grid, x: 0, width: width, top: 1, bottom: bottom)
        } else {
            let treeWidth = split ? max(30, width * 2 / 5) : width
            genericTree(state, into: &grid, width: treeWidth, top: 1, bottom: bottom)
            if split {
                vline(&grid, x: treeWidth, from: 1, to: bottom)
                if let file = state.file {
                    genericFile(file, focused: state.focus == .file, into: &grid, x: treeWidth + 2, width: width - treeWidth - 3, top: 1, bottom: bottom)
                } else if let row = state.selectedRow, row.isFolder {
                    let count = state.entries.filter { $0.path.hasPrefix(row.path + "/") }.count
                    grid.put("\(row.name)/ · \(count) file\(count == 1 ? "" : "s") · \(GenericText.size(row.size))", x: treeWidth + 2, y: 1,
                             style: theme.subtitle, maxWidth: max(0, width - treeWidth - 3))
                }
            }
        }
        genericStatus(state, into: &grid, y: height - 2)
        // The view's own message, else the launcher's (a failure of an undo or redo run on the worker).
        genericBar(state, message: state.message ?? message, into: &grid, y: height - 1)
        return grid
    }

    /// The filter line and the tree, scrolled to `state.scroll`.
    static func genericTree(_ state: GenericViewState, into grid: inout CellGrid, width: Int, top: Int, bottom: Int) {
        let rows = state.rows
        if state.filtering || !state.filter.isEmpty {
            let files = rows.filter { !$0.isFolder }.count
            grid.put(" /", x: 0, y: top, style: theme.key)
            let used = grid.put(GenericText.sanitize(state.filter) + (state.filtering ? "▏" : ""), x: 3, y: top, style: CellStyle(bold: true),
                                maxWidth: max(0, width - 16))
            grid.put("\(files) of \(state.entries.count)", x: 3 + used + 2, y: top, style: theme.subtitle, maxWidth: max(0, width - used - 6))
        } else {
            let total = state.entries.reduce(0) { $0 + $1.size }
            grid.put(" \(state.entries.count) file\(state.entries.count == 1 ? "" : "s") · \(GenericText.size(total))", x: 0, y: top,
                     style: theme.subtitle, maxWidth: width)
        }
        var y = top + 1
        if let error = state.loadError { grid.put(" ✗ " + GenericText.sanitize(error), x: 0, y: y, style: theme.error, maxWidth: width); return }
        if rows.isEmpty, y < bottom {
            grid.put(state.filter.isEmpty ? "   No files" : "   No file matches “\(GenericText.sanitize(state.filter))”", x: 0, y: y, style: theme.subtitle, maxWidth: width)
            return
        }
        for (offset, row) in rows.dropFirst(state.scroll).prefix(max(0, bottom - y)).enumerated() {
            let selected = state.scroll + offset == state.selection
            let style = selected ? (state.focus == .tree ? theme.selected : CellStyle(reverse: true)) : theme.action
            if selected { grid.put(String(repeating: " ", count: max(0, width - 1)), x: 0, y: y, style: style) }
            let sizeText = GenericText.size(row.size)
            let indent = String(repeating: "  ", count: min(row.depth, 12))
            let marker = row.isFolder ? (state.filter.isEmpty && state.collapsed.contains(row.path) ? "▸ " : "▾ ") : "  "
            let suffix = row.isFolder ? "/" : row.kind == .executable ? "*" : row.kind == .link ? "@" : row.kind == .submodule ? " (submodule)" : ""
            let nameStyle = row.isFolder && !selected ? CellStyle(foreground: .named(.blue), bold: true) : style
            grid.put(" " + indent + marker, x: 0, y: y, style: selected ? style : theme.subtitle, maxWidth: max(0, width - 1))
            let nameX = 1 + DisplayWidth.width(of: indent + marker)
            grid.put(row.name + suffix, x: nameX, y: y, style: nameStyle, maxWidth: max(0, width - nameX - DisplayWidth.width(of: sizeText) - 3))
            grid.put(sizeText, x: max(0, width - DisplayWidth.width(of: sizeText) - 2), y: y, style: selected ? style : theme.subtitle)
            y += 1
        }
    }

    /// A file's header line (name, size, binary) and its lines from `scroll`, cut at `column` on the left; a line
    /// that goes on past the right edge ends in "›".
    static func genericFile(_ file: GenericFileView, focused: Bool, into grid: inout CellGrid, x: Int, width: Int, top: Int, bottom: Int) {
        guard width > 0 else { return }
        var header = GenericText.sanitize(file.path) + " · " + GenericText.size(file.size)
        if file.binary { header += " · binary" + (file.size > GenericFileView.hexDumpLimit ? ", first 4 KB as hex" : ", as hex") }
        if !file.lines.isEmpty, file.note == nil {
            header += " · \(min(file.lines.count, file.scroll + 1))–\(min(file.lines.count, file.scroll + max(0, bottom - top - 1)))/\(file.lines.count)"
        }
        if file.column > 0 { header += " · col \(file.column + 1)" }
        grid.put(" " + header + " ", x: x, y: top, style: focused ? theme.selected : CellStyle(bold: true), maxWidth: width)
        var y = top + 1
        if let note = file.note { grid.put(GenericText.sanitize(note), x: x, y: y, style: theme.subtitle, maxWidth: width); return }
        if file.lines.isEmpty { grid.put("(empty)", x: x, y: y, style: theme.subtitle, maxWidth: width); return }
        // A hex dump has its offsets; text gets line numbers.
        let numberWidth = file.binary ? 0 : String(file.lines.count).count
        let textX = x + numberWidth + 1
        let textWidth = max(0, width - numberWidth - 1)
        for (offset, line) in file.lines.dropFirst(file.scroll).prefix(max(0, bottom - y)).enumerated() {
            if !file.binary {
                let number = String(file.scroll + offset + 1)
                grid.put(String(repeating: " ", count: max(0, numberWidth - number.count)) + number, x: x, y: y, style: theme.subtitle)
            }
            let shown = dropColumns(line, file.column)
            if DisplayWidth.width(of: shown) > textWidth, textWidth > 1 {
                grid.put(DisplayWidth.truncate(shown, to: textWidth - 1, ellipsis: ""), x: textX, y: y, maxWidth: textWidth - 1)
                grid.put("›", x: textX + textWidth - 1, y: y, style: theme.key)
            } else {
                grid.put(shown, x: textX, y: y, maxWidth: textWidth)
            }
            y += 1
        }
    }

    /// `text` without its first `columns` cells (a wide character cut in half becomes a space).
    static func dropColumns(_ text: String, _ columns: Int) -> String {
        guard columns > 0 else { return text }
        var skipped = 0
        var out = ""
        for (grapheme, cellWidth) in DisplayWidth.clusters(text) {
            if skipped >= columns { out += grapheme; continue }
            skipped += cellWidth
            if skipped > columns { out += String(repeating: " ", count: skipped - columns) }
        }
        return out
    }

    /// The status line: the document, why it is shown here, and the newest commit.
    static func genericStatus(_ state: GenericViewState, into grid: inout CellGrid, y: Int) {
        guard y > 0 else { return }
        let width = grid.width
        grid.put(String(repeating: " ", count: width), x: 0, y: y, style: CellStyle(reverse: true))
        let left = " \(GenericText.sanitize(state.title)) · \(width >= genericSplitWidth ? "generic view: " : "")\(GenericText.sanitize(state.reason.text))"
        let used = grid.put(left, x: 0, y: y, style: CellStyle(bold: true, reverse: true), maxWidth: max(0, width * 2 / 3))
        let commit = state.commitID.isEmpty ? "no commits yet" : "\(state.commitID.prefix(7)) \(GenericText.sanitize(state.commitMessage))"
        let right = DisplayWidth.truncate(commit, to: max(0, width - used - 3))
        if !right.isEmpty { grid.put(right + " ", x: max(0, width - DisplayWidth.width(of: right) - 1), y: y, style: CellStyle(reverse: true)) }
    }

    /// The key hints, or the one-line message.
    static func genericBar(_ state: GenericViewState, message: StatusLine?, into grid: inout CellGrid, y: Int) {
        if let message {
            putMessage(GenericText.sanitize(message.shown), bottom: y, style: theme.style(message), into: &grid)  // wrapped upwards, never cut
            return
        }
        let hints: [(String, String)]
        if state.filtering {
            hints = [("type", "filter"), ("⏎", "keep"), ("esc", "clear"), ("↑↓", "select")]
        } else if state.focus == .file {
            hints = [("esc", "back"), ("e", "edit"), ("↑↓", "scroll"), ("←→", "sideways"), ("PgUp/PgDn", "page"), ("^G", "History"), ("^W", "Close")]
        } else {
            // The keys only this view has first, then the ones every screen has; what does not fit is left out.
            hints = [("e", "edit"), ("/", "filter"), ("^G", "History"), (",", "Settings"), ("^W", "Close"), ("⏎", "open"), ("^Z", "Undo"),
                     ("↑↓", "select")]
        }
        var x = 1
        for (key, label) in hints {
            let cell = DisplayWidth.width(of: key) + DisplayWidth.width(of: label) + 3
            if x + cell > grid.width { continue }
            grid.put(key, x: x, y: y, style: CellStyle(foreground: .named(.cyan), bold: true))
            grid.put(" " + label, x: x + DisplayWidth.width(of: key), y: y, style: theme.action)
            x += cell
        }
    }
}
