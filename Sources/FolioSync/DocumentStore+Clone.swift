import FoundationEssentials
import Glibc
import FolioCore
import FolioGit

extension DocumentStore {
    /// Clones the Folio document at `source` (a path or URL) into `url` with libgit2: the default branch is checked
    /// out with a matching index, `origin` is its remote, and continuous sync is on. A source without `.folio/document.json` is refused and
    /// nothing is left behind; so is a failed or interrupted transfer.
    public func clone(from source: String, to url: URL, options: TransferOptions = TransferOptions()) throws -> Document {
        let fm = FileManager.default
        if fm.fileExists(atPath: url.path) { throw FolioError.alreadyExists(url.path) }
        let parent = url.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path) else {
            throw FolioError.missingFolder(parent.path)
        }
        try checkNotInsideDocument(url)
        if RemoteURL.holdsPassword(source), let reason = Document.remoteURLProblem(source) {
            throw SyncError.invalidRemoteURL(url: source, reason: reason)
        }
        // A source without a URL scheme (once the user's url.*.insteadOf rewrote it, as the transfer will) is a local
        // path, unless it is scp-like (`host:path`, the host maybe an ssh config alias): say so plainly when it is not there.
        let reached = (try? GitUserConfig(environment: options.environment))?.rewrite(url: source, forPush: false) ?? source
        if !reached.contains("://"), !reached.contains("@"), (try? SSHAddress(reached)) == nil, !fm.fileExists(atPath: reached) {
            throw SyncError.notADocumentSource(source: source, why: "no such repository")
        }
        let staging = parent.appendingPathComponent(".\(url.lastPathComponent).folio-clone-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        var moved = false
        defer { if !moved { try? fm.removeItem(at: staging) } }
        do {
            try fillClone(staging, from: source, options: options)
        } catch let error as GitError {
            // libgit2 names the repository it worked in: the hidden staging folder, which the user never sees.
            throw SyncError.cloneFailed(source: source, reason: error.message)
        } catch let refused as HostKeyRefused {
            throw SyncError.cloneFailed(source: source, reason: refused.problem)
        } catch let failed as SSHFailed {
            throw SyncError.cloneFailed(source: source, reason: failed.problem)
        } catch is TransferCancelled {
            throw SyncError.cloneFailed(source: source, reason: "cancelled")
        }
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

    /// Fetches `source` into the new repository at `staging` through the incoming checks, picks its branch (the
    /// remote's default, else main or master, else the first), checks its tip with `DocumentTreeGate`, and checks it
    /// out.
    private func fillClone(_ staging: URL, from source: String, options: TransferOptions) throws {
        let repository = try Repository.create(at: staging)
        try repository.configureAsDocument()
        try repository.addRemote("origin", url: source)
        let rules = DocumentTreeGate.incomingRules(largestFile: settings.largestIncomingFile)
        do { try repository.fetch("origin", options: options, rules: rules) } catch let refused as IncomingRefused {
            if case let .invalidDocument(why) = refused.refused.problem {
                throw SyncError.notADocumentSource(source: source, why: refused.refused.commit.map { "commit \($0.short): \(why)" } ?? why)
            }
            throw SyncError.refusedIncoming(document: nil, refused: IncomingRefused(source: source, ref: refused.ref, refused: refused.refused))
        }
        let branches = try repository.referenceNames(matching: "refs/remotes/origin/*").filter { !$0.hasSuffix("/HEAD") }
        guard !branches.isEmpty else { throw SyncError.notADocumentSource(source: source, why: "it has no versions") }
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
            throw SyncError.notADocumentSource(source: source, why: "it has no versions")
        }
        do { try DocumentTreeGate.check(repository.commit(commit).tree, shown: nil, commit: commit, repository: repository) } catch let refused as RefusedObject {
            if case let .invalidDocument(why) = refused.problem { throw SyncError.notADocumentSource(source: source, why: "commit \(commit.short): \(why)") }
            throw SyncError.refusedIncoming(document: nil, refused: IncomingRefused(source: source, ref: "refs/heads/\(branch)", refused: refused))
        }
        try repository.setReference("refs/heads/\(branch)", to: commit, logMessage: "clone: from \(source)")
        try repository.setHead("refs/heads/\(branch)")
        try repository.setConfig("branch.\(branch).remote", "origin")
        try repository.setConfig("branch.\(branch).merge", "refs/heads/\(branch)")
        try repository.setConfig(Document.continuousSyncKey, true)  // a cloned document keeps itself in sync
        try repository.checkoutHeadIntoEmptyWorkTree()
    }
}
