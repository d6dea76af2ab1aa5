import FolioConfinement
#if canImport(Glibc)
import Glibc
#endif

/// `folio-plugin-host --run-confined [--read PATH]… [--write PATH]… [--network] [--cpu SECONDS] [--cwd DIR] -- PROGRAM ARG…`:
/// confines this process (`Confinement.applyForProgram`) and runs PROGRAM under it, which inherits the confinement;
/// it waits for PROGRAM and ends as it did, and when Folio dies first it kills PROGRAM's whole process group.
/// Folio runs a template's hooks and tasks through it. Where the kernel cannot hold the program to its folders
/// (no Landlock, or a step failed) nothing runs: exit 126 with one line saying why.
enum HostRunConfined {
    static func run(_ arguments: [String]) -> Int32 {
        var readable: [String] = [], writable: [String] = [], network = false, cpu: UInt64 = 60, folder: String?
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let option = arguments[index]
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch option {
            case "--read": guard let value else { return usage() }; readable.append(value); index += 2
            case "--write": guard let value else { return usage() }; writable.append(value); index += 2
            case "--cpu": guard let value, let seconds = UInt64(value) else { return usage() }; cpu = seconds; index += 2
            case "--network": network = true; index += 1
            case "--cwd": guard let value else { return usage() }; folder = value; index += 2
            default: return usage()
            }
        }
        let program = Array(arguments.dropFirst(index + 1))
        guard let executable = program.first else { return usage() }
        if let folder, chdir(folder) != 0 { return fail("could not enter \(folder): \(String(cString: strerror(errno)))") }
        limit(RLIMIT_CPU, cpu)
        limit(RLIMIT_CORE, 0)
        limit(RLIMIT_FSIZE, 512 << 20)  // no one file past 512 MiB: a runaway hook gets EFBIG, not the whole disk
        signal(SIGXFSZ, SIG_IGN)
        // Folio killed (even with SIGKILL) ends the program and everything it started: this process stays as the
        // session's first process, told by the kernel when Folio is gone, and then kills its whole process group.
        let parent = getppid()
        signal(SIGTERM) { _ in kill(0, SIGKILL) }
        guard Confinement.endWithParent(signal: SIGTERM), getppid() == parent else { return fail("could not tie \(executable) to Folio's life") }
        let report: ConfinementReport
        do { report = try Confinement.applyForProgram(ProgramConfinementPolicy(readable: readable, writable: writable, network: network)) }
        catch { return fail("could not confine \(executable): \(error)") }
        guard report.landlockFiles, report.seccomp, report.noNewPrivileges, report.failure == nil else {
            return fail("could not confine \(executable) (\(report)); it was not run")
        }
        var pointers = program.map { strdup($0) } + [nil]
        let child = fork()
        if child == 0 {
            signal(SIGTERM, SIG_DFL)
            execvp(executable, &pointers)
            _ = fail("could not run \(executable): \(String(cString: strerror(errno)))")
            _exit(126)
        }
        guard child > 0 else { return fail("could not start \(executable): \(String(cString: strerror(errno)))") }
        return ended(waitingFor: child)
    }

    /// Waits for the program and ends as it ended: its exit status, or the signal that killed it (raised here).
    private static func ended(waitingFor child: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return fail("lost the program: \(String(cString: strerror(errno)))") }
        }
        let termination = status & 0x7f
        guard termination != 0 else { return (status >> 8) & 0xff }
        signal(termination, SIG_DFL)
        raise(termination)
        return 128 + termination
    }

    private static func limit(_ resource: __rlimit_resource, _ value: UInt64) {
        var limit = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        _ = setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
    }

    private static func usage() -> Int32 {
        fail("usage: folio-plugin-host --run-confined [--read PATH]... [--write PATH]... [--network] [--cpu SECONDS] [--cwd DIR] -- PROGRAM [ARG...]")
    }

    private static func fail(_ line: String) -> Int32 {
        let text = "folio-plugin-host: \(line)\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        return 126
    }
}
