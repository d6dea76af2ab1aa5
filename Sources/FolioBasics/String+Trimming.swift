/// A set of Unicode scalars to trim, standing in for Foundation's `CharacterSet` (which lives with ICU).
public struct ScalarSet: Sendable {
    private let contains: @Sendable (Unicode.Scalar) -> Bool

    /// Scalars for which `test` is true.
    public init(_ test: @escaping @Sendable (Unicode.Scalar) -> Bool) { contains = test }

    /// Exactly the scalars of `characters`.
    public init(charactersIn characters: String) {
        let members = Set(characters.unicodeScalars)
        contains = { members.contains($0) }
    }

    /// Spaces and tabs: the Unicode space separators (Zs) and U+0009, as `CharacterSet.whitespaces`.
    public static let whitespaces = ScalarSet { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }

    /// `whitespaces`, the line and paragraph separators (Zl, Zp), U+000A–U+000D and U+0085, as
    /// `CharacterSet.whitespacesAndNewlines`.
    public static let whitespacesAndNewlines = ScalarSet { scalar in
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
        default: return ("\t"..."\r").contains(scalar) || scalar == "\u{85}"
        }
    }

    /// Whether `scalar` is in the set.
    public func contains(_ scalar: Unicode.Scalar) -> Bool { contains(scalar) }
}

extension String {
    /// The text without the leading and trailing scalars in `set` (as Foundation's `trimmingCharacters(in:)`).
    /// Inlinable and written for `String` and `Substring`, not `StringProtocol`: the generic form instantiated its
    /// slice types at run time on first use, a noticeable share of a short command (`folio log`'s HEAD check).
    @inlinable
    public func trimming(_ set: ScalarSet) -> String { self[...].trimming(set) }
}

extension Substring {
    /// The text without the leading and trailing scalars in `set` (as Foundation's `trimmingCharacters(in:)`).
    @inlinable
    public func trimming(_ set: ScalarSet) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }),
              let last = scalars.lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(scalars[first...last])
    }
}

extension String {
    /// The text cut or space-padded to exactly `length` UTF-16 units, as Foundation's
    /// `padding(toLength:withPad: " ", startingAt: 0)` (column layouts of ASCII-width text).
    public func padded(toLength length: Int) -> String {
        let units = utf16.count
        if units >= length { return String(decoding: Array(utf16.prefix(max(0, length))), as: UTF16.self) }
        return self + String(repeating: " ", count: length - units)
    }
}
