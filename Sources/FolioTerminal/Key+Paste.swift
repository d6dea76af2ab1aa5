/// Text the terminal pasted: cleaned of control characters (other than newline and tab), line ends as `\n`.
public struct PastedText: Hashable, Sendable {
    /// The pasted text.
    public var text: String
    /// Whether the paste was longer than `KeyDecoder.pasteLimit` bytes (the rest was dropped) or never ended.
    public var truncated: Bool
    public init(_ text: String, truncated: Bool = false) { self.text = text; self.truncated = truncated }

    /// Cleans raw pasted bytes: UTF-8 with invalid sequences replaced, CR LF and CR turned into LF, every other
    /// control character (C0 but `\n` and `\t`, DEL, C1) removed — so escape sequences inside a paste stay text.
    public static func cleaned(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var previousCR = false
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let value = scalar.value
            defer { previousCR = value == 0x0D }
            if value == 0x0D { scalars.append("\n"); continue }
            if value == 0x0A { if !previousCR { scalars.append("\n") }; continue }
            if value == 0x09 || !TerminalText.isControl(scalar) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}

extension KeyDecoder {
    /// The most bytes one paste keeps (1 MiB); the rest is dropped and the paste marked truncated.
    public static let pasteLimit = 1 << 20
    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    static func hasPrefix(_ marker: [UInt8], _ bytes: [UInt8], at index: Int) -> Bool {
        guard index + marker.count <= bytes.count else { return false }
        for offset in marker.indices where bytes[index + offset] != marker[offset] { return false }
        return true
    }

    /// How many bytes at the end of `bytes` (from `index`) could be the start of the end marker, to keep for the next read.
    static func heldBack(_ bytes: [UInt8], from index: Int) -> Int {
        let available = bytes.count - index
        for length in stride(from: min(pasteEnd.count - 1, available), to: 0, by: -1) {
            let start = bytes.count - length
            if (0..<length).allSatisfy({ bytes[start + $0] == pasteEnd[$0] }) { return length }
        }
        return 0
    }

    /// In a paste: when the end marker is in `pending` from `index`, the finished paste and the bytes used; else
    /// collects what surely belongs to the paste (all but a possible start of the marker) and returns nil.
    mutating func takePaste(from index: Int) -> (PastedText, Int)? {
        var end = index
        while end + Self.pasteEnd.count <= pending.count {
            if pending[end] == 0x1B, Self.hasPrefix(Self.pasteEnd, pending, at: end) {
                collectPaste(pending[index..<end])
                return (finishPaste(), end - index + Self.pasteEnd.count)
            }
            end += 1
        }
        collectPaste(pending[index..<(pending.count - Self.heldBack(pending, from: index))])
        return nil
    }

    /// Adds paste bytes, keeping at most `pasteLimit`.
    mutating func collectPaste(_ bytes: ArraySlice<UInt8>) {
        guard var collected = pasteBytes else { return }
        pasteBytes = nil
        let room = Self.pasteLimit - collected.count
        if bytes.count > room { pasteTruncated = true }
        collected += bytes.prefix(max(0, room))
        pasteBytes = collected
    }

    /// The paste collected so far as text; leaves paste mode.
    mutating func finishPaste() -> PastedText {
        var bytes = pasteBytes ?? []
        pasteBytes = nil
        if pasteTruncated { bytes.removeLast(Self.incompleteTail(bytes)) }
        return PastedText(PastedText.cleaned(bytes), truncated: pasteTruncated)
    }

    /// The length of a UTF-8 sequence cut off at the end of `bytes` (0 when the last character is whole).
    static func incompleteTail(_ bytes: [UInt8]) -> Int {
        for back in 1...min(3, max(1, bytes.count)) where back <= bytes.count {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? back : 0
        }
        return 0
    }
}
