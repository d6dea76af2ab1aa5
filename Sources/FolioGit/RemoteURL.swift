import FoundationEssentials

/// The user information of a remote URL (`https://user:secret@host/…`), which may be a secret: one place decides
/// where it is and how a URL is shown without it.
public enum RemoteURL {
    /// The range of `url`'s user information (before `@` in the authority of a URL with a scheme), nil when it has none.
    static func userInfoRange(_ url: String) -> Range<String.Index>? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let authorityStart = scheme.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return nil }
        return authorityStart..<at
    }

    /// Whether `url` holds a password (`user:password@`), which Folio never stores or shows.
    public static func holdsPassword(_ url: String) -> Bool {
        guard let range = userInfoRange(url) else { return false }
        return url[range].contains(":")
    }

    /// `url` as Folio shows it: over http(s) and other schemes the user information (a user name may be a token too)
    /// replaced by `***`; over ssh, where the user part names an account (`git@`), only a password after it.
    public static func redacted(_ url: String) -> String {
        guard let range = userInfoRange(url) else { return url }
        var shown = url
        let scheme = url[..<(url.firstRange(of: "://")?.lowerBound ?? url.startIndex)].lowercased()
        if ["ssh", "git+ssh", "ssh+git"].contains(scheme) {
            guard let colon = url[range].firstIndex(of: ":") else { return url }
            shown.replaceSubrange(colon..<range.upperBound, with: ":***")
            return shown
        }
        shown.replaceSubrange(range, with: "***")
        return shown
    }

    /// The scheme, host and port of a URL with a scheme (the port as written, or the scheme's default), lowercased;
    /// nil for a local path or an scp-like `user@host:path`.
    public static func origin(_ url: String) -> (scheme: String, host: String, port: Int)? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let authorityStart = userInfoRange(url).map { url.index(after: $0.upperBound) } ?? schemeEnd.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        var hostPort = url[authorityStart..<authorityEnd]
        var port: Int?
        if let colon = hostPort.lastIndex(of: ":"), !hostPort[colon...].contains("]") {
            port = Int(hostPort[hostPort.index(after: colon)...])
            hostPort = hostPort[..<colon]
        }
        let defaults = ["https": 443, "http": 80, "ssh": 22, "git": 9418]
        return (scheme, hostPort.lowercased(), port ?? defaults[scheme] ?? 0)
    }

    /// `edited` (a URL the user edited from its redacted form) with `original`'s user information back where it still
    /// reads `***`; `edited` as it is otherwise.
    public static func restoringRedaction(_ edited: String, original: String) -> String {
        guard let range = userInfoRange(edited), edited[range] == "***", let originalRange = userInfoRange(original) else { return edited }
        var restored = edited
        restored.replaceSubrange(range, with: original[originalRange])
        return restored
    }
}
