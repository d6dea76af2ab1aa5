import FoundationEssentials

/// Where a credential may go: the one place that decides it, for every transfer.
///
/// - Credentials of any kind go only to the server (scheme, host and port) the transfer was asked for, never to
///   another one a redirect leads to.
/// - `FOLIO_GIT_TOKEN` (and `FOLIO_GIT_PASSWORD`) names no host, so it goes only over https, or over plain http to a
///   host listed in `FOLIO_GIT_HTTP_TOKEN_HOSTS` (comma-separated: the user's own choice to send it unencrypted).
/// - A `.netrc` entry names its host, so it goes to that host only (`Netrc.credentials(host:)`).
public enum CredentialScope {
    /// Whether `asking` (the URL libgit2 wants credentials for) is the same server as `remote`, the URL asked for.
    public static func sameServer(_ asking: String, _ remote: String) -> Bool {
        guard let a = RemoteURL.origin(asking), let b = RemoteURL.origin(remote) else { return asking.isEmpty || RemoteURL.origin(remote) == nil }
        return a.scheme == b.scheme && a.host == b.host && a.port == b.port
    }

    /// Whether the host-less token may be sent to `url`.
    public static func allowsToken(to url: String, environment: [String: String]) -> Bool {
        guard let origin = RemoteURL.origin(url) else { return false }
        if origin.scheme == "https" { return true }
        guard origin.scheme == "http" else { return false }
        let allowed = (environment["FOLIO_GIT_HTTP_TOKEN_HOSTS"] ?? "").split(separator: ",").map { $0.filter { $0 != " " }.lowercased() }
        return allowed.contains(origin.host) || allowed.contains("\(origin.host):\(origin.port)")
    }
}

/// A transfer that needed credentials Folio would not send or could not find, or that the server refused; in Folio's
/// words, naming where Folio looked: the user's credential helpers, `FOLIO_GIT_TOKEN`, `.netrc`. URLs are shown
/// redacted.
public struct CredentialRefused: Error, CustomStringConvertible, Sendable, Equatable {
    /// Where a login came from.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        /// A credential helper of the user's git config, by name (`store`, `/usr/bin/helper`).
        case helper(String)
        /// `FOLIO_GIT_TOKEN` or `FOLIO_GIT_PASSWORD`.
        case token
        /// The `.netrc` file.
        case netrc

        public var description: String {
            switch self {
            case let .helper(name): return "credential helper '\(name)'"
            case .token: return "FOLIO_GIT_TOKEN"
            case .netrc: return ".netrc"
            }
        }
    }

    public enum Reason: Sendable, Equatable {
        /// A redirect led from `from` to another server; nothing was sent there.
        case redirected(from: String)
        /// The server asked for a login and none was found (`tokenWithheld`: the token was there but not sent over http).
        case noneFound(tokenWithheld: Bool)
        /// The server refused the login Folio sent, from `from` (a helper's login is then erased from the helpers).
        case refused(from: Source)
    }
    public let url: String
    public let reason: Reason
    /// The credential helpers Folio asked, by name.
    public var helpers: [String] = []
    /// What went wrong with a helper, if anything (its own words quoted).
    public var helperNotes: [String] = []

    public init(url: String, reason: Reason) {
        self.url = url
        self.reason = reason
    }

    public var description: String {
        let shown = RemoteURL.redacted(url)
        let notes = helperNotes.isEmpty ? "" : " (" + helperNotes.joined(separator: "; ") + ")"
        switch reason {
        case let .redirected(from):
            return "\(RemoteURL.redacted(from)) redirected to \(shown), another server: no credentials were sent there"
        case let .noneFound(withheld):
            let token = withheld ? "FOLIO_GIT_TOKEN is set but is not sent over plain http to this host (FOLIO_GIT_HTTP_TOKEN_HOSTS allows it)"
                : "no FOLIO_GIT_TOKEN"
            let asked = helpers.isEmpty ? "" : helpers.map { "credential helper '\($0)'" }.joined(separator: ", ") + " gave none, "
            return "\(shown) asks for a login and Folio found none: \(asked)\(token), no matching entry in .netrc\(notes)"
        case let .refused(source):
            let erased = if case .helper = source { " (Folio asked the credential helpers to erase it)" } else { "" }
            return "\(shown) refused the login from \(source)\(erased)\(notes)"
        }
    }
}
