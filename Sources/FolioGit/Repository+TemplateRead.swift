import CGit2
import FoundationEssentials
import Glibc

extension ObjectID {
    /// The git blob id of `data`, computed without a repository (a stable content hash).
    public static func blobHash(of data: Data) -> ObjectID? {
        GitLibrary.ensureInitialized()
        var oid = git_oid()
        let code = data.withUnsafeBytes { buffer in
            git_odb_hash(&oid, buffer.baseAddress, buffer.count, GIT_OBJECT_BLOB)
        }
        return code == 0 ? ObjectID(oid) : nil
    }
}

extension Repository {
    /// Every blob and link below the folder `path` of a tree, with paths relative to that folder; empty when absent.
    public func files(under path: String, inTree treeID: ObjectID) throws -> [TreeEntry] {
        if path.isEmpty { return try files(inTree: treeID) }
        guard let folder = try entry(atPath: path, inTree: treeID), folder.kind == .tree else { return [] }
        return try files(inTree: folder.id)
    }

    /// Writes the file at `url` as a blob without reading it into memory first.
    public func writeBlob(fromFile url: URL) throws -> ObjectID {
        // Read and write from memory: libgit2 then finds an object it already has before writing anything,
        // where its streaming file writer makes a temporary object file first (a snapshot of an unchanged
        // 300-file folder would create and delete 300 files).
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FileSystemError(operation: "write blob", path: url.path, reason: "cannot read the file")
        }
        return try writeBlob(data)
    }
}
