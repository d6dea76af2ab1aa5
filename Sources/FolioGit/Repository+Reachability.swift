import CGit2
import FoundationEssentials
import FolioBasics
import Glibc

/// Why maintenance refused to delete anything: it could not prove what history needs.
public enum MaintenanceError: Error, CustomStringConvertible, LocalizedError, Sendable, Equatable {
    /// A ref (HEAD, a file under `refs/`, a `packed-refs` line) is unreadable, malformed or dangling.
    case unreadableReference(repository: String, reference: String, reason: String)
    /// A ref names an object that is not in the repository: history is already damaged.
    case missingObject(repository: String, reference: String, object: String)
    /// The index could not be read, so the objects it names are unknown.
    case unreadableIndex(repository: String, reason: String)
    /// A pack Folio wrote could not be made durable or read back.
    case packNotDurable(repository: String, pack: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadableReference(repository, reference, reason):
            return "\(repository): ref \(reference) cannot be read (\(reason)); nothing was deleted"
        case let .missingObject(repository, reference, object):
            return "\(repository): ref \(reference) names object \(object), which is missing; nothing was deleted"
        case let .unreadableIndex(repository, reason):
            return "\(repository): the index cannot be read (\(reason)); nothing was deleted"
        case let .packNotDurable(repository, pack, reason):
            return "\(repository): pack \(pack) could not be written safely (\(reason)); nothing was deleted"
        }
    }

    public var errorDescription: String? { description }
}

/// An object history depends on, and where it was found (for errors).
public struct ReachabilityRoot: Sendable, Equatable {
    public let id: ObjectID
    public let source: String
    /// Whether the object must exist (a ref's target) or is kept only if present (a reflog entry, a pseudo-ref).
    public let required: Bool
}

extension Repository {
    /// Every object the history depends on, read without skipping anything: HEAD, every file under `refs/`
    /// (lock files holding an id count too), every `packed-refs` line, reflogs, pseudo-refs such as `ORIG_HEAD`,
    /// and the index. libgit2's ref iteration silently skips a broken ref, so the files are read here: anything
    /// unreadable, malformed or dangling throws a `MaintenanceError` naming it, and nothing may then be deleted.
    public func reachabilityRoots() throws -> [ReachabilityRoot] {
        var roots: [ReachabilityRoot] = []
        var loose: Set<String> = []
        try collectLooseReferences(folder: "refs", into: &roots, names: &loose)
        try roots += packedReferenceRoots(shadowedBy: loose)
        try roots.append(headRoot())
        roots += reflogRoots(folder: "logs") + pseudoReferenceRoots()
        try roots += indexRoots()
        try verifyExistence(of: roots)
        return roots
    }

    private enum RefValue { case direct(ObjectID), symbolic(String) }

    private func parseRefValue(_ data: Data) -> RefValue? {
        guard let text = String(data: data, encoding: .utf8)?.trimming(.whitespacesAndNewlines) else { return nil }
        if text.hasPrefix("ref: ") {
            let target = String(text.dropFirst(5)).trimming(.whitespaces)
            return target.hasPrefix("refs/") && !target.contains("\n") ? .symbolic(target) : nil
        }
        return ObjectID(hex: text).map(RefValue.direct)
    }

    private func readGitFile(_ relative: String) throws -> Data? {
        let path = gitDirectoryPath + relative
        var info = stat()
        if lstat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw MaintenanceError.unreadableReference(repository: displayPath, reference: relative, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw MaintenanceError.unreadableReference(repository: displayPath, reference: relative, reason: "not a regular file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MaintenanceError.unreadableReference(repository: displayPath, reference: relative, reason: "cannot be read")
        }
        return data
    }

    /// The object a symbolic ref leads to; throws when it leads nowhere.
    private func resolveSymbolic(_ target: String, from name: String) throws -> ObjectID {
        var oid = git_oid()
        let code = git_reference_name_to_id(&oid, pointer, target)
        guard code == 0 else {
            let reason = code == GIT_ENOTFOUND.rawValue ? "it points at \(target), which does not exist"
                : "it points at \(target), which cannot be resolved"
            throw MaintenanceError.unreadableReference(repository: displayPath, reference: name, reason: reason)
        }
        return ObjectID(oid)
    }

    private func headRoot() throws -> ReachabilityRoot {
        guard let data = try readGitFile("HEAD") else {
            throw MaintenanceError.unreadableReference(repository: displayPath, reference: "HEAD", reason: "missing")
        }
        switch parseRefValue(data) {
        case let .direct(id)?: return ReachabilityRoot(id: id, source: "HEAD", required: true)
        case let .symbolic(target)?: return ReachabilityRoot(id: try resolveSymbolic(target, from: "HEAD"), source: "HEAD", required: true)
        case nil: throw MaintenanceError.unreadableReference(repository: displayPath, reference: "HEAD", reason: "not a ref or object id")
        }
    }

    private func collectLooseReferences(folder: String, into roots: inout [ReachabilityRoot], names: inout Set<String>) throws {
        let entries: [String]
        do { entries = try FileManager.default.contentsOfDirectory(atPath: gitDirectoryPath + folder) } catch {
            if folder == "refs", access(gitDirectoryPath + folder, F_OK) != 0 { return }
            throw MaintenanceError.unreadableReference(repository: displayPath, reference: folder + "/", reason: "folder cannot be listed")
        }
        for entry in entries.sorted() {
            let name = folder + "/" + entry
            var info = stat()
            guard lstat(gitDirectoryPath + name, &info) == 0 else {
                throw MaintenanceError.unreadableReference(repository: displayPath, reference: name, reason: String(cString: strerror(errno)))
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                try collectLooseReferences(folder: name, into: &roots, names: &names)
            } else if entry.hasSuffix(".lock") {
                // A ref being written (or left by a killed writer): its new value is kept if it is an id.
                if let data = FileManager.default.contents(atPath: gitDirectoryPath + name), case let .direct(id)? = parseRefValue(data) {
                    roots.append(ReachabilityRoot(id: id, source: name, required: false))
                }
            } else {
                guard let data = try readGitFile(name) else {
                    throw MaintenanceError.unreadableReference(repository: displayPath, reference: name, reason: "vanished while read")
                }
                names.insert(name)
                switch parseRefValue(data) {
                case let .direct(id)?: roots.append(ReachabilityRoot(id: id, source: name, required: true))
                case let .symbolic(target)?: roots.append(ReachabilityRoot(id: try resolveSymbolic(target, from: name), source: name, required: true))
                case nil:
                    let reason = data.isEmpty ? "empty file" : "not an object id"
                    throw MaintenanceError.unreadableReference(repository: displayPath, reference: name, reason: reason)
                }
            }
        }
    }

    /// The ids in `packed-refs`; a ref also stored loose is only kept if its packed object is still there.
    private func packedReferenceRoots(shadowedBy loose: Set<String>) throws -> [ReachabilityRoot] {
        guard let data = try readGitFile("packed-refs") else { return [] }
        guard let text = String(data: data, encoding: .utf8) else {
            throw MaintenanceError.unreadableReference(repository: displayPath, reference: "packed-refs", reason: "not UTF-8 text")
        }
        var roots: [ReachabilityRoot] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let where_ = "packed-refs line \(number + 1)"
            if line.hasPrefix("^") {
                guard let id = ObjectID(hex: String(line.dropFirst())) else {
                    throw MaintenanceError.unreadableReference(repository: displayPath, reference: where_, reason: "not a peeled object id")
                }
                roots.append(ReachabilityRoot(id: id, source: where_, required: false))
                continue
            }
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let id = ObjectID(hex: String(parts[0])), parts[1].hasPrefix("refs/") else {
                throw MaintenanceError.unreadableReference(repository: displayPath, reference: where_, reason: "not \"<id> refs/…\"")
            }
            let name = String(parts[1])
            roots.append(ReachabilityRoot(id: id, source: name, required: !loose.contains(name)))
        }
        return roots
    }

    /// Old and new ids of every reflog entry (kept when present; git keeps them too).
    private func reflogRoots(folder: String) -> [ReachabilityRoot] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: gitDirectoryPath + folder) else { return [] }
        var roots: [ReachabilityRoot] = []
        for entry in entries {
            let name = folder + "/" + entry
            var isDirectory: Bool = false
            guard FileManager.default.fileExists(atPath: gitDirectoryPath + name, isDirectory: &isDirectory) else { continue }
            if isDirectory { roots += reflogRoots(folder: name); continue }
            guard let data = FileManager.default.contents(atPath: gitDirectoryPath + name) else { continue }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                for word in line.split(separator: " ").prefix(2) {
                    if !word.allSatisfy({ $0 == "0" }), let id = ObjectID(hex: String(word)) { roots.append(ReachabilityRoot(id: id, source: name, required: false)) }
                }
            }
        }
        return roots
    }

    private func pseudoReferenceRoots() -> [ReachabilityRoot] {
        var roots: [ReachabilityRoot] = []
        for name in ["ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD"] {
            guard let data = FileManager.default.contents(atPath: gitDirectoryPath + name) else { continue }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                if let id = ObjectID(hex: String(line.prefix(40))) { roots.append(ReachabilityRoot(id: id, source: name, required: false)) }
            }
        }
        return roots
    }

    /// The blobs the index names (a file staged but not yet committed).
    private func indexRoots() throws -> [ReachabilityRoot] {
        let path = gitDirectoryPath + "index"
        guard access(path, F_OK) == 0 else { return [] }
        var index: OpaquePointer?
        guard git_index_open(&index, path) == 0, let index else {
            let reason = git_error_last().flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unreadable"
            throw MaintenanceError.unreadableIndex(repository: displayPath, reason: reason)
        }
        defer { git_index_free(index) }
        var roots: [ReachabilityRoot] = []
        for position in 0..<git_index_entrycount(index) {
            guard let entry = git_index_get_byindex(index, position) else { continue }
            // Gitlinks (submodules) name commits of another repository.
            if entry.pointee.mode == 0o160000 { continue }
            roots.append(ReachabilityRoot(id: ObjectID(entry.pointee.id), source: "index", required: false))
        }
        return roots
    }

    private func verifyExistence(of roots: [ReachabilityRoot]) throws {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        defer { git_odb_free(odb) }
        for root in roots where root.required {
            let exists = root.id.withOID { git_odb_exists(odb, $0) } == 1
            if !exists { throw MaintenanceError.missingObject(repository: displayPath, reference: root.source, object: root.id.hex) }
        }
    }

    /// Whether the object database holds `id`.
    public func hasObject(_ id: ObjectID) throws -> Bool {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        defer { git_odb_free(odb) }
        return id.withOID { git_odb_exists(odb, $0) } == 1
    }
}
