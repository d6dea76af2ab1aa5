import FolioPluginABI
import FolioPluginWire
#if canImport(Glibc)
import Glibc
#endif

/// `folio-plugin-host --check LIBRARY` (`folio plugins check`): loads the library as a host loads it to run it, but with
/// immediate binding (RTLD_NOW, so that a missing symbol is refused by name), runs the descriptor checks, and writes
/// one JSON object on descriptor 3 (`report`): `{"ok": true, "id", "name", "version", "abi": "M.m", "editors": [...]}`
/// (editors in the manifest's shape) or `{"ok": false, "reason": "..."}`. What the plugin prints goes to standard
/// output, a channel of its own, so nothing it prints can be taken for the report. Folio checks the description
/// against the manifest beside the library. Exits 0 when the library loaded and passed, 1 when it was refused.
public enum HostCheck {
    /// The descriptor the report is written on.
    public static let reportFD = HostWire.checkReportFD

    /// Runs the check of `arguments[0]`; returns the exit code (2 for bad usage).
    public static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 1 else {
            HostValidate.writeLine("folio-plugin-host --check LIBRARY: checks a plugin library for folio plugins check", fd: 2)
            return 2
        }
        signal(SIGPIPE, SIG_IGN)
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        var info = stat()
        let fromFolio = fstat(reportFD, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
        // Moved out of the plugin's way (and closed on exec) before any of its code runs; by hand, the report is stdout.
        let fd = fromFolio ? fcntl(reportFD, F_DUPFD_CLOEXEC, 10) : STDOUT_FILENO
        if fromFolio, fd >= 0 { close(reportFD) }
        var json = HostJSON()
        let passed: Bool
        do throws(HostRefusal) {
            let library = try HostLibrary.load(arguments[0], binding: RTLD_NOW)
            json.object { json in
                json.member("ok", true)
                json.member("id", library.id)
                json.member("name", library.name)
                json.member("version", library.version)
                json.member("abi", "\(library.abiMajor).\(library.abiMinor)")
                json.member("editors", json: library.editorsJSON)
            }
            passed = true
        } catch {
            json.object { json in
                json.member("ok", false)
                json.member("reason", error.reason)
            }
            passed = false
        }
        fflush(nil)  // what the plugin printed through C's stdio reaches its channel before the report ends
        guard fd >= 0 else { return 1 }
        HostValidate.writeLine(String(decoding: json.bytes, as: UTF8.self), fd: fd)
        return passed ? 0 : 1
    }
}
