#if canImport(Glibc)
import Glibc
#endif

/// How Folio starts a program (never Foundation's Process): posix_spawn with the child's descriptors named one by one,
/// every other descriptor closed in the child (a document's lock, libgit2's files, plugin sockets, the terminal stay in
/// Folio), the signal mask emptied and every signal's action back to its default. Used for the plugin hosts, the
/// `plugins check` child and the user's editor.
public struct ChildSpawn {
    /// Where one of the child's descriptors comes from.
    public enum Source: Sendable, Equatable {
        /// /dev/null, for reading or writing.
        case nullForReading, nullForWriting
        /// A file opened for appending (created with mode 0600 when missing).
        case appending(String)
        /// One of this process's descriptors (left open here: the caller closes it after `start`).
        case descriptor(Int32)
        /// The same descriptor of this process, as it is (the terminal's 0, 1 and 2 for the user's editor).
        case inherited
    }

    /// Whether every descriptor not named in `descriptors` must be closed in the child: `.required` fails the start
    /// on a C library without `posix_spawn_file_actions_addclosefrom_np` (glibc before 2.34), `.whenAvailable` relies
    /// on close-on-exec there.
    public enum CloseOthers: Sendable { case required, whenAvailable }

    /// The program: a path, or with `searchPath` a name looked up on PATH.
    public var program: String
    /// The arguments after the program's own name.
    public var arguments: [String]
    public var environment: [String: String]
    /// The child's descriptors (0, 1, 2 and any others) and where each comes from.
    public var descriptors: [(child: Int32, source: Source)]
    public var closeOthers: CloseOthers = .required
    /// A session of its own (no controlling terminal; its process group can be killed at once).
    public var newSession = false
    /// Look `program` up on PATH (posix_spawnp).
    public var searchPath = false

    /// Describes a start of `program` with `arguments`, `environment` and `descriptors`.
    public init(program: String, arguments: [String], environment: [String: String], descriptors: [(child: Int32, source: Source)]) {
        self.program = program
        self.arguments = arguments
        self.environment = environment
        self.descriptors = descriptors
    }

    /// A start that failed: the call and its errno.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let call: String
        public let code: Int32
        public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// Starts the child; returns its process id (the caller waits for it).
    public func start() throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A source descriptor that is also a target (or below the first closed one) is moved out of the way first:
        // dup2 onto itself would keep its close-on-exec flag, and an earlier dup2 could overwrite it.
        let firstClosed = (descriptors.map(\.child).max() ?? 2) + 1
        var moved: [Int32] = []
        defer { moved.forEach { close($0) } }
        for (child, source) in descriptors {
            switch source {
            case .nullForReading: posix_spawn_file_actions_addopen(&actions, child, "/dev/null", O_RDONLY, 0)
            case .nullForWriting: posix_spawn_file_actions_addopen(&actions, child, "/dev/null", O_WRONLY, 0)
            case let .appending(path): posix_spawn_file_actions_addopen(&actions, child, path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
            case .inherited: break
            case var .descriptor(fd):
                if fd < firstClosed {
                    let high = fcntl(fd, F_DUPFD_CLOEXEC, max(10, firstClosed))
                    guard high >= 0 else { throw Failure(call: "fcntl(F_DUPFD_CLOEXEC)", code: errno) }
                    moved.append(high)
                    fd = high
                }
                posix_spawn_file_actions_adddup2(&actions, fd, child)
            }
        }
        if let closeFrom = Self.addCloseFrom {
            guard closeFrom(&actions, firstClosed) == 0 else { throw Failure(call: "posix_spawn_file_actions_addclosefrom_np", code: errno) }
        } else if closeOthers == .required {
            throw Failure(call: "posix_spawn_file_actions_addclosefrom_np", code: ENOSYS)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), mask = sigset_t()
        sigemptyset(&mask)
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc), hidden by the Glibc module
        posix_spawnattr_setflags(&attributes, Int16((newSession ? setsid : 0) | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        guard !argv.dropLast().contains(nil), !envp.dropLast().contains(nil) else { throw Failure(call: "strdup", code: ENOMEM) }
        var pid: pid_t = 0
        let spawned = searchPath ? posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
                                 : posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(call: searchPath ? "posix_spawnp" : "posix_spawn", code: spawned) }
        return pid
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up once because the Glibc module hides it.
    private static let addCloseFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }
}
