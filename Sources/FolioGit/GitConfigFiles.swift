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
        guard let config = try? GitConfigHandle.empty() else { return nil }
        let levels: [(String?, git_config_level_t)] = [(files.system, GIT_CONFIG_LEVEL_SYSTEM), (files.xdg, GIT_CONFIG_LEVEL_XDG),
                                                       (files.global, GIT_CONFIG_LEVEL_GLOBAL), (gitDirectoryPath + "config", GIT_CONFIG_LEVEL_LOCAL)]
        for case let (path?, level) in levels {
            // An unreadable or broken file is skipped, as a missing one (the caller falls back to other sources).
            try? config.add(file: path, level: level, repository: pointer)
        }
        return (try? config.string(key)) ?? nil
    }
}
