/// A decoded key press.
public enum Key: Hashable, Sendable {
    case up, down, left, right, home, end, pageUp, pageDown, delete
    /// Shift with an arrow (`ESC [1;2A`…): the editor host pans a view with them.
    case shiftUp, shiftDown, shiftLeft, shiftRight
    /// F1 (help).
    case f1
    case enter, escape, tab, backTab, backspace
    /// Ctrl with a letter, lowercased (`.ctrl("q")` for Ctrl-Q).
    case ctrl(Character)
    /// A printable character (any UTF-8 grapheme).
    case character(Character)
    /// Text the terminal pasted (bracketed paste): text, never commands.
    case paste(PastedText)
}

/// Turns terminal input bytes into keys. A lone Esc stays pending until more bytes arrive or `flush()` is called
/// after a short timeout, which tells the Esc key from the start of an escape sequence.
public struct KeyDecoder: Sendable {
    var pending: [UInt8] = []
    /// The raw bytes of a paste whose end marker has not arrived yet (nil when not in a paste).
    var pasteBytes: [UInt8]?
    var pasteTruncated = false

    /// How long to wait after a lone Esc byte before deciding it was the Esc key.
    public static let escapeTimeoutMilliseconds: Int32 = 40

    public init() {}

    /// Whether bytes are held back waiting for the rest of a key sequence (call `flush()` if none come). A paste
    /// waiting for its end marker does not count: see `isPasting`.
    public var hasPending: Bool { !pending.isEmpty && pasteBytes == nil }

    /// Whether a paste has started and its end marker has not arrived yet.
    public var isPasting: Bool { pasteBytes != nil }

    /// Decodes `bytes` (appended to any pending ones) into keys; an incomplete sequence at the end stays pending, and
    /// so does a paste until its end marker (`ESC[201~`) arrives, however many reads it spans.
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            if pasteBytes != nil {
                guard let (paste, length) = takePaste(from: index) else { index = pending.count - Self.heldBack(pending, from: index); break }
                keys.append(.paste(paste))
                index += length
                continue
            }
            if Self.hasPrefix(Self.pasteStart, pending, at: index) {
                pasteBytes = []
                pasteTruncated = false
                index += Self.pasteStart.count
                continue
            }
            guard let (key, length) = Self.decodeOne(pending, at: index, final: false) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// Ends a paste whose end marker never came (the terminal went quiet): what arrived, marked truncated.
    public mutating func abandonPaste() -> [Key] {
        guard pasteBytes != nil else { return [] }
        collectPaste(pending[...])
        pending.removeAll()
        pasteTruncated = true
        return [.paste(finishPaste())]
    }

    /// Decodes whatever is pending as complete (a lone Esc becomes `.escape`). A paste in progress stays pending.
    public mutating func flush() -> [Key] {
        guard pasteBytes == nil else { return [] }
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.decodeOne(pending, at: index, final: true) else { break }
            if let key { keys.append(key) }
            index += max(1, length)
        }
        pending.removeAll()
        return keys
    }

    /// One key at `index`: (key or nil to skip, bytes used), or nil when more bytes are needed.
    static func decodeOne(_ bytes: [UInt8], at index: Int, final: Bool) -> (Key?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            guard index + 1 < bytes.count else { return final ? (.escape, 1) : nil }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                // CSI: parameter bytes 0x20…0x3F then a final byte; SS3: the final byte at once.
                var end = index + 2
                if next == UInt8(ascii: "[") {
                    while end < bytes.count, (0x20...0x3F).contains(bytes[end]) {
                        end += 1
                        if end - index > 16 { return (nil, end - index) }
                    }
                }
                guard end < bytes.count else { return final ? (.escape, 1) : nil }
                let params = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                return (csiKey(final: bytes[end], params: params), end - index + 1)
            }
            if next == 0x1B { return (.escape, 1) }
            // Alt+key: report the key itself.
            return decodeOne(bytes, at: index + 1, final: final).map { ($0.0, $0.1 + 1) }
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x00: return (nil, 1)
        case 0x01...0x1A: return (.ctrl(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x1C...0x1F: return (nil, 1)
        case 0x20...0x7E: return (.character(Character(Unicode.Scalar(byte))), 1)
        default:
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            if length == 1 { return (nil, 1) }
            guard index + length <= bytes.count else { return final ? (nil, bytes.count - index) : nil }
            let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
            guard let character = text.first, text != "\u{FFFD}" else { return (nil, length) }
            return (.character(character), length)
        }
    }

    static func csiKey(final: UInt8, params: String) -> Key? {
        if params == "1;2", let shifted = [UInt8(ascii: "A"): Key.shiftUp, UInt8(ascii: "B"): .shiftDown, UInt8(ascii: "C"): .shiftRight,
                                           UInt8(ascii: "D"): .shiftLeft][final] {
            return shifted
        }
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "P"): return params.isEmpty || params.hasPrefix("1;") ? .f1 : nil
        case UInt8(ascii: "~"):
            switch params.split(separator: ";").first ?? "" {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            case "11": return .f1
            default: return nil
            }
        default: return nil
        }
    }
}
