import FoundationEssentials
import FolioBasics
import Glibc

/// Checks an ssh server's host key against known_hosts files in OpenSSH's format.
///
/// Read, in order: the files named by `FOLIO_SSH_KNOWN_HOSTS` (colon-separated), `$HOME/.ssh/known_hosts` and
/// `/etc/ssh/ssh_known_hosts`. Lines are `[@revoked] PATTERNS KEYTYPE BASE64KEY [COMMENT]`; patterns are host names
/// (`[host]:port` for a port other than 22) with `*`/`?` wildcards and `!` negation, or hashed (`|1|salt|hash`).
/// `@cert-authority` lines are ignored (host certificates are not supported).
public struct SSHKnownHosts: Sendable {
    /// What the files say about a host and key.
    public enum Verdict: Equatable, Sendable {
        /// An entry for the host lists this key.
        case known
        /// Entries for the host exist, none with this key: a changed key or someone in between.
        case changed
        /// No entry names the host.
        case unknown
        /// The key is marked `@revoked`.
        case revoked
    }

    /// The files consulted, in order.
    public let files: [String]

    /// The files for an environment (see the type's documentation).
    public init(environment: [String: String]) {
        var files = (environment["FOLIO_SSH_KNOWN_HOSTS"] ?? "").split(separator: ":").map(String.init)
        if let home = environment["HOME"], !home.isEmpty { files.append(home + "/.ssh/known_hosts") }
        files.append("/etc/ssh/ssh_known_hosts")
        self.files = files
    }

    /// Explicit files.
    public init(files: [String]) { self.files = files }

    /// The name a host has in known_hosts: `host`, or `[host]:port` for a port other than 22.
    public static func entryName(host: String, port: Int) -> String {
        port == 22 ? host.lowercased() : "[\(host.lowercased())]:\(port)"
    }

    /// The verdict for `key` (the raw key blob, as base64-encoded in known_hosts) of `host` on `port`.
    public func verdict(host: String, port: Int, key: Data) -> Verdict {
        let name = Self.entryName(host: host, port: port)
        var hostListed = false
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
                guard let entry = Entry(line), entry.matches(name) else { continue }
                if entry.marker == "@revoked" {
                    if entry.key == key { return .revoked }
                    continue
                }
                guard entry.marker == nil else { continue }
                if entry.key == key { return .known }
                hostListed = true
            }
        }
        return hostListed ? .changed : .unknown
    }

    /// The port of an ssh remote URL: the one in `ssh://host:PORT/…` (also `ssh+git://`, `git+ssh://`), else 22.
    public static func port(ofRemoteURL url: String) -> Int {
        guard url.contains("://"), let port = URLComponents(string: url)?.port, port > 0 else { return 22 }
        return port
    }

    /// OpenSSH's fingerprint form of a SHA-256 digest: `SHA256:` and unpadded base64.
    public static func fingerprint(sha256: Data) -> String {
        "SHA256:" + sha256.base64EncodedString().replacing("=", with: "")
    }

    /// One parsed known_hosts line.
    struct Entry {
        let marker: String?
        let patterns: [Substring]
        let key: Data

        init?(_ line: Substring) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
            var fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            marker = fields.first?.hasPrefix("@") == true ? String(fields.removeFirst()) : nil
            guard fields.count >= 3, let key = Data(base64Encoded: String(fields[2])) else { return nil }
            patterns = fields[0].split(separator: ",")
            self.key = key
        }

        /// Whether the host patterns name `name`: some pattern matches and no negated one does.
        func matches(_ name: String) -> Bool {
            var matched = false
            for pattern in patterns {
                if pattern.hasPrefix("|1|") {
                    if Self.hashedPattern(pattern, matches: name) { matched = true }
                } else if pattern.hasPrefix("!") {
                    if Self.wildcard(Array(pattern.dropFirst().lowercased().utf8), matches: Array(name.utf8)) { return false }
                } else if Self.wildcard(Array(pattern.lowercased().utf8), matches: Array(name.utf8)) {
                    matched = true
                }
            }
            return matched
        }

        /// OpenSSH's host patterns: `*` is any run of characters, `?` one; everything else (`[` too) is literal.
        static func wildcard(_ pattern: [UInt8], matches name: [UInt8]) -> Bool {
            var p = 0, n = 0, star = -1, resume = 0
            while n < name.count {
                if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                    star = p; resume = n; p += 1
                } else if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == name[n] {
                    p += 1; n += 1
                } else if star >= 0 {
                    p = star + 1; resume += 1; n = resume
                } else {
                    return false
                }
            }
            while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
            return p == pattern.count
        }

        /// `|1|base64(salt)|base64(HMAC-SHA1(salt, name))`, as `ssh-keygen -H` writes.
        static func hashedPattern(_ pattern: Substring, matches name: String) -> Bool {
            let parts = pattern.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 4, let salt = Data(base64Encoded: String(parts[2])),
                  let hash = Data(base64Encoded: String(parts[3])) else { return false }
            return SHA1.hmac(key: Array(salt), message: Array(name.utf8)) == Array(hash)
        }
    }
}

/// SHA-1 and HMAC-SHA1 (RFC 3174, RFC 2104): only to match hashed known_hosts names, never for integrity.
enum SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                w[i] = padded[(chunk + 4 * i)..<(chunk + 4 * i + 4)].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for i in 16..<80 { w[i] = rotate(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch i {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let t = rotate(a, 5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, t)
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
        }
        return h.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = hash(block.map { $0 ^ 0x36 } + message)
        return hash(block.map { $0 ^ 0x5C } + inner)
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value << count | value >> (32 - count) }
}
