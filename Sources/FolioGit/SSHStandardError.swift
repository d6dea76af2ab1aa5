import FoundationEssentials

/// What `ssh` writes to its standard error during a transfer, read as it comes: its last lines (text from outside —
/// the server's own messages come this way too — kept with control characters escaped, `debug1:` lines left out),
/// and what its `-v` lines and its host key messages say of the server's key.
struct SSHStandardError: Sendable {
    /// How many lines are kept, and how long each may be.
    static let keptLines = 4
    static let lineLimit = 300

    /// The last lines (not the `-v` ones), escaped.
    private(set) var lastLines: [String] = []
    /// The fingerprint of the last host key ssh was offered (`SHA256:…`), from `debug1: Server host key:`.
    private(set) var fingerprint: String?
    /// ssh refused the server's host key ("Host key verification failed."), and why.
    private(set) var hostKeyRefusal: HostKeyRefused.Reason?
    private var reason: HostKeyRefused.Reason = .unknown
    private var partial: [UInt8] = []

    /// The lines `-v` adds beside its `debug1:` ones (version, login, byte counts), left out too.
    static let verboseOnly = ["OpenSSH_", "Authenticated to ", "Transferred: sent ", "Bytes per second: "]

    /// Takes bytes as they arrive.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") { endLine() } else if partial.count < 4096 { partial.append(byte) }
        }
    }

    /// Takes the unfinished last line, if any.
    mutating func finish() { if !partial.isEmpty { endLine() } }

    private mutating func endLine() {
        var line = String(decoding: partial, as: UTF8.self)
        partial.removeAll(keepingCapacity: true)
        if line.hasSuffix("\r") { line.removeLast() }
        if Self.verboseOnly.contains(where: { line.hasPrefix($0) }) { return }
        if line.hasPrefix("debug1: ") || line.hasPrefix("debug2: ") || line.hasPrefix("debug3: ") {
            if let range = line.firstRange(of: "Server host key: ") {
                fingerprint = line[range.upperBound...].split(separator: " ").last.map(String.init)
            }
            return
        }
        if line.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") || line.contains("has changed and you have requested strict checking") {
            reason = .changed
        }
        if line.contains("REVOKED HOST KEY") || line.contains("is marked as revoked") { reason = .revoked }
        if line.hasPrefix("Host key verification failed") { hostKeyRefusal = reason }
        guard !line.isEmpty, !line.allSatisfy({ $0 == "@" }) else { return }
        lastLines.append(Self.escaped(line))
        if lastLines.count > Self.keptLines { lastLines.removeFirst() }
    }

    /// `text` with control characters as `\n`, `\t`, `\u{1b}`…, at most `lineLimit` characters.
    static func escaped(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(lineLimit) {
            switch scalar.value {
            case 0x09: shown += "\\t"
            case 0..<0x20, 0x7f..<0xa0, 0x2028, 0x2029, 0x202a...0x202e, 0x2066...0x2069:
                shown += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
