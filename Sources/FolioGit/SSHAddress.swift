import FoundationEssentials

/// Where an ssh remote is, as git reads it: `ssh://[user@]host[:port]/path` (also `ssh+git://`, `git+ssh://`) or
/// scp-like `[user@]host:path`.
package struct SSHAddress: Sendable, Equatable {
    /// The account to log in as, if the URL names one (else ssh's own choice: `User` in ssh config, then the local user).
    package var user: String?
    /// The host as written: an ssh config `Host` alias, a name or an address (IPv6 without its brackets).
    package var host: String
    /// The port, if the URL names one (else ssh's own: `Port` in ssh config, then 22).
    package var port: Int?
    /// The repository's path on the server, as git sends it (`~user/x` kept for the server's shell to expand).
    package var path: String

    /// Why an address was refused.
    package enum Problem: Error, Equatable, Sendable {
        /// Not an ssh URL nor an scp-like address.
        case notSSH
        /// A host, user or path starting with `-` would be read by ssh as an option (git refuses these too).
        case looksLikeOption(String)
        /// No host, or no path.
        case incomplete
    }

    package init(user: String?, host: String, port: Int?, path: String) {
        (self.user, self.host, self.port, self.path) = (user, host, port, path)
    }

    /// Parses `url`; refuses what git refuses (a part that ssh would take for an option).
    package init(_ url: String) throws(Problem) {
        if let schemeEnd = url.firstRange(of: "://") {
            let scheme = url[..<schemeEnd.lowerBound].lowercased()
            guard ["ssh", "ssh+git", "git+ssh"].contains(scheme) else { throw .notSSH }
            try self.init(authorityAndPath: url[schemeEnd.upperBound...])
        } else {
            try self.init(scpLike: url[...])
        }
        for part in [user, host, path].compactMap({ $0 }) where part.hasPrefix("-") { throw .looksLikeOption(part) }
        guard !host.isEmpty, !path.isEmpty else { throw .incomplete }
    }

    private init(authorityAndPath rest: Substring) throws(Problem) {
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at].prefix { $0 != ":" }  // a password is never used
            user = String(userInfo)
            authority = authority[authority.index(after: at)...]
        }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            authority = authority[authority.index(after: close)...]
            if authority.hasPrefix(":") { port = try Self.port(authority.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = try Self.port(authority[authority.index(after: colon)...])
        } else {
            host = String(authority)
        }
        let rawPath = String(rest[slash...])
        // git: ssh://host/~user/x asks for ~user/x (the server's shell expands it).
        path = rawPath.hasPrefix("/~") ? String(rawPath.dropFirst()) : rawPath
    }

    private init(scpLike url: Substring) throws(Problem) {
        guard !url.hasPrefix("/"), let colon = Self.scpColon(url) else { throw .notSSH }
        var authority = url[..<colon]
        if let at = authority.lastIndex(of: "@") {
            user = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        if authority.hasPrefix("["), authority.hasSuffix("]") { authority = authority.dropFirst().dropLast() }
        host = String(authority)
        port = nil
        path = String(url[url.index(after: colon)...])
    }

    /// The colon ending the host of `host:path` (after a bracketed `[::1]`), nil when a `/` comes first (a local path).
    private static func scpColon(_ url: Substring) -> String.Index? {
        var inBrackets = false
        for index in url.indices {
            switch url[index] {
            case "[": inBrackets = true
            case "]": inBrackets = false
            case ":" where !inBrackets: return index
            case "/" where !inBrackets: return nil
            default: continue
            }
        }
        return nil
    }

    private static func port(_ text: Substring) throws(Problem) -> Int? {
        if text.isEmpty { return nil }
        guard let value = Int(text), (1...65535).contains(value) else { throw .incomplete }
        return value
    }

    /// `user@host`, or `host`, as ssh takes it.
    package var destination: String { user.map { "\($0)@\(host)" } ?? host }

    /// The command git runs on the server for `service` (`git-upload-pack`, `git-receive-pack`), the path quoted
    /// for the server's shell as git quotes it (`'…'`, with `'` and `!` escaped).
    package func remoteCommand(_ service: String) -> String {
        "\(service) \(Self.shellQuoted(path))"
    }

    /// git's `sq_quote`: `'a'\''b'`, `!` as `'\!'` (csh).
    package static func shellQuoted(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            switch character {
            case "'": quoted += "'\\''"
            case "!": quoted += "'\\!'"
            default: quoted.append(character)
            }
        }
        return quoted + "'"
    }
}
