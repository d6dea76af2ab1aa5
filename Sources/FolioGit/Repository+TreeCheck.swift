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
    private(set) var passed: Set<ObjectID> = []
    /// A file refused on its own (too large): an entry that newly names it is refused with its path.
    var refusedBlob: (id: ObjectID, problem: GitObjectProblem)? {
        didSet { refusedBlobBytes = refusedBlob?.id.bytes }
    }
    private var refusedBlobBytes: [UInt8]?

    init(odb: ObjectDatabase, reserved: ReservedNamePrefixes?) {
        self.odb = odb
        self.reserved = reserved
    }

    /// Checks `tree` (of `commit`) where it differs from `base`; throws `RefusedObject`.
    func check(_ tree: ObjectID, base: ObjectID?, commit: ObjectID?, prefix: String = "") throws {
        if tree == base || passed.contains(tree) { return }
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
            guard entry.kind == .tree, same?.id != entry.id, let id = ObjectID(rawBytes: entry.id) else { continue }
            try check(id, base: same.flatMap { ObjectID(rawBytes: $0.id) }, commit: commit, prefix: prefix + entry.name + "/")
        }
        passed.insert(tree)
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
    public func checkTree(_ tree: ObjectID, against base: ObjectID?, commit: ObjectID? = nil, reserved: ReservedNamePrefixes? = nil) throws {
        let checker = TreeChecker(odb: try ObjectDatabase(self), reserved: reserved)
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
