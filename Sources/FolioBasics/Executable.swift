import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The running program's own file, in place of `Bundle.main.executableURL` (Bundle lives in the ICU-linked layer).
public enum Executable {
    /// The executable's path as the kernel reports it (`/proc/self/exe`, symbolic links resolved); nil without /proc.
    public static var url: URL? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(fileURLWithPath: path)
    }
}
