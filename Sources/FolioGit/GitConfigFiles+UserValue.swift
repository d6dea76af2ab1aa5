import CGit2
import Glibc

extension GitConfigFiles {
    /// A string from these files only (the user's file wins over the XDG file, then the system file), never from a
    /// repository's own `.git/config`: for settings that run programs (`core.sshCommand`), which a document's
    /// config (untrusted: it may come from anyone the document is shared with) must not set. Nil when unset or unreadable.
    package func userString(_ key: String) -> String? {
        GitLibrary.ensureInitialized()
        var config: OpaquePointer?
        guard (try? check(git_config_new(&config), "open config")) != nil, let config else { return nil }
        defer { git_config_free(config) }
        for case let (path?, level) in [(system, GIT_CONFIG_LEVEL_SYSTEM), (xdg, GIT_CONFIG_LEVEL_XDG), (global, GIT_CONFIG_LEVEL_GLOBAL)] {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            // An unreadable or broken file is skipped, as a missing one.
            _ = try? check(git_config_add_file_ondisk(config, path, level, nil, 0), "read config", path)
        }
        var snapshot: OpaquePointer?
        guard (try? check(git_config_snapshot(&snapshot, config), "read config")) != nil, let snapshot else { return nil }
        defer { git_config_free(snapshot) }
        var value: UnsafePointer<CChar>?
        guard (try? check(git_config_get_string(&value, snapshot, key), "read config", key)) != nil, let value else { return nil }
        return String(cString: value)
    }
}
