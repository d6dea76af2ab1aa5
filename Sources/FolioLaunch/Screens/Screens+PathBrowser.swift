import FolioCore
import FolioTerminal

extension Screens {
    /// The Open… form's list under its path field: the completions (Tab cycles) or the documents in the folder typed
    /// (↑↓ ⏎), in columns when they do not fit one a line, scrolled to the selected one; or its note.
    static func drawPathBrowser(_ browser: PathBrowser, into grid: inout CellGrid, from top: Int, x: Int) {
        let bottom = grid.height - 1
        let width = max(0, grid.width - x - 1)
        guard top < bottom, width > 4 else { return }
        if let note = browser.note {
            grid.put(note, x: x, y: top, style: theme.subtitle, maxWidth: width)
            return
        }
        let heading = browser.intent == .open
            ? "Documents in \(browser.folder) — ↑↓ choose, ⏎ opens" : "\(browser.entries.count) names (◆ a document) — Tab next, ⏎ opens"
        grid.put(heading, x: x, y: top, style: theme.heading, maxWidth: width)
        let rows = bottom - top - 1
        guard rows > 0 else { return }
        let labels = browser.entries.map { $0.name + ($0.kind == .folder ? "/" : $0.kind == .document ? "  ◆" : "") }
        let cell = min(width, (labels.map { DisplayWidth.width(of: $0) }.max() ?? 0) + 4)
        let columns = max(1, min(width / max(1, cell), (labels.count + rows - 1) / rows))
        let perPage = rows * columns
        let first = ((browser.selection ?? 0) / perPage) * perPage
        for (offset, label) in labels.enumerated().dropFirst(first).prefix(perPage) {
            let slot = offset - first
            let selected = offset == browser.selection
            let text = (selected ? "▸ " : "  ") + DisplayWidth.truncate(label, to: max(0, cell - 3))
            grid.put(text, x: x + (slot / rows) * cell, y: top + 1 + slot % rows, style: selected ? theme.selected : theme.action)
        }
    }
}
