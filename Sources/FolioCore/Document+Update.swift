import FoundationEssentials
import Glibc
import FolioGit

extension Document {
    /// Replaces one file's content as one commit computed from the content it replaces: `transform` gets the file's
    /// bytes in the newest version (nil when it has none), read while holding the document's lock, and returns the
    /// new bytes. It runs again when a writer that does not take the lock moved the branch meanwhile, so the change
    /// never overwrites content it was not shown. Returns nil when the content is unchanged; an error thrown by
    /// `transform` leaves the document as it was.
    @discardableResult
    public func update(_ path: String, message: String, transform: (Data?) throws -> Data) throws -> CommitInfo? {
        try DocumentPath.validate(path, allowFolioFolder: false)
        try workTree.checkNames(path)
        return try commitTree(message: message) { headTree in
            let entry = try headTree.flatMap { try repository.entry(atPath: path, inTree: $0) }
            if let entry, entry.kind != .blob { throw WorkTreeError.isAFolder(path: workTree.display(path)) }
            let current = try entry.map { try repository.readBlob($0.id) }
            let data = try transform(current)
            if let headTree, data == current { return headTree }
            let blob = try saving(path) { try repository.writeBlob(data) }
            return try repository.updateTree(headTree, [.upsert(path: path, blob: blob, mode: entry?.isExecutable == true ? 0o100755 : 0o100644)])
        }
    }
}
