#if canImport(Glibc)
import Glibc
#endif

/// Number text as C's `printf` writes it, for the few places that used `String(format:)` (Foundation's, which needs
/// ICU for its locale); always the C locale's decimal point.
public enum NumberText {
    /// `value` with `digits` decimals (0...9), rounded as `%.Nf` rounds: `fixed(2.25, digits: 1)` is "2.2".
    /// Non-finite values read "nan", "inf" or "-inf".
    public static func fixed(_ value: Double, digits: Int) -> String {
        let precision = Int32(min(max(digits, 0), 9))
        var buffer = [CChar](repeating: 0, count: 400)  // the widest double printed with 9 decimals fits in 330
        let written = buffer.withUnsafeMutableBufferPointer { out in
            withVaList([value]) { vsnprintf(out.baseAddress, out.count, "%.\(precision)f", $0) }
        }
        guard written >= 0 else { return String(value) }
        return String(decoding: buffer.prefix(Int(min(written, Int32(buffer.count - 1)))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `value` in lower-case hexadecimal, padded with zeros to at least `width` digits (as `%0Nx`).
    public static func hex<T: BinaryInteger>(_ value: T, width: Int) -> String {
        let digits = String(value, radix: 16)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
