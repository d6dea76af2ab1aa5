import FolioPluginWire
import FoundationEssentials
import Glibc

/// Reading a plugin's own log (`plugin-logs/ID.log`), which each host appends its standard error to after a header
/// line `--- folio-plugin-host PID loaded ID VERSION at TIME`: what one host's plugin wrote, for a crash message.
enum PluginHostLog {
    /// How much of the log's end is read.
    static let tailBytes = 64 * 1024
    /// How many lines are kept.
    static let lines = 10

    /// The last `lines` lines the host `pid` wrote to `log` (after its header, before the next host's), each as text fit
    /// to show (control characters as escapes, at most 200 characters); empty when the log has none of it.
    static func lastLines(of pid: pid_t, in log: URL) -> [String] {
        let fd = open(log.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return [] }
        let start = max(0, Int(info.st_size) - tailBytes)
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) - start)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        guard count > 0 else { return [] }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self)
        let header = "--- folio-plugin-host \(pid) loaded "
        var kept: [Substring] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("--- folio-plugin-host ") {
                inside = line.hasPrefix(header)
                if inside { kept = [] }
                continue
            }
            // The host's own lines (a refused call, logged as it happens) are not the plugin's words.
            if inside, !line.hasPrefix("folio-plugin-host: ") { kept.append(line) }
        }
        return kept.suffix(lines).map { PluginText.viewLine(String($0), width: 200) }
    }
}
