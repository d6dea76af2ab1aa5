import CUtf8proc

/// Terminal display widths computed from utf8proc (not libc wcwidth): wide CJK and emoji are 2 cells, combining marks 0.
public enum DisplayWidth {
    /// The grapheme clusters of `text` by utf8proc's rules, each with its display width.
    public static func clusters(_ text: String) -> [(grapheme: String, width: Int)] {
        var result: [(String, Int)] = []
        var current = String.UnicodeScalarView()
        var previous: Int32 = -1
        var state: Int32 = 0
        for scalar in text.unicodeScalars {
            let code = Int32(bitPattern: scalar.value)
            if previous >= 0, utf8proc_grapheme_break_stateful(previous, code, &state) {
                result.append((String(current), clusterWidth(current)))
                current = String.UnicodeScalarView()
            }
            current.append(scalar)
            previous = code
        }
        if !current.isEmpty { result.append((String(current), clusterWidth(current))) }
        return result
    }

    /// The number of terminal cells `text` occupies as drawn (control characters as their visible escapes).
    public static func width(of text: String) -> Int {
        clusters(text).reduce(0) { $0 + $1.width }
    }

    /// The width of one scalar: 0 for combining marks and controls, 2 for wide, otherwise 1.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        return max(0, Int(utf8proc_charwidth(Int32(bitPattern: value))))
    }

    /// `text` cut to at most `maxWidth` cells, never splitting a cluster; `ellipsis` marks a cut when it fits.
    public static func truncate(_ text: String, to maxWidth: Int, ellipsis: String = "…") -> String {
        guard maxWidth > 0 else { return "" }
        let parts = clusters(text)
        let total = parts.reduce(0) { $0 + $1.width }
        if total <= maxWidth { return text }
        let ellipsisWidth = width(of: ellipsis)
        let budget = ellipsisWidth <= maxWidth ? maxWidth - ellipsisWidth : maxWidth
        var out = ""
        var used = 0
        for part in parts {
            if used + part.width > budget { break }
            out += part.grapheme
            used += part.width
        }
        return ellipsisWidth <= maxWidth ? out + ellipsis : out
    }

    /// `text` padded with spaces (or truncated) to exactly `width` cells.
    public static func pad(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - self.width(of: cut)))
    }

    /// The cells one cluster takes as drawn. A control or bidi character (a cluster of its own) is drawn as its
    /// visible escape (`TerminalText.visible`, as `CellGrid.put` does), so it takes the escape's width: text measured
    /// or cut before it is drawn lines up with what the screen shows.
    static func clusterWidth(_ scalars: String.UnicodeScalarView) -> Int {
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { TerminalText.isEscaped($0) }) { return TerminalText.visible(String(scalars)).utf8.count }
        var width = self.width(of: first)
        var regionalIndicators = 0
        for scalar in scalars {
            // Emoji presentation selector and regional-indicator pairs (flags) draw two cells wide.
            if scalar.value == 0xFE0F, width == 1 { width = 2 }
            if (0x1F1E6...0x1F1FF).contains(scalar.value) { regionalIndicators += 1 }
        }
        if regionalIndicators >= 2 { width = 2 }
        if width == 0 {
            // A cluster that starts with a combining mark (no base) still takes the width of what follows.
            width = scalars.dropFirst().map { self.width(of: $0) }.max() ?? 0
        }
        return width
    }
}
