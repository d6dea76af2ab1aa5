import FoundationEssentials

/// A URL's parts as git's `<url>` config matching compares them.
struct MatchedURL: Equatable {
    var scheme: String
    var user: String?
    var host: String
    /// The port as written, else the scheme's default (0 when it has none).
    var port: Int
    /// The path without its leading and trailing slashes.
    var path: String
    /// The host with `:port` when one was written (what git's credential protocol calls `host`).
    var authority: String

    /// Parses `scheme://[user[:password]@]host[:port][/path]`; nil for anything else (a local path, scp-like syntax).
    init?(_ url: String) {
        guard let origin = RemoteURL.origin(url), let schemeEnd = url.firstRange(of: "://") else { return nil }
        scheme = origin.scheme
        host = origin.host
        port = origin.port
        let userRange = RemoteURL.userInfoRange(url)
        user = userRange.map { String(url[$0].prefix { $0 != ":" }) }
        let authorityStart = userRange.map { url.index(after: $0.upperBound) } ?? schemeEnd.upperBound
        let rest = url[authorityStart...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        authority = String(url[authorityStart..<authorityEnd])
        let pathEnd = url[authorityEnd...].firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
        var path = url[authorityEnd..<pathEnd]
        while path.first == "/" { path = path.dropFirst() }
        while path.last == "/" { path = path.dropLast() }
        self.path = String(path)
        guard !host.isEmpty else { return nil }
    }

    /// How specifically the config subsection `pattern` matches this URL, as git's urlmatch decides it: nil for no
    /// match, else a larger number for a longer matching path (a named user adds to it). A pattern without a scheme
    /// (`credential.example.com.helper`) matches that host over any scheme.
    func specificity(of pattern: Substring) -> Int? {
        guard let wanted = MatchedURL(pattern.contains("://") ? String(pattern) : "\(scheme)://\(pattern)") else { return nil }
        guard wanted.scheme == scheme, Self.hostMatches(wanted.host, host) else { return nil }
        if pattern.contains("://") || wanted.authority.contains(":") { guard wanted.port == port else { return nil } }
        if let user = wanted.user { guard user == self.user else { return nil } }
        guard wanted.path.isEmpty || path == wanted.path || path.hasPrefix(wanted.path + "/") else { return nil }
        return (wanted.path.isEmpty ? 0 : wanted.path.count + 1) * 2 + (wanted.user == nil ? 0 : 1)
    }

    /// Whether `pattern`'s host (labels of `*` match any one label) names `host`.
    static func hostMatches(_ pattern: String, _ host: String) -> Bool {
        let want = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let have = host.split(separator: ".", omittingEmptySubsequences: false)
        guard want.count == have.count else { return false }
        return zip(want, have).allSatisfy { $0 == "*" || $0 == $1 }
    }
}

extension GitUserConfig {
    /// The value git uses for `section.<url>.key` or `section.key` with `url`: the most specific matching subsection
    /// (a longer path, then a named user), later entries winning ties; `section.key` itself least specific. nil when
    /// none is set.
    func matched(_ section: String, _ key: String, url: String) -> String?? {
        let parsed = MatchedURL(url)
        var best: (score: Int, value: String?)?
        for entry in entries where entry.section == section && entry.key == key {
            let score: Int?
            if let subsection = entry.subsection { score = parsed?.specificity(of: subsection) } else { score = -1 }
            guard let score, score >= (best?.score ?? Int.min) else { continue }
            best = (score, entry.value)
        }
        return best.map(\.value)
    }

    /// Every value of `section.key` and of every `section.<url>.key` matching `url`, in config order (git applies
    /// credential settings this way: each matching entry in turn).
    func allMatched(_ section: String, _ key: String, url: String) -> [String?] {
        let parsed = MatchedURL(url)
        return entries.filter { entry in
            guard entry.section == section, entry.key == key else { return false }
            guard let subsection = entry.subsection else { return true }
            return parsed?.specificity(of: subsection) != nil
        }.map(\.value)
    }
}
