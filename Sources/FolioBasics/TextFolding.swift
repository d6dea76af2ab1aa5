import CUtf8proc
#if canImport(Glibc)
import Glibc
#endif

/// Case- and diacritic-insensitive text for comparing (utf8proc), in place of Foundation's
/// `folding(options:locale:)` (which needs ICU).
public enum TextFolding {
    /// `text` decomposed, without combining marks, case-folded and lower-cased ("Ça" → "ca"); with `widths`, also
    /// compatibility-decomposed, so full-width letters and ligatures read as their plain forms ("Ａ" → "a").
    public static func folded(_ text: String, widths: Bool = false) -> String {
        var raw = UTF8PROC_STABLE.rawValue | UTF8PROC_DECOMPOSE.rawValue | UTF8PROC_STRIPMARK.rawValue | UTF8PROC_CASEFOLD.rawValue
        if widths { raw |= UTF8PROC_COMPAT.rawValue }
        return mapped(text, raw).lowercased()
    }

    /// `text` canonically decomposed (NFD: "é" becomes "e" and a combining acute accent).
    public static func decomposed(_ text: String) -> String {
        mapped(text, UTF8PROC_STABLE.rawValue | UTF8PROC_DECOMPOSE.rawValue)
    }

    /// `text` through `utf8proc_map` with `raw` options; `text` itself when utf8proc refuses it.
    private static func mapped(_ text: String, _ raw: UInt32) -> String {
        var mapped: UnsafeMutablePointer<utf8proc_uint8_t>?
        let bytes = Array(text.utf8)
        let count = bytes.withUnsafeBufferPointer { utf8proc_map($0.baseAddress, utf8proc_ssize_t($0.count), &mapped, utf8proc_option_t(rawValue: raw)) }
        defer { free(mapped) }
        guard count >= 0, let mapped, let length = Int(exactly: count) else { return text }
        return String(decoding: UnsafeBufferPointer(start: mapped, count: length), as: UTF8.self)
    }
}
