import CGit2
import FoundationEssentials
import FolioBasics
import Glibc

/// A person and a moment: a commit's author or committer.
public struct Signature: Sendable, Equatable, Codable {
    public var name: String
    public var email: String
    public var time: Date
    /// Offset from UTC in minutes.
    public var timeZoneOffset: Int

    public init(name: String, email: String, time: Date = Date(), timeZoneOffset: Int = Timestamps.localOffset(at: Date()) / 60) {
        self.name = name
        self.email = email
        self.time = time
        self.timeZoneOffset = timeZoneOffset
    }

    init(_ sig: UnsafePointer<git_signature>) {
        name = sig.pointee.name.map { String(cString: $0) } ?? ""
        email = sig.pointee.email.map { String(cString: $0) } ?? ""
        time = Date(timeIntervalSince1970: TimeInterval(sig.pointee.when.time))
        timeZoneOffset = Int(sig.pointee.when.offset)
    }

    /// Calls `body` with a libgit2 signature that lives for the call.
    @discardableResult
    func withSignature<R>(_ body: (UnsafePointer<git_signature>) throws -> R) throws -> R {
        var sig: UnsafeMutablePointer<git_signature>?
        // git_signature_new refuses angle brackets and newlines in names; keep what git would keep.
        let cleanName = name.filter { $0 != "<" && $0 != ">" && $0 != "\n" }
        let cleanEmail = email.filter { $0 != "<" && $0 != ">" && $0 != "\n" }
        // A time or zone outside what a commit can hold is an error, never a trapping conversion.
        // libgit2 writes the time as an unsigned 32-bit number: anything outside would be committed wrapped around.
        guard let seconds = git_time_t(exactly: time.timeIntervalSince1970.rounded(.down)), (0...git_time_t(UInt32.max)).contains(seconds),
              let offset = Int32(exactly: timeZoneOffset), offset.magnitude < 100 * 60 else {  // ±HHMM: four digits
            throw GitError(operation: "make signature", subject: "\(name) <\(email)>",
                           message: "time \(time.timeIntervalSince1970) or zone offset \(timeZoneOffset) minutes is out of range")
        }
        try check(git_signature_new(&sig, cleanName.isEmpty ? "unknown" : cleanName, cleanEmail, seconds, offset),
                  "make signature", "\(name) <\(email)>")
        guard let sig else { throw GitError(operation: "make signature", message: "no signature returned") }
        defer { git_signature_free(sig) }
        return try body(sig)
    }
}

/// A commit, copied out of libgit2.
public struct CommitInfo: Sendable, Equatable {
    public let id: ObjectID
    public let tree: ObjectID
    public let parents: [ObjectID]
    public let author: Signature
    public let committer: Signature
    /// The full message.
    public let message: String

    /// The first line of the message.
    public var summary: String {
        guard let newline = message.utf8.firstIndex(of: 10) else { return message }
        return String(message[..<newline])
    }

    /// The value of a `Key: value` trailer at the end of the message, if present.
    public func trailer(_ key: String) -> String? {
        for line in message.split(separator: "\n").reversed() {
            if line.hasPrefix(key + ": ") { return String(line.dropFirst(key.count + 2)).trimming(.whitespaces) }
        }
        return nil
    }
}

/// An owned libgit2 repository handle.
///
/// Not thread-safe: libgit2 objects must not be shared across threads. Use one `Repository` per thread or task.
public final class Repository {
    let pointer: OpaquePointer
    /// The `.git` folder (or the repository itself when bare).
    public let gitDirectory: URL
    /// The work tree, nil for a bare repository.
    public let workDirectory: URL?
    /// `gitDirectory` and `workDirectory` as file-system paths ending in "/", for building paths on hot paths
    /// without URL parsing.
    public let gitDirectoryPath: String
    public let workDirectoryPath: String?

    init(pointer: OpaquePointer) {
        self.pointer = pointer
        gitDirectoryPath = String(cString: git_repository_path(pointer))
        workDirectoryPath = git_repository_workdir(pointer).map { String(cString: $0) }
        gitDirectory = URL(fileURLWithPath: gitDirectoryPath, isDirectory: true)
        workDirectory = workDirectoryPath.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    deinit { git_repository_free(pointer) }

    /// Opens the repository at exactly `url` (no search upwards).
    public static func open(at url: URL) throws -> Repository {
        GitLibrary.ensureInitialized()
        var repo: OpaquePointer?
        try check(git_repository_open_ext(&repo, url.path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil), "open repository", url.path)
        guard let repo else { throw GitError(operation: "open repository", subject: url.path, message: "no handle") }
        return Repository(pointer: repo)
    }

    /// Opens the document repository whose folder is exactly `url`: its git folder must be `url/.git` (a `gitdir:`
    /// file pointing elsewhere is refused), and the work tree is always `url` whatever `core.worktree` or
    /// `core.bare` in its config say (libgit2 reads no `GIT_DIR` / `GIT_WORK_TREE` from the environment here).
    public static func openDocument(at url: URL) throws -> Repository {
        GitLibrary.ensureInitialized()
        var handle: OpaquePointer?
        try check(git_repository_open_ext(&handle, url.path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil), "open repository", url.path)
        guard let handle else { throw GitError(operation: "open repository", subject: url.path, message: "no handle") }
        do {
            let folder = canonicalFolder(url.path)
            let gitFolder = canonicalFolder(String(cString: git_repository_path(handle)))
            guard gitFolder == folder + ".git/" else {
                throw GitError(operation: "open repository", subject: url.path, message: "its .git points to another folder (\(gitFolder))")
            }
            let workFolder = git_repository_workdir(handle).map { canonicalFolder(String(cString: $0)) }
            if workFolder != folder {
                try check(git_repository_set_workdir(handle, folder, 0), "use the document folder as work tree", url.path)
            }
        } catch {
            git_repository_free(handle)
            throw error
        }
        return Repository(pointer: handle)
    }

    /// `path` with links resolved, ending in "/".
    private static func canonicalFolder(_ path: String) -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return resolved.hasSuffix("/") ? resolved : resolved + "/"
    }

    /// Creates a repository at `url` with `initialBranch` as its unborn HEAD.
    public static func create(at url: URL, bare: Bool = false, initialBranch: String = "main") throws -> Repository {
        GitLibrary.ensureInitialized()
        var options = git_repository_init_options()
        try check(git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)), "init options")
        options.flags = GIT_REPOSITORY_INIT_MKPATH.rawValue | (bare ? GIT_REPOSITORY_INIT_BARE.rawValue : 0)
        var repo: OpaquePointer?
        let code = initialBranch.withCString { branch -> Int32 in
            options.initial_head = branch
            return git_repository_init_ext(&repo, url.path, &options)
        }
        try check(code, "create repository", url.path)
        guard let repo else { throw GitError(operation: "create repository", subject: url.path, message: "no handle") }
        return Repository(pointer: repo)
    }

    /// Whether `url` holds a git repository (a `.git` folder or a bare layout).
    public static func exists(at url: URL) -> Bool {
        GitLibrary.ensureInitialized()
        var repo: OpaquePointer?
        let code = git_repository_open_ext(&repo, url.path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil)
        if let repo { git_repository_free(repo) }
        return code == 0
    }

    /// A display name for errors: the work tree, else the git folder.
    var displayPath: String { (workDirectory ?? gitDirectory).path }

    // MARK: Config

    /// A string from the repository's config (which includes the global and system files), if set.
    public func configString(_ key: String) -> String? {
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, pointer) == 0, let config else { return nil }
        defer { git_config_free(config) }
        var value: UnsafePointer<CChar>?
        guard git_config_get_string(&value, config, key) == 0, let value else { return nil }
        return String(cString: value)
    }

    /// Sets a string in the repository's own config file.
    public func setConfig(_ key: String, _ value: String) throws {
        var config: OpaquePointer?
        try check(git_repository_config(&config, pointer), "open config", displayPath)
        defer { git_config_free(config) }
        try check(git_config_set_string(config, key, value), "set config \(key)", displayPath)
    }

    /// Sets a boolean in the repository's own config file.
    public func setConfig(_ key: String, _ value: Bool) throws {
        var config: OpaquePointer?
        try check(git_repository_config(&config, pointer), "open config", displayPath)
        defer { git_config_free(config) }
        try check(git_config_set_bool(config, key, value ? 1 : 0), "set config \(key)", displayPath)
    }
}

extension GitError {
    /// libgit2 refused a repository owned by another user (git's `safe.directory` check).
    public var isOwnedByAnotherUser: Bool { code == GIT_EOWNER.rawValue }
}
