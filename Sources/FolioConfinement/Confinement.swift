import CConfinement
#if canImport(Glibc)
import Glibc
#endif

/// What a confined process may still do. Everything not listed is refused by the kernel, for good: no file can be
/// opened, written, created or removed (beyond `readableFolders`), no socket created or connected (the descriptors the
/// process already holds stay usable), no program run, no process started (threads are), no other process inspected
/// or signalled, no namespace, mount, keyring or privileged kernel interface used.
public struct ConfinementPolicy: Sendable, Equatable {
    /// Folders whose files may still be read (and listed). Empty: no file at all.
    public var readableFolders: [String]
    /// The descriptor on which each refused system call is written as one line (`CATEGORY SYSCALL`), nil for none.
    public var refusalDescriptor: Int32?
    /// Whether each refusal is also written to standard error (a log).
    public var logsRefusals: Bool

    /// A policy; by default nothing is readable and refusals go nowhere.
    public init(readableFolders: [String] = [], refusalDescriptor: Int32? = nil, logsRefusals: Bool = false) {
        self.readableFolders = readableFolders
        self.refusalDescriptor = refusalDescriptor
        self.logsRefusals = logsRefusals
    }
}

/// The confinement in force in a process (after `Confinement.apply`), or what the kernel offers (`Confinement.offered`).
public struct ConfinementReport: Sendable, Equatable, CustomStringConvertible {
    /// The kernel's Landlock ABI version; 0 when it has none (or it is disabled).
    public var landlockABI: Int
    /// Landlock restricts the file system.
    public var landlockFiles: Bool
    /// Landlock refuses TCP bind and connect (ABI 4 and later).
    public var landlockTCP: Bool
    /// Landlock scopes abstract UNIX sockets and signals to the process (ABI 6 and later).
    public var landlockScopes: Bool
    /// The seccomp filter is loaded.
    public var seccomp: Bool
    /// PR_SET_NO_NEW_PRIVS is set.
    public var noNewPrivileges: Bool
    /// The process leads a session of its own (no controlling terminal).
    public var ownSession: Bool
    /// The first step that failed and why (the other steps are still in force), nil when none did.
    public var failure: String?

    /// One line: `landlock ABI 7 (files, tcp, scopes), seccomp, no-new-privs, own session`; the parts not in force are
    /// named as such (`no landlock (the kernel has none)`).
    public var description: String {
        var parts: [String] = []
        if landlockFiles {
            let what = ["files"] + (landlockTCP ? ["tcp"] : []) + (landlockScopes ? ["signals", "abstract sockets"] : [])
            parts.append("landlock ABI \(landlockABI) (\(what.joined(separator: ", ")))")
        } else {
            parts.append(landlockABI == 0 ? "no landlock (the kernel has none)" : "no landlock")
        }
        parts.append(seccomp ? "seccomp" : "no seccomp")
        parts.append(noNewPrivileges ? "no-new-privs" : "new privileges possible")
        if ownSession { parts.append("own session") }
        if let failure { parts.append("failed: \(failure)") }
        return parts.joined(separator: ", ")
    }

    /// Whether every part the kernel offers is in force (seccomp and no-new-privs at least).
    public var isComplete: Bool { failure == nil && seccomp && noNewPrivileges }

    init(_ state: folio_confinement_state) {
        landlockABI = Int(state.landlock_abi)
        landlockFiles = state.landlock_files != 0
        landlockTCP = state.landlock_tcp != 0
        landlockScopes = state.landlock_scopes != 0
        seccomp = state.seccomp != 0
        noNewPrivileges = state.no_new_privs != 0
        ownSession = state.own_session != 0
        if state.failed_errno != 0 {
            let step = withUnsafeBytes(of: state.failed_step) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            failure = "\(step): \(String(cString: strerror(state.failed_errno)))"
        }
    }
}

/// A refusal to confine: the process has threads Landlock would not bind (it binds the calling thread and those it
/// starts later), so confining it would leave code unconfined.
public struct ConfinementRefused: Error, CustomStringConvertible, Sendable, Equatable {
    /// How many threads the process had.
    public let threads: Int
    public var description: String { "the process has \(threads) threads; it must have one to be confined" }
}

/// Confinement of the calling process by the kernel: its own session, PR_SET_NO_NEW_PRIVS, Landlock (where the kernel
/// has it: every file-system right the ABI knows handled and none granted beyond the policy's folders; TCP bind and
/// connect from ABI 4; abstract sockets and signals scoped from ABI 6) and a seccomp-bpf filter (libseccomp) that
/// refuses with EPERM, through a SIGSYS handler that names each refusal. Used by the plugin host after a plugin is
/// loaded; meant for any process that runs code Folio does not trust (template hooks).
public enum Confinement {
    /// Confines this process for good and returns what is in force. Throws, confining nothing, when the process has
    /// more than one thread. A kernel without Landlock or seccomp leaves that part out (the report says so).
    public static func apply(_ policy: ConfinementPolicy) throws(ConfinementRefused) -> ConfinementReport {
        let threads = Int(folio_confinement_thread_count())
        if threads > 1 { throw ConfinementRefused(threads: threads) }
        var state = folio_confinement_state()
        let folders = policy.readableFolders.map { strdup($0) }
        defer { folders.forEach { free($0) } }
        folders.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { pointers in
            var raw = folio_confinement_policy()
            raw.readable = pointers.baseAddress.map { UnsafePointer($0) }
            raw.readable_count = pointers.count
            raw.report_fd = policy.refusalDescriptor ?? -1
            raw.report_stderr = policy.logsRefusals ? 1 : 0
            _ = folio_confinement_apply(&raw, &state)
        }
        return ConfinementReport(state)
    }

    /// What the kernel offers, without confining anything.
    public static var offered: ConfinementReport {
        var state = folio_confinement_state()
        folio_confinement_probe(&state)
        return ConfinementReport(state)
    }
}
