/// A location Folio fetches from or pushes to, as a user types it or a file holds it (a document's remote, a template
/// source): a URL (`scheme://rest`), whose scheme must be one Folio's git transports speak, or anything else (a path,
/// `user@host:path`). One list of schemes for every place that checks such a location.
public enum RemoteLocation {
    /// The URL schemes Folio fetches from and pushes to.
    public static let schemes = ["https", "http", "ssh", "git", "file"]

    /// `location`'s scheme (lower-cased) and what follows `://`; nil when it is not a URL.
    public static func urlParts(_ location: String) -> (scheme: String, rest: Substring)? {
        guard let separator = location.firstRange(of: "://") else { return nil }
        return (location[..<separator.lowerBound].lowercased(), location[separator.upperBound...])
    }

    /// Why `scheme` is refused, nil when Folio's transports speak it.
    public static func schemeProblem(_ scheme: String) -> String? {
        schemes.contains(scheme) ? nil : "'\(scheme)' is not a supported scheme (\(schemes.joined(separator: ", ")))"
    }
}
