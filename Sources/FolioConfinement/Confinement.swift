import CConfinement
#if canImport(Glibc)
import Glibc
#endif

/// What a confined process may still do. Everything not listed is refused by the kernel, for good: no file can be
/// opened, written, created or removed (beyond `readableFolders`), no socket created or connected (the descriptors the
/// process already holds stay usable), no program run, no process started (threads are), no other process inspected
/// or signalled, no namespace, mount, keyring or privileged kernel interface used.
public struct ConfinementPolicy: Sendable, Equatable {
    /// Files and folders that may still be read (a folder: everything beneath it, listed too). Empty: no file at all.
    /// Granted only where Landlock can hold the process to them; paths that do not exist are left out.
    public var readableFolders: [String]
    /// TCP ports the process may connect to, on any address. Granted only where Landlock can hold the process to them
    /// (ABI 4 and later); with none, no socket can be created or connected.
    public var connectPorts: [UInt16]
    /// The descriptor on which each refused system call is written as one line (`CATEGORY SYSCALL`), nil for none.
    public var refusalDescriptor: Int32?
    /// Whether each refusal is also written to standard error (a log).
    public var logsRefusals: Bool

    /// A policy; by default nothing is readable and refusals go nowhere.
    public init(readableFolders: [String] = [], connectPorts: [UInt16] = [], refusalDescriptor: Int32? = nil, logsRefusals: Bool = false) {
        self.readableFolders = readableFolders
        self.connectPorts = connectPorts
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
    /// What the policy granted and is in force ("connect to TCP port 5432", "read /usr/share/dict").
    public var granted: [String] = []
    /// What the policy asked to grant and was withheld, with why ("connect to TCP port 5432 (this kernel's Landlock
    /// cannot limit connections to ports)").
    public var withheld: [String] = []

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
        var line = parts.joined(separator: ", ")
        if !granted.isEmpty { line += "; granted: " + granted.joined(separator: ", ") }
        if !withheld.isEmpty { line += "; withheld: " + withheld.joined(separator: ", ") }
        return line
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
        let (paths, ports, granted, withheld) = grantable(policy)
        let folders = paths.map { strdup($0) }
        defer { folders.forEach { free($0) } }
        folders.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { pointers in
            ports.withUnsafeBufferPointer { portPointers in
                var raw = folio_confinement_policy()
                raw.readable = pointers.baseAddress.map { UnsafePointer($0) }
                raw.readable_count = pointers.count
                raw.connect_ports = portPointers.baseAddress
                raw.connect_port_count = portPointers.count
                raw.report_fd = policy.refusalDescriptor ?? -1
                raw.report_stderr = policy.logsRefusals ? 1 : 0
                _ = folio_confinement_apply(&raw, &state)
            }
        }
        var report = ConfinementReport(state)
        report.granted = granted
        report.withheld = withheld
        return report
    }

    /// What of `policy` can be granted on this kernel: reads only with Landlock (without it seccomp could not tell one
    /// file from another), TCP ports only from Landlock ABI 4 (before it, any port could be reached); paths that do not
    /// exist are left out. Returns the paths and ports to grant and, in words, what is granted and what withheld.
    static func grantable(_ policy: ConfinementPolicy) -> (paths: [String], ports: [UInt16], granted: [String], withheld: [String]) {
        let abi = offered.landlockABI
        var granted: [String] = [], withheld: [String] = []
        var paths: [String] = []
        for path in policy.readableFolders {
            var info = stat()
            guard stat(path, &info) == 0 else { withheld.append("read \(path) (no such file)"); continue }
            if abi >= 1 { paths.append(path); granted.append("read \(path)") } else { withheld.append("read \(path) (this kernel has no Landlock to limit reads to it)") }
        }
        let ports = abi >= 4 ? policy.connectPorts : []
        for port in policy.connectPorts {
            if abi >= 4 { granted.append("connect to TCP port \(port)") } else {
                withheld.append("connect to TCP port \(port) (this kernel's Landlock, ABI \(abi), cannot limit connections to ports)")
            }
        }
        return (paths, ports, granted, withheld)
    }

    /// What the kernel offers, without confining anything.
    public static var offered: ConfinementReport {
        var state = folio_confinement_state()
        folio_confinement_probe(&state)
        return ConfinementReport(state)
    }
}
