import CConfinement
#if canImport(Glibc)
import Glibc
#endif

/// What a confined program (a template's hook or task) may do: read and run what is beneath `readable`, create,
/// change and remove what is beneath `writable`, and use the network only with `network`. Unlike a plugin it may
/// start processes and run programs, which inherit the confinement. It may not debug other processes, enter or make
/// namespaces, mount, use the kernel keyring or privileged kernel interfaces, or signal processes outside it.
public struct ProgramConfinementPolicy: Sendable, Equatable {
    public var readable: [String]
    public var writable: [String]
    public var network: Bool

    public init(readable: [String], writable: [String], network: Bool) {
        self.readable = readable
        self.writable = writable
        self.network = network
    }
}

extension Confinement {
    /// Confines this process for good before it runs a program under `policy` (see `ProgramConfinementPolicy`).
    /// Throws, confining nothing, when the process has more than one thread.
    public static func applyForProgram(_ policy: ProgramConfinementPolicy) throws(ConfinementRefused) -> ConfinementReport {
        let threads = Int(folio_confinement_thread_count())
        if threads > 1 { throw ConfinementRefused(threads: threads) }
        var state = folio_confinement_state()
        let readable = policy.readable.map { strdup($0) }, writable = policy.writable.map { strdup($0) }
        defer { (readable + writable).forEach { free($0) } }
        readable.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { read in
            writable.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { write in
                var raw = folio_program_policy()
                raw.readable = read.baseAddress.map { UnsafePointer($0) }
                raw.readable_count = read.count
                raw.writable = write.baseAddress.map { UnsafePointer($0) }
                raw.writable_count = write.count
                raw.network = policy.network ? 1 : 0
                _ = folio_confinement_apply_program(&raw, &state)
            }
        }
        var report = ConfinementReport(state)
        report.granted = policy.readable.map { "read \($0)" } + policy.writable.map { "write \($0)" } + (policy.network ? ["network"] : [])
        return report
    }

    /// Asks the kernel to send `signal` to this process when its parent dies (`PR_SET_PDEATHSIG`); false when refused.
    public static func endWithParent(signal: Int32) -> Bool { folio_end_with_parent(signal) == 0 }
}
