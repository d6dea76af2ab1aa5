import FoundationEssentials

/// The user's git configuration for transfers, read once per transfer from the files and environment git itself
/// would read (`GitConfigFiles`: the system file, the XDG file, `~/.gitconfig` or `GIT_CONFIG_GLOBAL`, with their
/// `include.path`s; then `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`), and the environment's proxy
/// and CA variables. Immutable; every question a transfer asks of git's configuration is answered here.
///
/// A document's own `.git/config` plays no part: a cloned or shared document is untrusted input, so it can never name
/// a credential helper, an ssh command, a proxy, a CA file, or turn certificate checks off.
package struct GitUserConfig: Sendable, Equatable {
    /// One variable as git normalizes it: section and key lower-case, the subsection (a URL) as written.
    package struct Entry: Sendable, Equatable {
        package var name: String
        /// nil for a key written without `=` (git's implicit true).
        package var value: String?

        package init(name: String, value: String?) {
            self.name = name
            self.value = value
        }

        /// The section (`credential`), nil-free: the name up to its first dot.
        var section: Substring { name.prefix { $0 != "." } }
        /// The key (`helper`): the name after its last dot.
        var key: Substring { name.lastIndex(of: ".").map { name[name.index(after: $0)...] } ?? "" }
        /// The subsection (`https://example.com`), nil when the name has only a section and a key.
        var subsection: Substring? {
            guard let first = name.firstIndex(of: "."), let last = name.lastIndex(of: "."), first < last else { return nil }
            return name[name.index(after: first)..<last]
        }
    }

    /// Every variable, lowest priority first (system, XDG, global, then the environment's), each file in its order.
    package let entries: [Entry]
    /// The environment's variables that bear on transfers (proxies, CA files), by name.
    package let environment: [String: String]

    /// The environment variables read besides the config files.
    static let environmentNames = ["https_proxy", "HTTPS_PROXY", "http_proxy", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
                                   "GIT_SSL_CAINFO", "SSL_CERT_FILE", "HOME"]

    /// The home folder a config path's `~/` stands for.
    var homeForPaths: String? { environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } }

    /// A configuration of exactly these entries and environment (tests; `init(environment:)` reads the real one).
    package init(entries: [Entry], environment: [String: String] = [:]) {
        self.entries = entries
        self.environment = environment.filter { Self.environmentNames.contains($0.key) }
    }

    /// The values of `name` (normalized: `credential.helper`, `url.https://h/.insteadof`), lowest priority first.
    func values(_ name: String) -> [String?] { entries.filter { $0.name == name }.map(\.value) }

    /// The value git uses for a single-valued `name`: the last one.
    func last(_ name: String) -> String?? { entries.last { $0.name == name }.map(\.value) }

    /// `core.sshCommand`, when the user set one (the ssh transport runs it; never from a document's config).
    package var sshCommand: String? { last("core.sshcommand").flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 } }

    /// git's reading of a boolean: nil (no `=`) and yes/on/true/1 are true, no/off/false/0 and "" false; other
    /// numbers true when not zero; anything else is `fallback`.
    static func bool(_ value: String??, fallback: Bool) -> Bool {
        guard let value else { return fallback }
        guard let text = value?.lowercased() else { return true }
        if ["yes", "on", "true", "1"].contains(text) { return true }
        if ["no", "off", "false", "0", ""].contains(text) { return false }
        return Int(text).map { $0 != 0 } ?? fallback
    }
}

/// The user's git configuration could not be read: which file or variable, and why (a transfer stops with it, as git
/// would refuse to run).
public struct GitUserConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, or the environment variable (`GIT_CONFIG_COUNT`).
    public let source: String
    public let problem: String
    public var description: String { "git configuration \(source): \(problem)" }
}
