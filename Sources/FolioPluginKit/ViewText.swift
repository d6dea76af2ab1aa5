/// Helpers for rendering plain-text views that fit a terminal.
public enum ViewText {
    /// `text` cut to at most `width` characters, ending in "…" when cut; tabs and newlines become spaces, other control
    /// characters (C0, DEL, C1: a document's escape sequences must not reach the terminal) U+FFFD.
    public static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        let clean = String(text.map { character -> Character in
            if character == "\t" || character.isNewline { return " " }
            return character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } ? "\u{FFFD}" : character
        })
        if cells(clean) <= width { return clean }
        var kept = "", used = 0
        for character in clean {
            let wide = cells(character)
            if used + wide > width - 1 { break }
            kept.append(character)
            used += wide
        }
        return kept + "…"
    }

    /// Terminal cells of `text`, erring wide: each scalar counts 0 (a combining mark or format character), 2 (East Asian
    /// wide or full-width, emoji presentation) or 1.
    public static func cells(_ text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + cells($1) }
    }

    private static func cells(_ character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + cells($1) }
    }

    private static func cells(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        let wide: [ClosedRange<UInt32>] = [0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
                                           0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
                                           0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD]
        return wide.contains { $0.contains(scalar.value) } ? 2 : 1
    }

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
