import FolioCore
import FolioDisplayWidth
import FolioPluginWire
import FoundationEssentials

/// What a plugin asks for beyond nothing, declared in its manifest (`"permissions"`; a project declares it in
/// `folio-pack.json` and `plugins pack` copies it into the manifest): TCP ports it connects to and paths it reads.
/// Nothing else can be asked for in this version. `plugins install` shows a declaration and asks; the lock records what
/// was granted; the host grants exactly that (`grant(home:)`), and only where the kernel can hold the plugin to it.
///
///     "permissions": {"network": [5432], "read": ["/usr/share/dict", "~/.config/example"]}
public struct PluginPermissions: Codable, Sendable, Equatable {
    /// TCP ports the plugin connects to (on any address), 1–65535, each once.
    public var network: [Int]
    /// Paths it reads: absolute, or `~/…` for the user's home; a folder grants everything beneath it.
    public var read: [String]

    enum CodingKeys: String, CodingKey, CaseIterable { case network, read }

    /// The most ports and the most paths one plugin may declare.
    public static let maxEntries = 16
    /// The longest path a plugin may declare, in bytes.
    public static let maxPathBytes = 1024

    /// A declaration; by default nothing.
    public init(network: [Int] = [], read: [String] = []) {
        self.network = network
        self.read = read
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        network = try c.decodeIfPresent([Int].self, forKey: .network) ?? []
        read = try c.decodeIfPresent([String].self, forKey: .read) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !network.isEmpty { try c.encode(network, forKey: .network) }
        if !read.isEmpty { try c.encode(read, forKey: .read) }
    }

    /// Nothing asked for.
    public static let none = PluginPermissions()

    /// Whether nothing is asked for.
    public var isEmpty: Bool { network.isEmpty && read.isEmpty }

    /// The first problem with the declaration, nil when it is one Folio grants.
    public var problem: String? {
        if network.count > Self.maxEntries { return "'permissions.network' names more than \(Self.maxEntries) ports" }
        if read.count > Self.maxEntries { return "'permissions.read' names more than \(Self.maxEntries) paths" }
        if let port = network.first(where: { !(1...65535).contains($0) }) { return "'permissions.network': \(port) is not a TCP port (1-65535)" }
        if Set(network).count != network.count { return "'permissions.network' names a port twice" }
        for path in read {
            if let problem = Self.pathProblem(path) { return "'permissions.read': '\(path.shownAsText)' \(problem)" }
        }
        if Set(read).count != read.count { return "'permissions.read' names a path twice" }
        return nil
    }

    private static func pathProblem(_ path: String) -> String? {
        guard path.hasPrefix("/") || path.hasPrefix("~/") else { return "is neither absolute nor in the home folder (~/…)" }
        guard path.utf8.count <= maxPathBytes else { return "is longer than \(maxPathBytes) bytes" }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return "holds a control character" }
        let components = path.split(separator: "/").dropFirst(path.hasPrefix("~/") ? 1 : 0)
        guard !components.contains(where: { $0 == "." || $0 == ".." }) else { return "has a '.' or '..' component" }
        return nil
    }

    /// Whether everything asked for here is in `granted`.
    public func isCovered(by granted: PluginPermissions) -> Bool {
        Set(network).isSubset(of: granted.network) && Set(read).isSubset(of: granted.read)
    }

    /// What is asked for here and not in `granted`.
    public func beyond(_ granted: PluginPermissions) -> PluginPermissions {
        PluginPermissions(network: network.filter { !granted.network.contains($0) }, read: read.filter { !granted.read.contains($0) })
    }

    /// What both ask for: what a plugin may have when the user granted `granted` and its manifest now declares this.
    public func intersection(_ granted: PluginPermissions) -> PluginPermissions {
        PluginPermissions(network: network.filter { granted.network.contains($0) }, read: read.filter { granted.read.contains($0) })
    }

    /// One line per permission, in the user's words: "connect to TCP port 5432", "read /usr/share/dict".
    public var lines: [String] {
        network.map { "connect to TCP port \($0)" } + read.map { "read \($0.shownAsText)" }
    }

    /// The lines joined: "connect to TCP port 5432; read /usr/share/dict" ("nothing" when empty).
    public var summary: String { isEmpty ? "nothing" : lines.joined(separator: "; ") }

    /// What the host is told: `~/` expanded with `home` (a path under a home Folio does not know is left out).
    public func grant(home: String?) -> PluginGrant {
        let paths = read.compactMap { path -> String? in
            guard path.hasPrefix("~/") else { return path }
            guard let home, home.hasPrefix("/") else { return nil }
            return (home.hasSuffix("/") ? String(home.dropLast()) : home) + path.dropFirst(1)
        }
        return PluginGrant(connectPorts: network.compactMap { UInt16(exactly: $0) }, readablePaths: paths)
    }
}

/// A plugin that asks for permissions, shown to the user before it is installed or linked: what it declares, and what
/// of that was not granted before (all of it on a first install; what an upgrade adds).
public struct PluginPermissionRequest: Sendable, Equatable {
    public let id: String
    public let version: String
    public let declared: PluginPermissions
    /// What an earlier install of the plugin was granted (nil: none was installed).
    public let previouslyGranted: PluginPermissions?

    /// What the user is asked for now.
    public var asked: PluginPermissions { declared.beyond(previouslyGranted ?? .none) }
}

/// Whether the user grants a plugin what it asks for (`plugins install` asks, or a flag answers for scripts).
public typealias PluginPermissionConsent = (PluginPermissionRequest) -> Bool

/// An install or link the user did not grant the permissions of: nothing was installed.
public struct PluginPermissionsNotGranted: Error, CustomStringConvertible, Sendable, Equatable {
    public let request: PluginPermissionRequest
    public var description: String {
        let more = request.previouslyGranted == nil ? "asks for" : "asks for more than it was granted before"
        return "\(request.id.shownAsText) \(request.version.shownAsText) \(more): \(request.asked.summary); not granted, nothing installed"
    }
}
