import Foundation
import FolioCore
import FolioGit

extension DocumentStore {
    /// Clones the Folio document at `source` (a path or URL) into `url` with libgit2: the default branch is checked
    /// out with a matching index, `origin` is its remote. A source without `.folio/document.json` is refused and
    /// nothing is left behind; so is a failed or interrupted transfer.
    public func clone(from source: String, to url: URL, options: TransferOptions = TransferOptions()) throws -> Document {
        let fm = FileManager.default
        if fm.fileExists(atPath: url.path) { throw FolioError.alreadyExists(url.path) }
        let parent = url.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path) else {
            throw FolioError.missingFolder(parent.path)
        }
        try checkNotInsideDocument(url)
        // A source without a URL scheme is a local path: say so plainly when it is not there.
        if !source.contains("://"), !source.contains("@"), !fm.fileExists(atPath: source) {
            throw SyncError.notADocumentSource(source, "no such repository")
        }
        let staging = parent.appendingPathComponent(".\(url.lastPathComponent).folio-clone-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        var moved = false
        defer { if !moved { try? fm.removeItem(at: staging) } }
        let repository = try Repository.create(at: staging)
        try repository.configureAsDocument()
        try repository.addRemote("origin", url: source)
        try repository.fetch("origin", options: options)
        let branches = try repository.referenceNames(matching: "refs/remotes/origin/*").filter { !$0.hasSuffix("/HEAD") }
        guard !branches.isEmpty else { throw SyncError.notADocumentSource(source, "it has no versions") }
        var branch: String?
        if let remoteHead = try? repository.remoteDefaultBranch("origin", options: options), remoteHead.hasPrefix("refs/heads/") {
            let name = String(remoteHead.dropFirst("refs/heads/".count))
            if branches.contains("refs/remotes/origin/\(name)") { branch = name }
        }
        if branch == nil {
            branch = ["main", "master"].first { branches.contains("refs/remotes/origin/\($0)") }
                ?? branches.first.map { String($0.dropFirst("refs/remotes/origin/".count)) }
        }
        guard let branch, let commit = try repository.referenceTarget("refs/remotes/origin/\(branch)") else {
            throw SyncError.notADocumentSource(source, "it has no versions")
        }
        guard let metadata = try repository.entry(atPath: DocumentMetadata.path, inTree: repository.commit(commit).tree), metadata.kind == .blob else {
            throw SyncError.notADocumentSource(source, "no \(DocumentMetadata.path) on its \(branch) branch")
        }
        do { _ = try DocumentMetadata.decode(repository.readBlob(metadata.id)) } catch {
            throw SyncError.notADocumentSource(source, "its \(DocumentMetadata.path) is invalid: \(error)")
        }
        // A file named like Folio's temporary files could be taken for one after a crash: refused, as in every change.
        for entry in try repository.files(inTree: repository.commit(commit).tree) {
            if let name = ReservedNames.reservedPart(of: entry.path) {
                throw SyncError.notADocumentSource(source, "it holds '\(entry.path)': names starting with '\(name.prefix(11))' are reserved for Folio's temporary files")
            }
        }
        try repository.setReference("refs/heads/\(branch)", to: commit, logMessage: "clone: from \(source)")
        try repository.setHead("refs/heads/\(branch)")
        try repository.setConfig("branch.\(branch).remote", "origin")
        try repository.setConfig("branch.\(branch).merge", "refs/heads/\(branch)")
        try repository.checkoutHeadIntoEmptyWorkTree()
        // The fetched pack, refs, index and files are flushed at once (libgit2's own fsync is off process-wide),
        // then the rename that makes the clone visible.
        if settings.sync == .full { AtomicFile.syncFileSystem(containing: staging) }
        guard rename(staging.path, url.path) == 0 else {
            if errno == EEXIST || errno == ENOTEMPTY { throw FolioError.alreadyExists(url.path) }
            throw POSIXFailure(operation: "move clone into place", path: url.path)
        }
        moved = true
        if settings.sync == .full { AtomicFile.syncDirectory(parent) }
        return try open(at: url)
    }
}
