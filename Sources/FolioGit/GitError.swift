import CGit2
import CGitNetworkStart
import FoundationEssentials
import FolioBasics
import Glibc
import Synchronization

/// A libgit2 failure: what Folio was doing, on which object or path, libgit2's code and its message.
public struct GitError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// libgit2's return code (`GIT_ENOTFOUND`, `GIT_EMODIFIED`, …).
    public let code: Int32
    /// libgit2's error class (`GIT_ERROR_REFERENCE`, …), or 0.
    public let errorClass: Int32
    /// What Folio was doing, e.g. "open repository".
    public let operation: String
    /// The path, ref or object the operation was about, if any.
    public let subject: String?
    /// libgit2's own message.
    public let message: String

    public var description: String {
        let prefix = subject.map { "\($0): " } ?? ""
        return "\(prefix)\(operation) failed: \(message)"
    }
    public var errorDescription: String? { description }

    public var isNotFound: Bool { code == GIT_ENOTFOUND.rawValue }
    public var isModified: Bool { code == GIT_EMODIFIED.rawValue }
    public var isLocked: Bool { code == GIT_ELOCKED.rawValue }
    public var isExists: Bool { code == GIT_EEXISTS.rawValue }
    public var isAmbiguous: Bool { code == GIT_EAMBIGUOUS.rawValue }

    /// An error raised by Folio itself, not libgit2, in the same shape.
    public init(code: Int32 = -1, operation: String, subject: String? = nil, message: String) {
        self.code = code
        self.errorClass = 0
        self.operation = operation
        self.subject = subject
        self.message = message
    }

    fileprivate init(code: Int32, operation: String, subject: String?) {
        self.code = code
        if let last = git_error_last(), let text = last.pointee.message {
            self.errorClass = last.pointee.klass
            self.message = String(cString: text).trimming(.whitespacesAndNewlines)
        } else {
            self.errorClass = 0
            self.message = "libgit2 error \(code)"
        }
        self.operation = operation
        self.subject = subject
    }
}

/// The one place every libgit2 return code goes through: negative codes become a `GitError` built from `git_error_last()`.
@discardableResult
@inline(__always)
func check(_ code: Int32, _ operation: @autoclosure () -> String, _ subject: @autoclosure () -> String? = nil) throws -> Int32 {
    if code < 0 { throw GitError(code: code, operation: operation(), subject: subject()) }
    return code
}

/// Process-wide libgit2 set-up, done once before any handle is created.
///
/// libgit2's options are process-wide, so Folio sets them here once and never changes them per call: two documents
/// open in one process (or a log walk on one thread and a change on another) would otherwise race on them.
/// - fsync (`GIT_OPT_ENABLE_FSYNC_GITDIR`) is off. Durability is per document and done by Folio itself: loose
///   objects through the document's own loose backend (`useFastLooseObjects(fsync:)`), refs and the index with
///   `Repository.syncToDisk` after libgit2 wrote them, packs written by maintenance always (before anything they
///   replace is removed), work-tree files and the crash note by `AtomicFile` and `DocumentLock`.
/// - The object cache stays on but never holds commits (`GIT_OPT_SET_CACHE_OBJECT_LIMIT` for commits is 0): a log
///   walk reads each commit once, where caching them only cost time (about 1.5 s instead of 2.3 s over 100,000
///   commits), and Folio keeps the one commit it reads again (the last it wrote) itself. Trees and tags are cached.
/// - Packs are mapped in windows of 32 MiB, at most about 64 MiB at a time (`GIT_OPT_SET_MWINDOW_SIZE`,
///   `GIT_OPT_SET_MWINDOW_MAPPED_LIMIT`; libgit2's defaults are 1 GiB and 8 GiB): reading a large file from a pack
///   (a pull's 200 MiB file, inflated to be written out) no longer keeps the whole pack mapped beside the file's
///   bytes, which held a pull's peak at twice the file's size (folio-bench pull-memory).
public enum GitLibrary {
    private static let initialized: Bool = {
        defer { PhaseTrace.mark("libgit2 started") }
        // In `folio`, TLS and SSH start before the first remote operation instead (`startNetworkIfDeferred`).
        git_libgit2_init()
        // Folio refers only to objects it has just written or read (a change's blob, tree and commit; a fetched
        // commit), so libgit2's check that each one exists would re-read it from disk four times per change.
        // Revisions typed by users are resolved (and so proven to exist) before anything refers to them.
        setOption { folio_git_set_strict_object_creation(0) }
        setOption { folio_git_set_fsync_gitdir(0) }
        setOption { folio_git_set_caching(1) }
        setOption { folio_git_set_cache_object_limit(Int32(GIT_OBJECT_COMMIT.rawValue), 0) }
        setOption { folio_git_set_mwindow_size(32 << 20) }
        setOption { folio_git_set_mwindow_mapped_limit(64 << 20) }
        isInitialized.store(true, ordering: .releasing)
        return true
    }()

    private static let optionWrites = Mutex(0)

    /// How many times a process-wide libgit2 option was set (tests check that opening and using documents sets none).
    package static var processWideOptionWrites: Int { optionWrites.withLock { $0 } }

    private static func setOption(_ body: () -> Int32) {
        optionWrites.withLock { $0 += 1 }
        _ = body()
    }

    /// Initializes libgit2 (idempotent), then points its config search where the first store asked (once).
    public static func ensureInitialized() {
        _ = initialized
        applyConfigSearch()
    }

    /// Starts initializing libgit2 on a thread of its own and returns at once. Begun first thing in a process, it
    /// overlaps with the process's own start-up work, and the first `ensureInitialized` waits only for the rest
    /// (`initialized` is a `static let`: Swift runs its initializer exactly once and makes every other caller wait).
    /// In `folio`, TLS and SSH are no longer part of it (see `startNetworkIfDeferred`).
    /// A process that started it must call `waitForBackgroundInitialization()` before `exit`: exit handlers of the
    /// libraries libgit2 starts (OpenSSL's, through libssh2, wherever its start is not put off) crash when they run
    /// while it is still starting.
    public static func initializeInBackground() {
        guard !backgroundStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DetachedThread.start(stackSize: 1 << 20) { ensureInitialized() }
    }

    /// Waits for `initializeInBackground` to finish, when it was started, and for a start of TLS and SSH that a
    /// remote operation on another thread has begun (`startNetworkIfDeferred`); at once otherwise.
    public static func waitForBackgroundInitialization() {
        if backgroundStarted.load(ordering: .acquiring) { _ = initialized }
        folio_git_wait_for_network_start()
    }

    private static let backgroundStarted = Atomic<Bool>(false)

    /// The first environment given to `configureConfigSearch`, and whether libgit2 has been pointed at it.
    private static let configSearch = Mutex<(environment: [String: String]?, applied: Bool)>((nil, false))

    /// Points libgit2's global, XDG and system config search at the folders `environment` names (HOME,
    /// XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM), once per process: the first call decides, later calls (every
    /// `DocumentStore`) change nothing, so stores and threads never race on these process-wide options. It does not
    /// wait for libgit2: the search is set by the next `ensureInitialized`, which every handle calls before it opens
    /// anything. In a process whose environments differ (an embedding program, tests), the first one's config is
    /// what libgit2 reads by itself; what Folio reads per environment (the committer's identity) it reads through
    /// `GitConfigFiles`.
    public static func configureConfigSearch(environment: [String: String]) {
        configSearch.withLock { state in
            if state.environment == nil { state.environment = environment }
        }
        if isInitialized.load(ordering: .acquiring) { applyConfigSearch() }
    }

    /// Set once `initialized` has run (so `configureConfigSearch` never blocks on a background initialization).
    private static let isInitialized = Atomic<Bool>(false)

    private static func applyConfigSearch() {
        configSearch.withLock { state in
            guard !state.applied, let environment = state.environment else { return }
            state.applied = true
            setConfigSearch(environment: environment)
        }
    }

    private static func setConfigSearch(environment: [String: String]) {
        if let home = environment["HOME"] { setOption { folio_git_set_search_path(Int32(GIT_CONFIG_LEVEL_GLOBAL.rawValue), home) } }
        let xdg = environment["XDG_CONFIG_HOME"].map { $0 + "/git" } ?? environment["HOME"].map { $0 + "/.config/git" }
        if let xdg { setOption { folio_git_set_search_path(Int32(GIT_CONFIG_LEVEL_XDG.rawValue), xdg) } }
        if let flag = environment["GIT_CONFIG_NOSYSTEM"], flag == "1" || flag == "true" {
            setOption { folio_git_set_search_path(Int32(GIT_CONFIG_LEVEL_SYSTEM.rawValue), "") }
        }
    }
}

extension Repository {
    /// fsyncs files of the git folder that libgit2 just wrote (a ref, the index) and the folders holding them, for a
    /// document whose durability setting asks for it (libgit2's own fsync option is process-wide and stays off).
    public func syncToDisk(_ relativePaths: [String]) throws {
        var folders: Set<String> = []
        for relative in relativePaths {
            let path = gitDirectoryPath + relative
            try Self.fsync(path, subject: path)
            folders.insert(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
        }
        for folder in folders { try Self.fsync(folder, subject: folder) }
        Self.syncCounter.withLock { $0[gitDirectoryPath, default: 0] += relativePaths.count }
    }

    private static func fsync(_ path: String, subject: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError.errno("open for fsync", path: subject) }
        defer { close(fd) }
        guard Glibc.fsync(fd) == 0 else { throw FileSystemError.errno("fsync", path: subject) }
    }

    private static let syncCounter = Mutex<[String: Int]>([:])

    /// How many files `syncToDisk` fsynced in the repository at `gitDirectoryPath` (tests observe durability with it).
    package static func syncedFileCount(gitDirectoryPath: String) -> Int { syncCounter.withLock { $0[gitDirectoryPath] ?? 0 } }

    /// Whether two lookups of tree `id` return the same cached object (tests check that the object cache stays on
    /// while another thread walks a long log).
    package func objectCacheServesRepeatedLookups(ofTree id: ObjectID) throws -> Bool {
        var first: OpaquePointer?
        var second: OpaquePointer?
        try id.withOID { try check(git_tree_lookup(&first, pointer, $0), "read tree", id.hex) }
        defer { git_tree_free(first) }
        try id.withOID { try check(git_tree_lookup(&second, pointer, $0), "read tree", id.hex) }
        defer { git_tree_free(second) }
        return first == second
    }
}
