import FolioTerminal

extension Screens {
    /// With several documents open (or the launcher shown over open ones), the title row of every screen names them
    /// all, the shown one highlighted; the tab list (^T) is a bordered box over the screen.
    static func decorateTabs(_ grid: inout CellGrid, state: AppState) {
        guard grid.height > 2, grid.width > 4 else { return }
        let tabs = state.tabs
        if tabs.titles.count > 1 || (tabs.current == nil && !tabs.titles.isEmpty) {
            drawTabStrip(&grid, tabs: tabs)
        }
        if tabs.listOpen { drawTabList(&grid, tabs: tabs) }
    }

    /// The hint at the strip's right end.
    static let tabStripHint = "^T tabs"

    /// The strip's labels (" 2 Story "), each title cut to fit the row: at most 24 cells, less when they would not
    /// all fit (never under 3).
    static func tabLabels(_ titles: [String], room: Int) -> [String] {
        let natural = titles.enumerated().map { " \($0.offset + 1) \(DisplayWidth.truncate($0.element, to: 24)) " }
        if natural.reduce(0, { $0 + DisplayWidth.width(of: $1) + 1 }) <= room { return natural }
        let budget = max(3, room / max(1, titles.count) - 5)
        return titles.enumerated().map { " \($0.offset + 1) \(DisplayWidth.truncate($0.element, to: budget)) " }
    }

    /// The first label drawn: 0, or later so that the shown one fits (a long row of tabs scrolls with it).
    static func firstTab(_ labels: [String], current: Int?, room: Int) -> Int {
        guard let current, labels.indices.contains(current) else { return 0 }
        var first = 0
        while first < current, labels[first...current].reduce(0, { $0 + DisplayWidth.width(of: $1) + 1 }) + 2 > room { first += 1 }
        return first
    }

    private static func drawTabStrip(_ grid: inout CellGrid, tabs: TabBar) {
        grid.put(String(repeating: " ", count: grid.width), x: 0, y: 0)
        let hint = grid.width >= 40 ? tabStripHint : "^T"
        let room = max(0, grid.width - DisplayWidth.width(of: hint) - 3)
        let labels = tabLabels(tabs.titles, room: room)
        let first = firstTab(labels, current: tabs.current, room: room)
        var x = 1
        if first > 0 { grid.put("‹", x: 0, y: 0, style: theme.subtitle) }
        for index in labels.indices.dropFirst(first) {
            let width = DisplayWidth.width(of: labels[index])
            guard x + width <= room else { grid.put("…", x: x, y: 0, style: theme.subtitle); break }
            grid.put(labels[index], x: x, y: 0, style: index == tabs.current ? CellStyle(bold: true, reverse: true) : theme.subtitle)
            x += width + 1
        }
        grid.put(hint, x: grid.width - DisplayWidth.width(of: hint) - 1, y: 0, style: theme.subtitle)
    }

    private static func drawTabList(_ grid: inout CellGrid, tabs: TabBar) {
        let width = min(grid.width - 2, 64)
        let rows = min(tabs.titles.count, max(1, grid.height - 4))
        guard width > 12, grid.height >= rows + 3 else { return }
        let top = max(0, min(tabs.selection - rows + 1, tabs.titles.count - rows))
        let x = max(0, (grid.width - width) / 2), y = 1
        grid.fill(Rect(x: x, y: y, width: width, height: rows + 2), with: Cell())
        let title = "╭─ Open documents "
        grid.put(title + String(repeating: "─", count: max(0, width - DisplayWidth.width(of: title) - 1)) + "╮", x: x, y: y, style: theme.border)
        for row in 0..<rows {
            let index = top + row
            let mark = index == tabs.current ? "•" : " "
            let text = DisplayWidth.pad(" \(index == tabs.selection ? "▸" : " ") \(mark) \(index + 1)  \(tabs.titles[index])", to: width - 2)
            grid.put("│", x: x, y: y + 1 + row, style: theme.border)
            grid.put(text, x: x + 1, y: y + 1 + row, style: index == tabs.selection ? theme.selected : .plain, maxWidth: width - 2)
            grid.put("│", x: x + width - 1, y: y + 1 + row, style: theme.border)
        }
        let keys = width >= 56 ? " ⏎ show · 1…9 · x close · n another · esc " : width >= 30 ? " ⏎ · 1…9 · x · n · esc " : ""
        let rule = max(0, width - 2 - DisplayWidth.width(of: keys))
        grid.put("╰" + String(repeating: "─", count: rule) + keys + "╯", x: x, y: y + rows + 1, style: theme.border, maxWidth: width)
    }
}
