import FolioTerminal

extension AppState {
    /// The one-line hint for a key that does nothing where it was pressed (nil for keys that are not worth one:
    /// arrows, function keys, a paste). Some keys other programs use get the key that does it here.
    static func unboundKeyHint(_ key: Key, on place: UnboundKeyPlace) -> String? {
        switch (key, place) {
        case (.character("u"), .editor): return "undo is ^Z (redo ^Y)"
        case (.character("q"), .editor): return "q does nothing here: ^W closes the document, ^Q quits"
        case (.ctrl("c"), _): return "^C does nothing here: ^Q quits"
        case (.ctrl("p"), .history): return "no command palette in History: esc goes back to the editor, ^P there"
        case (.ctrl("w"), .history): return "^W closes the document from the editor: esc goes back to it first"
        case (.ctrl("p"), .files): return "no command palette in the file view: ? lists its keys"
        case let (.character(c), _) where !c.isWhitespace: return "\(c) does nothing here: ? lists the keys" + (place == .editor ? ", ^P the commands" : "")
        case let (.ctrl(c), _): return "^\(String(c).uppercased()) does nothing here: ? lists the keys" + (place == .editor ? ", ^P the commands" : "")
        default: return nil
        }
    }
}

/// Where an unbound key was pressed, for its hint.
enum UnboundKeyPlace: Equatable, Sendable { case editor, history, files }
