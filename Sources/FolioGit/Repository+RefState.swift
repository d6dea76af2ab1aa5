import CGit2
import FoundationEssentials
import FolioBasics
import Glibc

/// What a loose ref's file in the git folder holds, read without libgit2 (which reports a folder as a missing ref and
/// an empty or garbled file only as "corrupted").
public enum RefFileState: Sendable, Equatable {
    /// No file (the ref may still be in `packed-refs`).
    case absent
    /// A folder where the file should be; `holding` lists the files under it (other refs), empty when it holds none.
    case folder(holding: [String])
    case emptyFile
    /// Bytes that are neither an object id nor `ref: refs/…`.
    case garbage
    /// The file could not be read (why).
    case unreadable(String)
    case direct(ObjectID)
    case symbolic(String)
}

/// What kind of object an id names, as the object database says.
public enum ObjectKind: String, Sendable, Equatable {
    case commit, tree, blob, tag
}

extension Repository {
    /// What the loose ref file `name` (`HEAD`, `refs/heads/main`) holds. (Every change reads HEAD through it: one
    /// `open` and `read`, no Foundation file API.)
    public func refFileState(_ name: String) -> RefFileState {
        let path = gitDirectoryPath + name
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: return .absent
            case ELOOP: return .unreadable("a symbolic link")
            default: return .unreadable(String(cString: strerror(errno)))
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        if info.st_mode & S_IFMT == S_IFDIR { return .folder(holding: filesBeneath(name)) }
        // A ref is an id or `ref: refs/…` and a newline; anything much longer is not one.
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = read(fd, &buffer, buffer.count)
        guard count >= 0 else { return .unreadable(String(cString: strerror(errno))) }
        guard count < buffer.count, let text = String(validating: buffer[..<count], as: UTF8.self)?.trimming(.whitespacesAndNewlines) else {
            return .garbage
        }
        if text.isEmpty { return .emptyFile }
        if text.hasPrefix("ref: ") {
            let target = String(text.dropFirst(5)).trimming(.whitespaces)
            return target.hasPrefix("refs/") && !target.contains("\n") ? .symbolic(target) : .garbage
        }
        return ObjectID(hex: text).map(RefFileState.direct) ?? .garbage
    }

    /// The files (not folders) beneath the git folder's `folder`, as names relative to the git folder, depth first
    /// in name order; a link is a file here (never followed).
    func filesBeneath(_ folder: String) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: gitDirectoryPath + folder) else { return [] }
        var files: [String] = []
        for entry in entries.sorted() {
            let name = folder + "/" + entry
            var info = stat()
            guard lstat(gitDirectoryPath + name, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR { files += filesBeneath(name) } else { files.append(name) }
        }
        return files
    }

    /// The kind of object `id` names, nil when the object database does not hold it.
    public func objectKind(_ id: ObjectID) throws -> ObjectKind? {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        defer { git_odb_free(odb) }
        var size = 0
        var type = GIT_OBJECT_INVALID
        let code = id.withOID { git_odb_read_header(&size, &type, odb, $0) }
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "read object header", id.hex)
        switch type {
        case GIT_OBJECT_COMMIT: return .commit
        case GIT_OBJECT_TREE: return .tree
        case GIT_OBJECT_BLOB: return .blob
        case GIT_OBJECT_TAG: return .tag
        default: return nil
        }
    }

    /// The branches the git folder holds, as full names: the entries of `refs/heads` (files or folders, broken or
    /// not) and the branches in `packed-refs`.
    public func branchNamesOnDisk() -> [String] {
        let loose = (try? FileManager.default.contentsOfDirectory(atPath: gitDirectoryPath + "refs/heads")) ?? []
        var names = Set(loose.map { "refs/heads/" + $0 })
        if let data = FileManager.default.contents(atPath: gitDirectoryPath + "packed-refs") {
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                if parts.count == 2, parts[1].hasPrefix("refs/heads/") { names.insert(String(parts[1])) }
            }
        }
        return names.sorted()
    }

    /// Removes a loose ref that cannot be read (an empty or garbled file, or a folder holding no ref) so that it
    /// can be written again; anything else is left alone. Throws when a folder holds other refs.
    public func removeBrokenLooseReference(_ name: String) throws {
        let path = gitDirectoryPath + name
        switch refFileState(name) {
        case .emptyFile, .garbage:
            guard unlink(path) == 0 else { throw FileSystemError.errno("remove broken ref \(name)", path: displayPath) }
        case let .folder(holding) where holding.isEmpty:
            do { try FileManager.default.removeItem(atPath: path) } catch {
                throw FileSystemError(operation: "remove folder \(name)", path: displayPath, reason: "\(errorText(error))")
            }
        case let .folder(holding):
            throw FileSystemError(operation: "remove folder \(name)", path: displayPath, reason: "it holds other refs (\(holding.joined(separator: ", ")))")
        case .absent, .unreadable, .direct, .symbolic:
            return
        }
    }

    /// Makes HEAD name `branch` (`refs/heads/main`), whatever HEAD held. libgit2 reads the old HEAD first and stops
    /// on an empty or garbled one: that one is replaced as git replaces a ref, through `HEAD.lock` (created
    /// exclusively, so no other writer is under way) renamed over it.
    public func pointHead(at branch: String, logMessage: String) throws {
        var ref: OpaquePointer?
        let code = git_reference_symbolic_create(&ref, pointer, "HEAD", branch, 1, logMessage)
        git_reference_free(ref)
        if code < 0, [.emptyFile, .garbage].contains(refFileState("HEAD")) { return try replaceHead(with: "ref: \(branch)\n") }
        try check(code, "point HEAD at \(branch)", displayPath)
    }

    private func replaceHead(with text: String) throws {
        let head = gitDirectoryPath + "HEAD"
        let display = displayPath
        let failed = { (step: String) in
            FileSystemError.errno("point HEAD at a branch", path: display, step: step)
        }
        let fd = Glibc.open(head + ".lock", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failed("create HEAD.lock") }
        let bytes = Array(text.utf8)
        let written = write(fd, bytes, bytes.count)
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(head + ".lock", head) == 0 else {
            let error = failed("write HEAD")
            unlink(head + ".lock")
            throw error
        }
    }
}
