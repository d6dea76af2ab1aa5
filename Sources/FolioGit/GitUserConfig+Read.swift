import CGit2
import FoundationEssentials
import Glibc

/// Owns one libgit2 config handle (`git_config*`), freed with it.
final class GitConfigHandle {
    let pointer: OpaquePointer

    private init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { git_config_free(pointer) }

    /// An empty config with no file (libgit2's process-wide search paths play no part).
    static func empty() throws -> GitConfigHandle {
        GitLibrary.ensureInitialized()
        var config: OpaquePointer?
        try check(git_config_new(&config), "open config")
        guard let config else { throw GitError(operation: "open config", message: "no handle") }
        return GitConfigHandle(config)
    }

    /// Adds the file at `path` at `level` (its `include.path`s with it; `includeIf "gitdir:…"` against `repository`
    /// when given); a missing file adds nothing.
    func add(file path: String, level: git_config_level_t, repository: OpaquePointer? = nil) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFREG else { throw GitUserConfigError(source: path, problem: "not a regular file") }
        try check(git_config_add_file_ondisk(pointer, path, level, repository, 0), "read git configuration", path)
    }

    /// The value git uses for `key` (the highest-priority one); nil when unset.
    func string(_ key: String) throws -> String? {
        // Strings can be borrowed only from a snapshot.
        var snapshot: OpaquePointer?
        try check(git_config_snapshot(&snapshot, pointer), "read git configuration")
        guard let snapshot else { return nil }
        defer { git_config_free(snapshot) }
        var value: UnsafePointer<CChar>?
        let code = git_config_get_string(&value, snapshot, key)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "read git configuration", key)
        return value.map { String(cString: $0) }
    }

    /// Every entry, lowest priority first (libgit2 iterates its files from the lowest level up, each in file order).
    func entries() throws -> [GitUserConfig.Entry] {
        var snapshot: OpaquePointer?
        try check(git_config_snapshot(&snapshot, pointer), "read git configuration")
        guard let snapshot else { return [] }
        defer { git_config_free(snapshot) }
        var iterator: OpaquePointer?
        try check(git_config_iterator_new(&iterator, snapshot), "read git configuration")
        defer { git_config_iterator_free(iterator) }
        var result: [GitUserConfig.Entry] = []
        var entry: UnsafeMutablePointer<git_config_entry>?
        while true {
            let code = git_config_next(&entry, iterator)
            if code == GIT_ITEROVER.rawValue { break }
            try check(code, "read git configuration")
            guard let entry, let name = entry.pointee.name else { continue }
            result.append(.init(name: String(cString: name), value: entry.pointee.value.map { String(cString: $0) }))
        }
        return result
    }
}

extension GitUserConfig {
    /// Reads the configuration `environment` names: its files (`GitConfigFiles`) through libgit2, which follows their
    /// includes (an `includeIf "gitdir:…"` is decided by where `repository` is; nothing is read from it), then the
    /// `GIT_CONFIG_COUNT` variables. A missing file is no error; a broken one is a `GitError` naming it, a bad
    /// `GIT_CONFIG_COUNT` a `GitUserConfigError`.
    package init(environment: [String: String], repository: Repository? = nil) throws {
        let files = GitConfigFiles(environment: environment)
        let config = try GitConfigHandle.empty()
        let levels: [(String?, git_config_level_t)] = [(files.system, GIT_CONFIG_LEVEL_SYSTEM), (files.xdg, GIT_CONFIG_LEVEL_XDG),
                                                       (files.global, GIT_CONFIG_LEVEL_GLOBAL)]
        for case let (path?, level) in levels { try config.add(file: path, level: level, repository: repository?.pointer) }
        self.init(entries: try config.entries() + Self.environmentEntries(environment), environment: environment)
    }

    /// The `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n` entries, in order, as git takes them.
    static func environmentEntries(_ environment: [String: String]) throws -> [Entry] {
        guard let countText = environment["GIT_CONFIG_COUNT"], !countText.isEmpty else { return [] }
        guard let count = Int(countText), (0...10_000).contains(count) else {
            throw GitUserConfigError(source: "GIT_CONFIG_COUNT", problem: "'\(countText.prefix(20))' is not a count")
        }
        return try (0..<count).map { index in
            guard let key = environment["GIT_CONFIG_KEY_\(index)"], let name = normalizedName(key) else {
                throw GitUserConfigError(source: "GIT_CONFIG_KEY_\(index)", problem: "missing or not a config key")
            }
            guard let value = environment["GIT_CONFIG_VALUE_\(index)"] else {
                throw GitUserConfigError(source: "GIT_CONFIG_VALUE_\(index)", problem: "missing")
            }
            return Entry(name: name, value: value)
        }
    }

    /// `key` as git normalizes it (section and variable lower-case, the subsection as written); nil when it has no
    /// section or no variable name.
    static func normalizedName(_ key: String) -> String? {
        guard let first = key.firstIndex(of: "."), let last = key.lastIndex(of: "."),
              first > key.startIndex, key.index(after: last) < key.endIndex else { return nil }
        let section = key[..<first].lowercased(), variable = key[key.index(after: last)...].lowercased()
        return first == last ? "\(section).\(variable)" : "\(section).\(key[key.index(after: first)..<last]).\(variable)"
    }
}
