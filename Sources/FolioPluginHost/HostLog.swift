import FolioPluginWire
#if canImport(Glibc)
import Glibc
#endif

/// The plugin's own log: once a plugin is loaded, before it is confined (after which nothing can be opened), the
/// host's standard error moves from the hosts' shared log to `FOLDER/ID.log`, appended, started again past
/// `HostWire.logLimit`. What the plugin prints while it runs — a Swift runtime's fatal error and its cause among it —
/// lands there for `folio plugins log ID`.
enum HostLog {
    /// Moves standard error to plugin `id`'s log in `folder`; leaves it where it is when the id cannot name a file or
    /// the log cannot be opened.
    static func moveStandardError(to folder: String, plugin id: String, version: String) {
        guard let name = HostWire.logFileName(forPlugin: id) else { return }
        let fd = open(folder + "/" + name, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            close(fd)
            return
        }
        if info.st_size > HostWire.logLimit { _ = ftruncate(fd, 0) }
        let header = "--- folio-plugin-host \(getpid()) loaded \(id) \(version) at \(time(nil))\n"
        _ = header.withCString { write(fd, $0, strlen($0)) }
        _ = dup2(fd, 2)
        close(fd)
    }
}
