import FolioDisplayWidth

/// Helpers for rendering plain-text views that fit a terminal.
public enum ViewText {
    /// `text` cut to at most `width` terminal cells (the host's own width function: wide CJK and emoji are two
    /// cells), ending in "…" when cut; tabs and newlines become spaces, other control and bidi characters (a
    /// document's escape sequences must not reach the terminal) their visible escapes (`\e`, `\u{9B}`), exactly as
    /// the host shows them (`TerminalText.visible`), so a line fitted here is not cut again by the host.
    public static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        return DisplayWidth.truncate(TerminalText.visible(oneLine(text)), to: width)
    }

    /// A divider: `title` then "─" to exactly `width` cells, at any width and with wide text (`DisplayWidth.rule`);
    /// control characters are shown as `fit` shows them.
    public static func rule(_ title: String, width: Int) -> String {
        DisplayWidth.rule(TerminalText.visible(oneLine(title)), width: width)
    }

    /// `text` wrapped at `width` cells (`DisplayWidth.wrap`): whole words where they fit, long words broken between
    /// characters; control characters shown as `fit` shows them, so no wrapped line is cut again by the host.
    public static func wrap(_ text: String, width: Int) -> [String] {
        DisplayWidth.wrap(TerminalText.visible(oneLine(text)), width: width)
    }

    /// `text` with tabs and line breaks as spaces.
    private static func oneLine(_ text: String) -> String {
        String(text.map { character -> Character in character == "\t" || character.isNewline ? " " : character })
    }

    /// The number of terminal cells `text` takes, as the host measures it (for lining up columns).
    public static func width(of text: String) -> Int { DisplayWidth.width(of: text) }

    /// At most `height` of `lines`, each fitted to `width`, scrolled so that line `focus` (0-based) is visible.
    public static func window(_ lines: [String], width: Int, height: Int, focus: Int? = nil, scroll: Int = 0) -> [String] {
        guard height > 0, width > 0 else { return [] }
        return lines[visibleRange(count: lines.count, height: height, focus: focus, scroll: scroll)].map { fit($0, width: width) }
    }

    /// Which of `count` lines `window` shows: so a view of a long document builds only those lines.
    public static func visibleRange(count: Int, height: Int, focus: Int? = nil, scroll: Int = 0) -> Range<Int> {
        guard height > 0, count > 0 else { return 0..<0 }
        var start = max(0, min(scroll, max(0, count - height)))
        if let focus, focus >= 0, focus < count {
            if focus < start { start = focus }
            if focus >= start + height { start = focus - height + 1 }
        }
        return start..<min(count, start + height)
    }

    /// The number of words in `text` (runs of non-whitespace).
    public static func wordCount(_ text: some StringProtocol) -> Int {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            let space = scalar.properties.isWhitespace
            if !space && !inWord { count += 1 }
            inWord = !space
        }
        return count
    }
}
