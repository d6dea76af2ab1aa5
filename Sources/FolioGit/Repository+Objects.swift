import CGit2
import FoundationEssentials
import Glibc

/// One entry of a tree, with its full path from the root.
public struct TreeEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case blob, tree, commit, other }
    public let path: String
    public let id: ObjectID
    /// The git file mode: 0o100644, 0o100755, 0o120000 (symlink), 0o040000 (tree).
    public let mode: UInt32
    public let kind: Kind

    public var isExecutable: Bool { mode == 0o100755 }
    public var isSymlink: Bool { mode == 0o120000 }

    public init(path: String, id: ObjectID, mode: UInt32, kind: Kind) {
        self.path = path; self.id = id; self.mode = mode; self.kind = kind
    }
}

/// A change to apply to a tree: put a blob at a path, or remove a path.
public enum TreeChange: Sendable {
    case upsert(path: String, blob: ObjectID, mode: UInt32)
    case remove(path: String)
}

extension Repository {
    // MARK: Blobs

    /// Writes `data` as a blob and returns its id.
    public func writeBlob(_ data: Data) throws -> ObjectID {
        // Through the object database in one call, not `git_blob_create_from_buffer`: that streams every blob
        // through a temporary object file even when the object exists (a snapshot of an unchanged 300-file folder
        // created, wrote and deleted 300 files), where `git_odb_write` hashes first and only freshens one it has.
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database", displayPath)
        defer { git_odb_free(odb) }
        var oid = git_oid()
        var empty: UInt8 = 0  // an empty blob still gets a valid pointer
        let code = data.isEmpty ? git_odb_write(&oid, odb, &empty, 0, GIT_OBJECT_BLOB) : data.withUnsafeBytes { buffer in
            git_odb_write(&oid, odb, buffer.baseAddress, buffer.count, GIT_OBJECT_BLOB)
        }
        try check(code, "write blob", displayPath)
        return ObjectID(oid)
    }

    /// Reads a blob's bytes.
    ///
    /// The bytes are libgit2's own, not a copy: the `Data` keeps the blob until it is released, so a file costs its
    /// size in memory once, not twice. Blobs are never in libgit2's object cache (its limit for blobs is 0), so the
    /// buffer is this `Data`'s alone.
    public func readBlob(_ id: ObjectID) throws -> Data {
        var blob: OpaquePointer?
        try id.withOID { try check(git_blob_lookup(&blob, pointer, $0), "read blob", id.hex) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let raw = git_blob_rawcontent(blob) else {
            git_blob_free(blob)
            return Data()
        }
        let owned = BlobHandle(blob)
        return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: raw), count: size, deallocator: .custom { _, _ in owned.free() })
    }

    // MARK: Trees

    /// The id of the empty tree (written if missing).
    public func emptyTree() throws -> ObjectID {
        var builder: OpaquePointer?
        try check(git_treebuilder_new(&builder, pointer, nil), "make tree builder", displayPath)
        defer { git_treebuilder_free(builder) }
        var oid = git_oid()
        try check(git_treebuilder_write(&oid, builder), "write empty tree", displayPath)
        return ObjectID(oid)
    }

    /// Returns a new tree: `base` (or the empty tree) with `changes` applied at any depth.
    public func updateTree(_ base: ObjectID?, _ changes: [TreeChange]) throws -> ObjectID {
        var tree: OpaquePointer?
        if let base { try base.withOID { try check(git_tree_lookup(&tree, pointer, $0), "read tree", base.hex) } }
        defer { git_tree_free(tree) }
        if changes.isEmpty { return try base ?? emptyTree() }
        var paths: [UnsafeMutablePointer<CChar>] = []
        defer { paths.forEach { free($0) } }
        var updates: [git_tree_update] = []
        for change in changes {
            var update = git_tree_update()
            switch change {
            case let .upsert(path, blob, mode):
                update.action = GIT_TREE_UPDATE_UPSERT
                update.id = blob.oid
                update.filemode = git_filemode_t(mode)
                guard let copy = strdup(path) else { throw GitError(operation: "update tree", message: "out of memory") }
                paths.append(copy)
                update.path = UnsafePointer(copy)
            case let .remove(path):
                update.action = GIT_TREE_UPDATE_REMOVE
                guard let copy = strdup(path) else { throw GitError(operation: "update tree", message: "out of memory") }
                paths.append(copy)
                update.path = UnsafePointer(copy)
            }
            updates.append(update)
        }
        var out = git_oid()
        try check(git_tree_create_updated(&out, pointer, tree, updates.count, updates), "update tree", displayPath)
        return ObjectID(out)
    }

    /// Every blob (and link) in a tree, recursively, with full paths, in git's order.
    public func files(inTree treeID: ObjectID) throws -> [TreeEntry] {
        var tree: OpaquePointer?
        try treeID.withOID { try check(git_tree_lookup(&tree, pointer, $0), "read tree", treeID.hex) }
        defer { git_tree_free(tree) }
        final class Collector { var entries: [TreeEntry] = []; var invalidName: String? }
        let collector = Collector()
        let payload = Unmanaged.passUnretained(collector).toOpaque()
        let code = git_tree_walk(tree, GIT_TREEWALK_PRE, { root, entry, payload in
            guard let entry, let payload else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(payload).takeUnretainedValue()
            let type = git_tree_entry_type(entry)
            // A name that is not UTF-8 is refused, never repaired into another name (U+FFFD).
            guard let name = String(validatingCString: git_tree_entry_name(entry)),
                  let prefix = root.map({ String(validatingCString: $0) }) ?? "" else {
                let raw = (root.map { String(cString: $0) } ?? "") + String(cString: git_tree_entry_name(entry))
                collector.invalidName = raw
                return -1
            }
            guard type == GIT_OBJECT_BLOB || type == GIT_OBJECT_COMMIT else { return 0 }
            collector.entries.append(TreeEntry(
                path: prefix + name, id: ObjectID(git_tree_entry_id(entry)),
                mode: git_tree_entry_filemode(entry).rawValue,
                kind: type == GIT_OBJECT_BLOB ? .blob : .commit))
            return 0
        }, payload)
        if let invalid = collector.invalidName {
            throw GitError(operation: "read tree", subject: treeID.hex, message: "the file name '\(invalid)' is not valid UTF-8")
        }
        try check(code, "walk tree", treeID.hex)
        return collector.entries
    }

    /// The entry at `path` in a tree, or nil when there is none.
    public func entry(atPath path: String, inTree treeID: ObjectID) throws -> TreeEntry? {
        var tree: OpaquePointer?
        try treeID.withOID { try check(git_tree_lookup(&tree, pointer, $0), "read tree", treeID.hex) }
        defer { git_tree_free(tree) }
        var entry: OpaquePointer?
        let code = git_tree_entry_bypath(&entry, tree, path)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "find \(path)", treeID.hex)
        defer { git_tree_entry_free(entry) }
        let type = git_tree_entry_type(entry)
        let kind: TreeEntry.Kind = type == GIT_OBJECT_BLOB ? .blob : type == GIT_OBJECT_TREE ? .tree : type == GIT_OBJECT_COMMIT ? .commit : .other
        return TreeEntry(path: path, id: ObjectID(git_tree_entry_id(entry)), mode: git_tree_entry_filemode(entry).rawValue, kind: kind)
    }

    // MARK: Commits

    /// Reads a commit and copies it into a value.
    public func commit(_ id: ObjectID) throws -> CommitInfo {
        var commit: OpaquePointer?
        try id.withOID { try check(git_commit_lookup(&commit, pointer, $0), "read commit", id.hex) }
        defer { git_commit_free(commit) }
        return Self.info(of: commit)
    }

    static func info(of commit: OpaquePointer?) -> CommitInfo {
        var parents: [ObjectID] = []
        let count = git_commit_parentcount(commit)
        for index in 0..<count {
            if let parent = git_commit_parent_id(commit, index) { parents.append(ObjectID(parent)) }
        }
        let fallback = Signature(name: "", email: "", time: Date(timeIntervalSince1970: 0), timeZoneOffset: 0)
        return CommitInfo(
            id: ObjectID(git_commit_id(commit)),
            tree: ObjectID(git_commit_tree_id(commit)),
            parents: parents,
            author: git_commit_author(commit).map(Signature.init) ?? fallback,
            committer: git_commit_committer(commit).map(Signature.init) ?? fallback,
            message: git_commit_message(commit).map { String(cString: $0) } ?? "")
    }

    /// Writes a commit object (no ref is moved) and returns its id.
    public func createCommit(tree treeID: ObjectID, parents parentIDs: [ObjectID], author: Signature, committer: Signature? = nil, message: String) throws -> ObjectID {
        try writeCommit(tree: treeID, parents: parentIDs, author: author, committer: committer, message: message).id
    }

    /// Writes a commit object (no ref is moved) and returns it as stored, without reading it back. The tree and
    /// parents are named by id and not read either: Folio has just written or resolved them.
    public func writeCommit(tree treeID: ObjectID, parents parentIDs: [ObjectID], author: Signature, committer: Signature? = nil, message: String) throws -> CommitInfo {
        var tree = treeID.oid
        var parents = parentIDs.map(\.oid)
        var out = git_oid()
        return try author.withSignature { authorSig in
            try (committer ?? author).withSignature { committerSig in
                try parents.withUnsafeMutableBufferPointer { oids in
                    let base = oids.baseAddress
                    var pointers: [UnsafePointer<git_oid>?] = oids.indices.map { index in base.map { UnsafePointer($0 + index) } }
                    try pointers.withUnsafeMutableBufferPointer { buffer in
                        try check(git_commit_create_from_ids(&out, pointer, nil, authorSig, committerSig, nil, message, &tree,
                                                             buffer.count, buffer.baseAddress), "create commit", displayPath)
                    }
                }
                return CommitInfo(id: ObjectID(out), tree: treeID, parents: parentIDs, author: Signature(authorSig),
                                  committer: Signature(committerSig), message: message)
            }
        }
    }

    /// Resolves a revision expression (`HEAD~2`, a tag, a full or short id) to a commit id.
    public func resolveCommit(_ spec: String) throws -> ObjectID {
        var object: OpaquePointer?
        try check(git_revparse_single(&object, pointer, spec), "resolve '\(spec)'", displayPath)
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        try check(git_object_peel(&commit, object, GIT_OBJECT_COMMIT), "resolve '\(spec)' to a commit", displayPath)
        defer { git_object_free(commit) }
        return ObjectID(git_object_id(commit))
    }
}

/// A looked-up blob whose bytes a `Data` holds: freed once, when that `Data` is released.
private final class BlobHandle: @unchecked Sendable {  // freed only by the Data's deallocator, once
    private let blob: OpaquePointer?

    init(_ blob: OpaquePointer?) { self.blob = blob }

    func free() { git_blob_free(blob) }
}
