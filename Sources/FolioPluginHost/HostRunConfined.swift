import FolioConfinement
#if canImport(Glibc)
import Glibc
#endif

/// `folio-plugin-host --run-confined [--read PATH]… [--write PATH]… [--network] [--cpu SECONDS] [--cwd DIR] -- PROGRAM ARG…`:
/// confines this process (`Confinement.applyForProgram`) and runs PROGRAM in it, which inherits the confinement.
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
        let report: ConfinementReport
        do { report = try Confinement.applyForProgram(ProgramConfinementPolicy(readable: readable, writable: writable, network: network)) }
        catch { return fail("could not confine \(executable): \(error)") }
        guard report.landlockFiles, report.seccomp, report.noNewPrivileges, report.failure == nil else {
            return fail("could not confine \(executable) (\(report)); it was not run")
        }
        var pointers = program.map { strdup($0) } + [nil]
        execvp(executable, &pointers)
        return fail("could not run \(executable): \(String(cString: strerror(errno)))")
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
