import Foundation

extension WorkTree {
    /// Creates `path` with `data` straight under its name (`O_CREAT | O_EXCL`, no temporary name and rename), beneath
    /// the root without following links. Only for a folder no one else sees yet — a new document being built in
    /// its hidden staging folder, which is removed whole on any error — where a half-written file cannot be observed.
    func writeNew(_ data: Data, to path: String, mode: mode_t) throws {
        let (folder, name) = Self.split(path)
        let directory = try openFolder(folder, for: path, create: true)
        defer { close(directory) }
        let fd = openat(directory, String(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw WorkTreeError.systemCallFailed(path: display(path), operation: "create", code: errno) }
        defer { close(fd) }
        guard AtomicFile.writeAll(fd, data) else { throw WorkTreeError.systemCallFailed(path: display(path), operation: "write", code: errno) }
    }
}
