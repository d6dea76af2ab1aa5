/// A transfer stopped at the ssh handshake because Folio would not trust the server's host key (what known_hosts says
/// of it, `SSHKnownHosts`): no key of the user's was offered, nothing was sent or received.
public struct HostKeyRefused: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Reason: Equatable, Sendable {
        /// No known_hosts entry names the host.
        case unknown
        /// Entries name the host, none with this key: it changed, or someone is in between.
        case changed
        /// The key is marked `@revoked`.
        case revoked
        /// The ssh library gave no key to check.
        case noKey
    }

    /// What was being done ("fetch", "push", "connect").
    public let operation: String
    /// The remote's name or URL.
    public let remote: String
    /// The host as known_hosts names it (`host`, or `[host]:port`).
    public let host: String
    /// The key's SHA-256 fingerprint (`SHA256:…`), or "unavailable".
    public let fingerprint: String
    public let reason: Reason
    /// For an unknown key seen by OpenSSH's `ssh`: the command that accepts it (writes it to known_hosts), to run once
    /// its fingerprint is checked with the server's owner.
    public var acceptCommand: String? = nil

    /// What is wrong with the key, naming the host and the fingerprint.
    public var problem: String {
        switch reason {
        case .unknown: "unknown host key for \(host) (fingerprint \(fingerprint)); it is not in known_hosts"
            + (acceptCommand.map { "; once the fingerprint is checked with the server's owner, accept it with: \($0)" } ?? "")
        case .changed: "the host key for \(host) does not match known_hosts (fingerprint \(fingerprint)): it changed, or someone is in between"
        case .revoked: "the host key for \(host) is revoked in known_hosts (fingerprint \(fingerprint))"
        case .noKey: "cannot check the host key of \(host) (fingerprint \(fingerprint)): the ssh library gave no key"
        }
    }

    public var description: String { "\(remote): \(operation) failed: \(problem)" }
}
