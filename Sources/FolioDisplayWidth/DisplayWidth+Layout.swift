/// Laying text out in terminal cells: rules that fill a line exactly and text wrapped at a width. Both measure with
/// `DisplayWidth.clusters` (wide CJK and emoji two cells), never with `String.count`, so a line of wide text is as
/// wide as the screen shows it.
extension DisplayWidth {
    /// `title` followed by `fill` to exactly `width` cells: a divider such as "── 1.1 朝 — Morning 🌅 ─────". A title
    /// too long is cut (ending in "…") so that at least one `fill` cell still ends the line; a cell a wide cluster
    /// cannot use is filled too. Never wider or narrower than `width` (empty for a width of 0 or less); `fill` is one
    /// cell wide.
    public static func rule(_ title: String, width: Int, fill: Character = "─") -> String {
        guard width > 0 else { return "" }
        let head = truncate(title, to: width - 1)
        return head + String(repeating: fill, count: max(1, width - self.width(of: head)))
    }

    /// `text` broken into lines of at most `width` cells: at spaces when a word fits on a line, inside a word (between
    /// clusters) when it is wider than the line. Spaces at a break are dropped; an empty text is one empty line.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = "", lineWidth = 0
        for word in words(of: text) {
            if word.width <= width - lineWidth - (line.isEmpty ? 0 : 1) {
                if !line.isEmpty { line += " "; lineWidth += 1 }
                line += word.text; lineWidth += word.width
                continue
            }
            if !line.isEmpty { lines.append(line); line = ""; lineWidth = 0 }
            for part in clusters(word.text) {
                if lineWidth + part.width > width, !line.isEmpty { lines.append(line); line = ""; lineWidth = 0 }
                line += part.grapheme; lineWidth += part.width
            }
        }
        lines.append(line)
        // A cluster wider than the whole line (a wide character at width 1) is cut like any over-wide text.
        return lines.map { truncate($0, to: width) }
    }

    /// The runs of non-space characters of `text`, each with its width.
    private static func words(of text: String) -> [(text: String, width: Int)] {
        text.split(separator: " ", omittingEmptySubsequences: true).map { (String($0), width(of: String($0))) }
    }
}
