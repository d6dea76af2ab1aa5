/// Text from outside (commit messages, file names, template and plugin strings, errors quoting them) made safe to
/// show on a terminal: the one function every human-readable output of the CLI and every screen cell goes through.
///
/// Nothing that could drive the terminal survives: each control character is written as a visible escape instead,
/// so the text reads the same and keeps its length order, but an escape sequence (CSI, OSC 52 clipboard writes,
/// title changes), a bell, a carriage return that overwrites the line or a bidi override that reorders it is shown,
/// not obeyed. Ordinary text — accents, CJK, emoji sequences (ZWJ is kept), combining marks — is unchanged.
///
/// Forms: `\t` `\n` `\r` and `\e` (ESC); every other C0 control and DEL as `\xNN` (a byte); C1 controls, the bidi
/// controls (U+061C, U+200E/F, U+202A–202E, U+2066–2069) and the line/paragraph separators U+2028/9 as `\u{NNNN}`
/// (a scalar); with `visible(utf8:)`, each byte of an invalid UTF-8 sequence as `\xNN`. A backslash itself is left as
/// it is: the escapes make control characters visible, they are not meant to be read back.
/// `--json` output never goes through this: it keeps the exact text, JSON-escaped.
public enum TerminalText {
    /// `text` with every control character shown as an escape. `keepingLines` keeps newline and tab as they are, for
    /// multi-line bodies (a commit message, a diff, an error with hint lines); one-line fields (a name, a summary, a
    /// list entry) leave it off, so that a newline cannot split or forge a line.
    public static func visible<S: StringProtocol>(_ text: S, keepingLines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isEscaped($0, keepingLines: keepingLines) }) else { return String(text) }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isEscaped(scalar, keepingLines: keepingLines) { shown.append(contentsOf: escape(scalar).unicodeScalars) } else { shown.append(scalar) }
        }
        return String(shown)
    }

    /// `visible(_:keepingLines:)` for raw bytes, which may not be valid UTF-8: each byte of an invalid sequence is
    /// shown as `\xNN` (never repaired into U+FFFD, so what was there stays visible).
    public static func visible<Bytes: Collection<UInt8>>(utf8 bytes: Bytes, keepingLines: Bool = false) -> String {
        var shown = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var rest = bytes[...]
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if isEscaped(scalar, keepingLines: keepingLines) { shown.append(contentsOf: escape(scalar).unicodeScalars) } else { shown.append(scalar) }
                rest = rest.dropFirst(encoded.count)
            case let .error(length):
                for byte in rest.prefix(length) { shown.append(contentsOf: hex(byte).unicodeScalars) }
                rest = rest.dropFirst(length)
            case .emptyInput:
                return String(shown)
            }
        }
    }

    /// Whether `scalar` is shown as an escape: C0 controls (but newline and tab when `keepingLines`), DEL, C1
    /// controls, bidi controls and the line and paragraph separators.
    public static func isEscaped(_ scalar: Unicode.Scalar, keepingLines: Bool = false) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return !keepingLines
        case 0..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Whether `scalar` is a control character (C0, DEL or C1): what input cleaners drop outright.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The visible form of one escaped scalar.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0..<0x20, 0x7F: return hex(UInt8(scalar.value))
        default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// `\xNN`, two uppercase hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "\\x" + (digits.count == 1 ? "0" + digits : digits)
    }
}

extension StringProtocol {
    /// This text as one line for a terminal: every control character, newline and tab included, shown as an escape
    /// (`TerminalText.visible(_:)`). For names, summaries, ids and paths quoted in human-readable output.
    public var shownAsText: String { TerminalText.visible(self) }
}
