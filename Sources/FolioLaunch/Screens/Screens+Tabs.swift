import FolioTerminal

extension Screens {
    /// With several documents open, the editor's title row names them all (the shown one highlighted); the tab list
    /// (^T) is a box over the screen.
    static func decorateTabs(_ grid: inout CellGrid, state: AppState) {
        guard grid.height > 2, grid.width > 4 else { return }
        if state.tabs.titles.count > 1, state.tabs.current != nil, state.currentEditor != nil, state.helpOpen == false {
            drawTabStrip(&grid, tabs: state.tabs)
        }
        if state.tabs.listOpen { drawTabList(&grid, tabs: state.tabs) }
    }

    private static func drawTabStrip(_ grid: inout CellGrid, tabs: TabBar) {
        grid.put(String(repeating: " ", count: grid.width), x: 0, y: 0)
        var x = 1
        for (index, title) in tabs.titles.enumerated() {
            let label = " \(index + 1) \(DisplayWidth.truncate(title, to: 24)) "
            let width = DisplayWidth.width(of: label)
            guard x + width < grid.width - 8 else { grid.put("… ^T", x: x, y: 0, style: theme.subtitle); return }
            grid.put(label, x: x, y: 0, style: index == tabs.current ? CellStyle(bold: true, reverse: true) : theme.subtitle)
            x += width + 1
        }
        grid.put("^T tabs", x: max(x, grid.width - 8), y: 0, style: theme.subtitle, maxWidth: 8)
    }

    private static func drawTabList(_ grid: inout CellGrid, tabs: TabBar) {
        let width = min(grid.width - 2, 60)
        let rows = min(tabs.titles.count, max(1, grid.height - 4))
        let top = max(0, min(tabs.selection - rows + 1, tabs.titles.count - rows))
        let x = max(0, (grid.width - width) / 2), y = 1
        grid.putLine(String(repeating: " ", count: 0), y: y)
        grid.put(DisplayWidth.pad(" Open documents (⏎ show · x close · n another · esc)", to: width), x: x, y: y, style: CellStyle(bold: true, reverse: true), maxWidth: width)
        for row in 0..<rows {
            let index = top + row
            let mark = index == tabs.current ? "•" : " "
            let text = DisplayWidth.pad(" \(index == tabs.selection ? "▸" : " ") \(mark) \(index + 1)  \(tabs.titles[index])", to: width)
            grid.put(text, x: x, y: y + 1 + row, style: index == tabs.selection ? theme.selected : CellStyle(reverse: true), maxWidth: width)
        }
    }
}
