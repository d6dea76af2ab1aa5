import CGit2
import FoundationEssentials
import Glibc

/// An object refused by `GitObjectRules`: the commit that brought it (when known), the object, where it sits in that
/// commit's tree, and why. Names are untrusted text: whoever prints this shows them as text.
public struct RefusedObject: Error, Sendable, Equatable, CustomStringConvertible {
    /// The commit whose tree (or header) holds the problem; nil for a tree or tag found on its own.
    public let commit: ObjectID?
    /// The object refused (a commit, tree or tag; a file, when too large).
    public let object: ObjectID
    /// The entry's path from the root of the commit's tree, when the problem is an entry.
    public let path: String?
    public let problem: GitObjectProblem

    public init(commit: ObjectID?, object: ObjectID, path: String?, problem: GitObjectProblem) {
        self.commit = commit
        self.object = object
        self.path = path
        self.problem = problem
    }

    public var description: String {
        let which = commit.map { "commit \($0.short)" } ?? "object \(object.short)"
        guard let path else { return "\(which): \(problem)" }
        if case .blobTooLarge = problem, commit != nil { return "\(which): '\(path)' (file \(object.short)): \(problem)" }
        return "\(which): '\(path)': \(problem)"
    }
}

/// The object database of a repository, read raw (the bytes git hashed), for checking objects before they are used.
final class ObjectDatabase {
    let pointer: OpaquePointer

    init(_ repository: Repository) throws {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, repository.pointer), "open object database", repository.displayPath)
        guard let odb else { throw GitError(operation: "open object database", subject: repository.displayPath, message: "no handle") }
        pointer = odb
    }

    /// Takes ownership of an object database made elsewhere.
    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { git_odb_free(pointer) }

    /// Calls `body` with the object's type and raw bytes (valid for the call).
    func withObject<R>(_ id: ObjectID, _ body: (git_object_t, UnsafeRawBufferPointer) throws -> R) throws -> R {
        var object: OpaquePointer?
        try id.withOID { try check(git_odb_read(&object, pointer, $0), "read object", id.hex) }
        defer { git_odb_object_free(object) }
        let bytes = UnsafeRawBufferPointer(start: git_odb_object_data(object), count: git_odb_object_size(object))
        return try body(git_odb_object_type(object), bytes)
    }
}

/// Checks trees with `GitObjectRules` from a tree already trusted to a new one, reading only the subtrees that differ
/// (so the cost follows the size of the change, not of the document), and remembering the trees it passed.
final class TreeChecker {
    let odb: ObjectDatabase
    /// Names refused beyond git's rules (Folio's temporary files).
    let reserved: ReservedNamePrefixes?
    /// Whether every new or changed symbolic link must stay inside the tree (`GitObjectRules.linkProblem`).
    let linksStayInside: Bool
    /// The trees passed, each with the fewest folders above it it passed at: a link's `..` allowance grows with its
    /// depth, so a tree passed deeper is checked again nearer the root.
    private(set) var passed: [ObjectID: Int] = [:]
    /// A file refused on its own (too large): an entry that newly names it is refused with its path.
    var refusedBlob: (id: ObjectID, problem: GitObjectProblem)? {
        didSet { refusedBlobBytes = refusedBlob?.id.bytes }
    }
    private var refusedBlobBytes: [UInt8]?

    init(odb: ObjectDatabase, reserved: ReservedNamePrefixes?, linksStayInside: Bool = false) {
        self.odb = odb
        self.reserved = reserved
        self.linksStayInside = linksStayInside
    }

    /// Checks `tree` (of `commit`) where it differs from `base`; throws `RefusedObject`.
    func check(_ tree: ObjectID, base: ObjectID?, commit: ObjectID?, prefix: String = "", depth: Int = 0) throws {
        if tree == base { return }
        if let passedAt = passed[tree], passedAt <= depth || !linksStayInside { return }
        let entries = try parsed(tree, commit: commit, prefix: prefix)
        let baseEntries = base.flatMap { try? trustedEntries($0) } ?? []
        var b = 0
        for entry in entries {
            if let reserved, reserved.matches(entry.name.utf8) {
                throw RefusedObject(commit: commit, object: tree, path: prefix + entry.name, problem: .reservedName(reserved.why))
            }
            // Both lists are in git's order: advance the base to this name.
            while b < baseEntries.count,
                  GitObjectRules.compareTreeNames(baseEntries[b].name.utf8[...], baseEntries[b].kind == .tree, entry.name.utf8[...], entry.kind == .tree) < 0 {
                b += 1
            }
            let same = b < baseEntries.count && baseEntries[b].name == entry.name && baseEntries[b].kind == entry.kind ? baseEntries[b] : nil
            if let refusedBlob, entry.kind != .tree, entry.id == refusedBlobBytes, same?.id != entry.id {
                throw RefusedObject(commit: commit, object: refusedBlob.id, path: prefix + entry.name, problem: refusedBlob.problem)
            }
            if linksStayInside, entry.kind == .symlink, same?.id != entry.id {
                try checkLink(entry, depth: depth, commit: commit, path: prefix + entry.name)
            }
            guard entry.kind == .tree, same?.id != entry.id, let id = ObjectID(rawBytes: entry.id) else { continue }
            try check(id, base: same.flatMap { ObjectID(rawBytes: $0.id) }, commit: commit, prefix: prefix + entry.name + "/", depth: depth + 1)
        }
        passed[tree] = min(passed[tree] ?? depth, depth)
    }

    /// Refuses a link `depth` folders down whose target leads out of the tree (absolute, or climbing past the root).
    private func checkLink(_ entry: RawTreeEntry, depth: Int, commit: ObjectID?, path: String) throws {
        guard let id = ObjectID(rawBytes: entry.id) else { return }
        let found: (target: String, problem: LinkTargetProblem)? = try odb.withObject(id) { type, bytes in
            guard type == GIT_OBJECT_BLOB else { return ("", .malformed) }
            let target = bytes.prefix(GitObjectRules.longestLinkTarget + 1)
            return GitObjectRules.linkProblem(target: target, depth: depth).map { (String(decoding: target, as: UTF8.self), $0) }
        }
        guard let found else { return }
        throw RefusedObject(commit: commit, object: id, path: path, problem: .linkLeavesTree(target: found.target, found.problem))
    }

    private func parsed(_ tree: ObjectID, commit: ObjectID?, prefix: String) throws -> [RawTreeEntry] {
        try odb.withObject(tree) { type, bytes in
            guard type == GIT_OBJECT_TREE else {
                throw RefusedObject(commit: commit, object: tree, path: prefix.isEmpty ? nil : String(prefix.dropLast()),
                                    problem: .malformedTree("a folder entry that names no tree"))
            }
            do throws(GitObjectRejection) { return try GitObjectRules.parseTree(bytes) } catch {
                throw RefusedObject(commit: commit, object: tree, path: error.name.map { prefix + $0 }, problem: error.problem)
            }
        }
    }

    /// A base tree's entries; a base that does not parse counts as empty, so everything new is checked.
    private func trustedEntries(_ tree: ObjectID) throws -> [RawTreeEntry] {
        try odb.withObject(tree) { type, bytes in type == GIT_OBJECT_TREE ? try GitObjectRules.parseTree(bytes) : [] }
    }
}

extension Repository {
    /// Checks that `tree` may be written to a work tree that shows `base`: every entry that differs from `base`, at
    /// any depth, passes `GitObjectRules` and is not `reserved`. Throws `RefusedObject` naming the entry.
    /// With `linksStayInside`, every new or changed symbolic link must also stay inside the tree.
    public func checkTree(_ tree: ObjectID, against base: ObjectID?, commit: ObjectID? = nil, reserved: ReservedNamePrefixes? = nil,
                          linksStayInside: Bool = false) throws {
        let checker = TreeChecker(odb: try ObjectDatabase(self), reserved: reserved, linksStayInside: linksStayInside)
        try checker.check(tree, base: base, commit: commit)
    }
}

extension ObjectID {
    /// An id from its 20 raw bytes; nil for any other length.
    init?(rawBytes: [UInt8]) {
        guard rawBytes.count == 20 else { return nil }
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { raw in for i in 0..<20 { raw[i] = rawBytes[i] } }
        self.init(oid)
    }
}
