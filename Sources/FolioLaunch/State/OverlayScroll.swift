import FolioTerminal

/// The scroll keys of a read-only overlay (the help, the message log).
enum OverlayScroll {
    /// The top line shown after `key`, from `top` in an overlay whose last top line is `last`: ↑↓ j k move a line,
    /// PgUp PgDn and space a `page`, Home and End go to either end; nil for any other key, which closes the overlay.
    static func top(after key: Key, from top: Int, last: Int, page: Int) -> Int? {
        switch key {
        case .up, .character("k"): return max(0, top - 1)
        case .down, .character("j"): return min(last, top + 1)
        case .pageUp: return max(0, top - page)
        case .pageDown, .character(" "): return min(last, top + page)
        case .home: return 0
        case .end: return last
        default: return nil
        }
    }
}
