import CGit2
import FoundationEssentials
import Glibc

/// The git config files an environment names, as the git CLI finds them: the system file (unless
/// `GIT_CONFIG_NOSYSTEM`; `GIT_CONFIG_SYSTEM` replaces it), the XDG file and `~/.gitconfig` (both replaced by
/// `GIT_CONFIG_GLOBAL`).
///
/// Reading through these explicitly, instead of through libgit2's config search paths, lets two environments in one
/// process (an embedding program, tests) each read their own config: the search paths are process-wide and are set
/// only once (`GitLibrary.configureConfigSearch`).
public struct GitConfigFiles: Sendable, Equatable {
    /// The system file, if any.
    public var system: String?
    /// The XDG file (`$XDG_CONFIG_HOME/git/config`), if any.
    public var xdg: String?
    /// The user's file (`~/.gitconfig` or `GIT_CONFIG_GLOBAL`), if any.
    public var global: String?

    public init(environment: [String: String]) {
        let nonEmpty: (String?) -> String? = { $0.flatMap { $0.isEmpty ? nil : $0 } }
        let noSystem = environment["GIT_CONFIG_NOSYSTEM"].map { ["1", "true", "yes", "on"].contains($0.lowercased()) } ?? false
        system = noSystem ? nil : nonEmpty(environment["GIT_CONFIG_SYSTEM"]) ?? "/etc/gitconfig"
        if let global = environment["GIT_CONFIG_GLOBAL"] {
            self.global = nonEmpty(global)
            xdg = nil
        } else {
            let home = nonEmpty(environment["HOME"])
            global = home.map { $0 + "/.gitconfig" }
            xdg = nonEmpty(environment["XDG_CONFIG_HOME"]).map { $0 + "/git/config" } ?? home.map { $0 + "/.config/git/config" }
        }
    }
}

extension Repository {
    /// A string from this repository's own config and the files `files` names (the repository's file wins, then
    /// `~/.gitconfig`, the XDG file, the system file), nil when unset or unreadable. libgit2's process-wide search
    /// paths play no part.
    public func configString(_ key: String, files: GitConfigFiles) -> String? {
        var config: OpaquePointer?
        guard (try? check(git_config_new(&config), "open config", displayPath)) != nil, let config else { return nil }
        defer { git_config_free(config) }
        let levels: [(String?, git_config_level_t)] = [(files.system, GIT_CONFIG_LEVEL_SYSTEM), (files.xdg, GIT_CONFIG_LEVEL_XDG),
                                                       (files.global, GIT_CONFIG_LEVEL_GLOBAL), (gitDirectoryPath + "config", GIT_CONFIG_LEVEL_LOCAL)]
        for case let (path?, level) in levels {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            // An unreadable or broken file is skipped, as a missing one (the caller falls back to other sources).
            _ = try? check(git_config_add_file_ondisk(config, path, level, pointer, 0), "read config", path)
        }
        // Strings can be borrowed only from a snapshot.
        var snapshot: OpaquePointer?
        guard (try? check(git_config_snapshot(&snapshot, config), "read config", displayPath)) != nil, let snapshot else { return nil }
        defer { git_config_free(snapshot) }
        var value: UnsafePointer<CChar>?
        guard git_config_get_string(&value, snapshot, key) == 0, let value else { return nil }
        return String(cString: value)
    }
}
