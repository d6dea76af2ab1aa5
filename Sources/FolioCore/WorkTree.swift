import FoundationEssentials
import FolioBasics
import Glibc

/// A document's work tree, written strictly beneath its root: every folder on the way to a file is opened relative
/// to the one before without following symbolic links (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`,
/// else one `openat(O_NOFOLLOW | O_DIRECTORY)` per folder), and files are created, renamed and removed relative to
/// their folder's descriptor. A link anywhere on the way refuses the write, so nothing lands outside the document.
struct WorkTree {
    /// The longest file name (`NAME_MAX` on Linux file systems).
    static let nameMax = 255
    /// The longest path including its terminating NUL (`PATH_MAX`).
    static let pathMax = 4096

    /// The root folder, ending in "/".
    let rootPath: String
    /// The root as the user named it, for messages (no trailing "/").
    let displayRoot: String

    init(rootPath: String, displayRoot: String) {
        self.rootPath = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        self.displayRoot = displayRoot
    }

    /// The path the user sees for `relative`.
    func display(_ relative: some StringProtocol) -> String { displayRoot + "/" + relative }

    // MARK: Checks before a change

    /// Refuses names and paths the file system cannot hold, and names Folio reserves for its temporary files.
    func checkNames(_ path: String) throws {
        for name in path.split(separator: "/") {
            if name.utf8.count > Self.nameMax { throw WorkTreeError.nameTooLong(path: display(path), name: String(name), bytes: name.utf8.count) }
            if Self.isReserved(name) { throw WorkTreeError.reservedName(path: display(path), name: String(name)) }
        }
        let total = rootPath.utf8.count + path.utf8.count
        if total >= Self.pathMax { throw WorkTreeError.pathTooLong(path: display(path), bytes: total) }
    }

    /// Checks that files can be written at `writes` and that `removals` happen first: names and lengths, no link on
    /// the way, no file where a folder must be (in the work tree or among the writes), no folder where a file goes.
    func check(writes: [String], removals: [String]) throws {
        let removed = Set(removals)
        let written = Set(writes)
        for path in writes {
            try checkNames(path)
            for folder in Self.folders(of: path) {
                let name = String(folder)
                if written.contains(name) { throw WorkTreeError.notAFolder(path: display(path), file: name) }
                // A path removed first, or missing, leaves nothing in the way below it.
                guard !removed.contains(name), let kind = kind(of: folder) else { break }
                switch kind {
                case .folder: continue
                case .link: throw WorkTreeError.linkInPath(path: display(path), link: name)
                case .file: throw WorkTreeError.notAFolder(path: display(path), file: name)
                }
            }
            if kind(of: Substring(path)) == .folder, !removals.contains(where: { $0.hasPrefix(path + "/") }) {
                throw WorkTreeError.isAFolder(path: display(path))
            }
        }
    }

    /// The folders on the way to `path`, outermost first ("a", "a/b" for "a/b/c").
    static func folders(of path: String) -> [Substring] {
        var prefix = Substring(path)
        var folders: [Substring] = []
        while let slash = prefix.lastIndex(of: "/") {
            prefix = prefix[..<slash]
            folders.append(prefix)
        }
        return folders.reversed()
    }

    enum Kind { case file, folder, link }

    /// What is at `relative` (not following a link there; folders before it are checked first by the caller).
    func kind(of relative: Substring) -> Kind? {
        var info = stat()
        guard lstat(rootPath + relative, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .file
        }
    }

    // MARK: Writing

    /// Writes `data` to `path` atomically (a short temporary name beside it, fsync per `sync`, rename), with
    /// `mode` before the umask, as git checks files out.
    func write(_ data: Data, to path: String, mode: mode_t, sync: Bool) throws {
        let (folder, name) = Self.split(path)
        let directory = try openFolder(folder, for: path, create: true)
        defer { close(directory) }
        let temporary = Self.temporaryName()
        let fd = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure(path, "create") }
        var ok = false
        defer { if !ok { unlinkat(directory, temporary, 0) } }
        if !AtomicFile.writeAll(fd, data) { let error = failure(path, "write"); close(fd); throw error }
        if sync, fsync(fd) != 0 { let error = failure(path, "fsync"); close(fd); throw error }
        close(fd)
        try rename(temporary, to: name, in: directory, path: path)
        ok = true
        if sync { fsync(directory) }
    }

    /// Makes `path` a symbolic link to `target` (created under a temporary name, then renamed into place).
    func writeLink(_ target: String, to path: String, sync: Bool) throws {
        let (folder, name) = Self.split(path)
        let directory = try openFolder(folder, for: path, create: true)
        defer { close(directory) }
        let temporary = Self.temporaryName()
        guard symlinkat(target, directory, temporary) == 0 else { throw failure(path, "create link") }
        do { try rename(temporary, to: name, in: directory, path: path) } catch {
            unlinkat(directory, temporary, 0)
            throw error
        }
        if sync { fsync(directory) }
    }

    private func rename(_ temporary: String, to name: Substring, in directory: Int32, path: String) throws {
        guard renameat(directory, temporary, directory, String(name)) == 0 else {
            if errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST { throw WorkTreeError.isAFolder(path: display(path)) }
            throw failure(path, "rename")
        }
    }

    /// Removes the file or link at `path` and the folders it leaves empty; does nothing when it is not there or a
    /// link is on the way.
    func remove(_ path: String) {
        let (folder, name) = Self.split(path)
        let parts = folder.split(separator: "/")
        guard let root = openRoot() else { return }
        var chain: [Int32] = [root]
        defer { chain.forEach { close($0) } }
        for part in parts {
            guard let last = chain.last else { return }
            let next = openat(last, String(part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return }
            chain.append(next)
        }
        guard let last = chain.last, unlinkat(last, String(name), 0) == 0 || errno == ENOENT else { return }
        // Folders the removal left empty go too, up to the document's root.
        for depth in stride(from: parts.count - 1, through: 0, by: -1) {
            guard unlinkat(chain[depth], String(parts[depth]), AT_REMOVEDIR) == 0 else { return }
        }
    }

    /// The bytes of the file at `path` (nil when missing, a link, a folder, or behind a link).
    func read(_ path: String) -> Data? {
        let (folder, name) = Self.split(path)
        guard let directory = try? openFolder(folder, for: path, create: false) else { return nil }
        defer { close(directory) }
        let fd = openat(directory, String(name), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return data }
            data.append(contentsOf: buffer[..<n])
        }
    }

    /// The target of the link at `path`, nil when it is not a link (or is behind one).
    func linkTarget(_ path: String) -> String? {
        let (folder, name) = Self.split(path)
        guard let directory = try? openFolder(folder, for: path, create: false) else { return nil }
        defer { close(directory) }
        var buffer = [CChar](repeating: 0, count: Self.pathMax + 1)
        let n = readlinkat(directory, String(name), &buffer, Self.pathMax)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether anything (file, link or folder) is at `path`, looked up without following links.
    func exists(_ path: String) -> Bool {
        let (folder, name) = Self.split(path)
        guard let directory = try? openFolder(folder, for: path, create: false) else { return false }
        defer { close(directory) }
        var info = stat()
        return fstatat(directory, String(name), &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    // MARK: Folders beneath the root

    private func openRoot() -> Int32? {
        let fd = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }

    /// Opens the folder `folder` (relative, "" for the root) beneath the root without following any link, creating
    /// missing folders when `create` is set. `path` is the file the caller is about, for errors.
    func openFolder(_ folder: Substring, for path: String, create: Bool) throws -> Int32 {
        guard let root = openRoot() else { throw WorkTreeError.systemCallFailed(path: displayRoot, operation: "open folder", code: errno) }
        if folder.isEmpty { return root }
        if let fd = openBeneath(root, String(folder)) { close(root); return fd }
        var current = root
        var walked = Substring()
        for part in folder.split(separator: "/") {
            walked = walked.isEmpty ? part : folder[folder.startIndex..<part.endIndex]
            var next = openat(current, String(part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && create {
                if mkdirat(current, String(part), 0o777) != 0 && errno != EEXIST {
                    let error = failure(String(walked), "create folder")
                    close(current)
                    throw error
                }
                next = openat(current, String(part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let code = errno
                var info = stat()
                let isLink = fstatat(current, String(part), &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
                close(current)
                if isLink { throw WorkTreeError.linkInPath(path: display(path), link: String(walked)) }
                if code == ENOTDIR || code == ELOOP { throw WorkTreeError.notAFolder(path: display(path), file: String(walked)) }
                throw WorkTreeError.systemCallFailed(path: display(walked), operation: "open folder", code: code)
            }
            close(current)
            current = next
        }
        return current
    }

    /// One `openat2` call resolving `folder` beneath `root` with no link followed; nil when it fails for any reason
    /// (a missing folder, a link, or a kernel without `openat2`), and the caller walks the path part by part.
    private func openBeneath(_ root: Int32, _ folder: String) -> Int32? {
        var how = OpenHow(flags: UInt64(O_RDONLY | O_DIRECTORY | O_CLOEXEC), mode: 0,
                          resolve: OpenHow.resolveBeneath | OpenHow.resolveNoSymlinks | OpenHow.resolveNoMagiclinks)
        let fd = folder.withCString { name in
            withUnsafeMutablePointer(to: &how) { pointer in
                linuxSyscall(OpenHow.systemCallNumber, Int(root), Int(bitPattern: name), Int(bitPattern: pointer), MemoryLayout<OpenHow>.size)
            }
        }
        return fd >= 0 ? Int32(truncatingIfNeeded: fd) : nil
    }

    // MARK: Helpers

    private func failure(_ relative: some StringProtocol, _ operation: String) -> WorkTreeError {
        .systemCallFailed(path: display(relative), operation: operation, code: errno)
    }

    /// The folder part ("" at the root) and the name of a relative path.
    static func split(_ path: String) -> (folder: Substring, name: Substring) {
        guard let slash = path.lastIndex(of: "/") else { return (Substring(), Substring(path)) }
        return (path[..<slash], path[path.index(after: slash)...])
    }

    // MARK: Temporary files

    /// What every temporary file's name starts with. Names starting so are reserved: no file or folder of a document
    /// may have one (`checkNames` refuses them in every change, pull and merge; recording the work tree refuses
    /// them too), so a temporary file can never overwrite, or be mistaken for, a user's file.
    static let temporaryPrefix = ".folio-tmp-"

    /// A short temporary name (so that a file name of the full 255 bytes can still be written beside it):
    /// `.folio-tmp-PID-HEX`.
    static func temporaryName() -> String {
        temporaryPrefix + "\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// Whether `name` starts with the reserved prefix (compared as bytes, in every letter case, since a
    /// case-insensitive file system would take `.FOLIO-TMP-…` for the same name).
    static func isReserved(_ name: some StringProtocol) -> Bool {
        let prefix = temporaryPrefix.utf8
        guard name.utf8.count >= prefix.count else { return false }
        let lower: (UInt8) -> UInt8 = { (65...90).contains($0) ? $0 | 0x20 : $0 }
        return zip(name.utf8, prefix).allSatisfy { lower($0) == $1 }
    }

    /// Whether `name` is exactly a temporary name `temporaryName()` makes: the prefix, decimal digits, "-", 1 to 8
    /// lowercase hex digits.
    static func isTemporaryName(_ name: some StringProtocol) -> Bool {
        let bytes = Array(name.utf8)
        let prefix = Array(temporaryPrefix.utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return false }
        let rest = bytes[prefix.count...]
        guard let dash = rest.firstIndex(of: UInt8(ascii: "-")) else { return false }
        let pid = rest[..<dash], hex = rest[(dash + 1)...]
        let isDigit: (UInt8) -> Bool = { (48...57).contains($0) }
        let isHex: (UInt8) -> Bool = { isDigit($0) || (97...102).contains($0) }
        return (1...10).contains(pid.count) && pid.allSatisfy(isDigit) && (1...8).contains(hex.count) && hex.allSatisfy(isHex)
    }

    /// Removes the temporary files (and links) a killed writer left in `folders` (relative, "" for the root): each
    /// folder is opened beneath the root without following links, and only entries named exactly as
    /// `temporaryName()` names them, that are files or links, are removed (`unlinkat` never follows a link). Call
    /// holding the writer lock: every work-tree writer holds it, so whoever created them is dead. Returns how many
    /// were removed.
    @discardableResult
    func removeTemporaries(in folders: Set<String>) -> Int {
        var removed = 0
        for folder in folders {
            guard let directory = try? openFolder(Substring(folder), for: folder, create: false) else { continue }
            defer { close(directory) }
            for name in Self.entries(of: directory) where Self.isTemporaryName(name) {
                var info = stat()
                guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let type = info.st_mode & S_IFMT
                guard type == S_IFREG || type == S_IFLNK else { continue }
                if unlinkat(directory, name, 0) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// The names in the folder open at `directory` (the descriptor stays open and owned by the caller).
    static func entries(of directory: Int32) -> [String] {
        let copy = dup(directory)
        guard copy >= 0 else { return [] }
        guard let stream = fdopendir(copy) else { close(copy); return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// Linux's `struct open_how` for `openat2(2)`.
private struct OpenHow {
    var flags: UInt64
    var mode: UInt64
    var resolve: UInt64

    /// `SYS_openat2`: 437 on every Linux architecture (the unified system-call table).
    static let systemCallNumber = 437
    static let resolveNoMagiclinks: UInt64 = 0x02
    static let resolveNoSymlinks: UInt64 = 0x04
    static let resolveBeneath: UInt64 = 0x08
}

/// glibc's `syscall(2)`, which Swift cannot import because it is variadic. Escape hatch: every argument is passed
/// as a full register-sized integer, which is how the C calling convention passes these variadic integer and
/// pointer arguments on Linux (x86_64 and arm64), and glibc's `syscall` only moves registers into place.
@_silgen_name("syscall")
private func linuxSyscall(_ number: Int, _ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Int

/// Names Folio reserves for its work-tree temporary files (`WorkTree.temporaryPrefix`), for the modules that bring
/// files in without a change (a clone).
package enum ReservedNames {
    /// The first part of `path` starting with `.folio-tmp-` (in any letter case), nil when none does.
    package static func reservedPart(of path: String) -> String? {
        path.split(separator: "/").first(where: WorkTree.isReserved).map(String.init)
    }
}
