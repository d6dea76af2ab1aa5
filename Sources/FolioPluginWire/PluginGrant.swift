/// What a plugin host grants its plugin beyond nothing: the permissions the user agreed to when installing it
/// (`PluginPermissions` in FolioPlugins), resolved to what the kernel is told: TCP ports it may connect to and absolute
/// paths it may read. Sent with the load request as text, one `network PORT` or `read PATH` line each; the one
/// description both sides of the boundary use.
public struct PluginGrant: Sendable, Equatable {
    /// TCP ports the plugin may connect to (on any address).
    public var connectPorts: [UInt16]
    /// Absolute paths (files or folders) the plugin may read (a folder: everything beneath it).
    public var readablePaths: [String]

    /// A grant; by default nothing.
    public init(connectPorts: [UInt16] = [], readablePaths: [String] = []) {
        self.connectPorts = connectPorts
        self.readablePaths = readablePaths
    }

    /// Whether nothing is granted.
    public var isEmpty: Bool { connectPorts.isEmpty && readablePaths.isEmpty }

    /// The most lines a grant may hold (a manifest declares at most 16 ports and 16 paths).
    public static let maxLines = 32

    /// The wire text: `network 5432\nread /usr/share/dict\n`.
    public var encoded: [UInt8] {
        let lines = connectPorts.map { "network \($0)\n" } + readablePaths.map { "read \($0)\n" }
        return Array(lines.joined().utf8)
    }

    /// The grant in `bytes`, nil when they are not one (a line of another kind, a port out of range, a path not
    /// absolute or holding a control character, too many lines).
    public init?(decoding bytes: [UInt8]) {
        var ports: [UInt16] = [], paths: [String] = []
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        guard lines.count <= Self.maxLines else { return nil }
        for line in lines {
            guard let text = String(validating: line, as: UTF8.self) else { return nil }
            if text.hasPrefix("network "), let port = UInt16(text.dropFirst(8)), port > 0 {
                ports.append(port)
            } else if text.hasPrefix("read /"), text.utf8.count <= 1029,
                      !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                paths.append(String(text.dropFirst(5)))
            } else {
                return nil
            }
        }
        self.init(connectPorts: ports, readablePaths: paths)
    }
}
