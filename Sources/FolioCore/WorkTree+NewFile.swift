import FoundationEssentials
import Glibc

/// Creates new files straight under their names (`O_CREAT | O_EXCL`, no temporary name and rename), beneath a work
/// tree's root without following links. Only for a folder no one else sees yet — a new document being built in its
/// hidden staging folder, which is removed whole on any error — where a half-written file cannot be observed.
/// The folder of the last file stays open: files arrive sorted by path, so a folder is opened (and checked for
/// links) once per run of its files rather than once per file. Used by one thread.
final class NewFileWriter {
    private let tree: WorkTree
    private var folder: Substring?
    private var folderDescriptor: Int32 = -1

    init(_ tree: WorkTree) { self.tree = tree }

    deinit { if folderDescriptor >= 0 { close(folderDescriptor) } }

    /// Creates `path` with `data` and returns what `fstat` says of it once written (for the index).
    func write(_ data: Data, to path: String, mode: mode_t) throws -> stat {
        let (folder, name) = WorkTree.split(path)
        let directory = try descriptor(of: folder, for: path)
        let fd = openat(directory, String(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw WorkTreeError.systemCallFailed(path: tree.display(path), operation: "create", code: errno) }
        defer { close(fd) }
        guard AtomicFile.writeAll(fd, data) else { throw WorkTreeError.systemCallFailed(path: tree.display(path), operation: "write", code: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw WorkTreeError.systemCallFailed(path: tree.display(path), operation: "stat", code: errno) }
        return info
    }

    private func descriptor(of folder: Substring, for path: String) throws -> Int32 {
        if folderDescriptor >= 0, self.folder == folder { return folderDescriptor }
        if folderDescriptor >= 0 { close(folderDescriptor); folderDescriptor = -1 }
        folderDescriptor = try tree.openFolder(folder, for: path, create: true)
        self.folder = folder
        return folderDescriptor
    }
}
