import FolioTerminal

extension Screens {
    /// The rows of log lines the overlay has on a screen `height` rows high.
    static func messageLogRows(height: Int) -> Int { max(1, height - 4) }

    /// The overlay's width on a screen `width` columns wide.
    static func messageLogBoxWidth(width: Int) -> Int { max(0, min(width - 2, 110)) }

    /// One row of the log: text, whether it begins an entry (then `time` is its clock), whether it is an error.
    struct MessageLogLine: Equatable { var time: String?; var text: String; var error: Bool }

    /// The log's entries, oldest first, each wrapped to the overlay's width with its time before its first row.
    static func messageLogLines(_ log: MessageLog, width: Int) -> [MessageLogLine] {
        let textWidth = max(1, messageLogBoxWidth(width: width) - 13)
        guard !log.entries.isEmpty else { return [MessageLogLine(time: nil, text: "No messages yet.", error: false)] }
        return log.entries.flatMap { entry in
            HistoryLayout.wrapWords(entry.text, width: textWidth).enumerated().map { index, row in
                MessageLogLine(time: index == 0 ? log.clock(entry) : nil, text: row, error: entry.line.isFailure)
            }
        }
    }

    /// The message log overlay: a box over the screen with every kept message in full (wrapped), from `scroll`
    /// (clamped: `Int.max` shows the newest), with the position when they do not all fit.
    package static func messageLog(_ log: MessageLog, scroll: Int, into grid: inout CellGrid) {
        let lines = messageLogLines(log, width: grid.width)
        let boxWidth = messageLogBoxWidth(width: grid.width)
        let rows = min(messageLogRows(height: grid.height), lines.count)
        let boxHeight = rows + 2
        guard boxWidth > 16, rows > 0, boxHeight <= grid.height else { return }
        let x = (grid.width - boxWidth) / 2, y = max(0, (grid.height - boxHeight) / 2)
        let first = max(0, min(scroll, lines.count - rows))
        grid.fill(Rect(x: x, y: y, width: boxWidth, height: boxHeight), with: Cell())
        let title = "╭─ Messages (\(log.entries.count)) "
        let position = lines.count > rows ? " \(first + 1)–\(first + rows) of \(lines.count) ↑↓ " : ""
        let rule = max(0, boxWidth - DisplayWidth.width(of: title) - DisplayWidth.width(of: position) - 1)
        grid.put(title + String(repeating: "─", count: rule) + position + "╮", x: x, y: y, style: theme.border, maxWidth: boxWidth)
        for (offset, line) in lines.dropFirst(first).prefix(rows).enumerated() {
            let row = y + 1 + offset
            grid.put("│", x: x, y: row, style: theme.border)
            grid.put("│", x: x + boxWidth - 1, y: row, style: theme.border)
            if let time = line.time { grid.put(time, x: x + 2, y: row, style: theme.subtitle) }
            grid.put(line.text, x: x + (line.time == nil && log.entries.isEmpty ? 2 : 11), y: row,
                     style: line.error ? theme.error : theme.action, maxWidth: max(0, boxWidth - 13))
        }
        let close = " esc closes "
        grid.put("╰" + String(repeating: "─", count: max(0, boxWidth - 2 - DisplayWidth.width(of: close))) + close + "╯",
                 x: x, y: y + boxHeight - 1, style: theme.border)
    }
}

extension Screens {
    /// Draws a message wrapped (never cut) in whole rows ending at row `bottom`, growing upwards over what is there,
    /// at most a third of the screen; a message longer still ends with how to read all of it. Returns the rows used.
    @discardableResult
    static func putMessage(_ text: String, bottom: Int, style: CellStyle, into grid: inout CellGrid) -> Int {
        guard bottom >= 0, bottom < grid.height, grid.width > 1 else { return 0 }
        let room = max(1, min(bottom + 1, grid.height / 3))
        var rows = HistoryLayout.wrapWords(text, width: grid.width - 2)
        if rows.count > room {
            let more = " … M: all of it"
            rows = Array(rows.prefix(room))
            rows[room - 1] = DisplayWidth.truncate(rows[room - 1], to: max(1, grid.width - 2 - DisplayWidth.width(of: more)), ellipsis: "") + more
        }
        for (index, row) in rows.enumerated() { grid.putLine(" " + row, y: bottom - rows.count + 1 + index, style: style) }
        return rows.count
    }
}
