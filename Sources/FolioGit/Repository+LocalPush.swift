import FoundationEssentials
import CGit2
import FolioBasics
import Glibc

extension Repository {
    /// The folder of a remote on this machine (`/srv/doc.git`, `file:///srv/doc.git`, `./doc.git`), nil for a
    /// remote reached over the network (`git://`, `https://`, `ssh://`, `host:path`).
    public static func localRemotePath(_ url: String) -> String? {
        if url.hasPrefix("file://") { return PercentEncoding.decoded(String(url.dropFirst("file://".count))) }
        if url.hasPrefix("/") || url.hasPrefix("./") || url.hasPrefix("../") { return url }
        return nil
    }

    /// Pushes `head` as `branch` to the repository in the folder `path` (the remote `name`), so that two pushers
    /// never overwrite each other's versions there. libgit2's local transport moves the remote's branch to what it
    /// is given without checking what the branch points at by then (it checked only when it connected), so two
    /// processes pushing at once could each move it and the first one's versions would be gone from the remote.
    /// Here the objects go under a ref of this push's own, then the branch is moved only if it still points at the
    /// version this push builds on (compare-and-swap under the remote's ref lock, as git's receive-pack does), and
    /// the push's own ref is deleted. A branch moved meanwhile is refused as git's server refuses it ("failed to
    /// update ref"), so the caller fetches, merges and pushes again; one with versions not here as not a
    /// fast-forward.
    public func pushToLocalRemote(_ name: String, path: String, branch: String, head: ObjectID, options: TransferOptions = TransferOptions()) throws {
        let remote = try Repository.open(at: URL(fileURLWithPath: path))
        let current = try remote.referenceTarget(branch)
        if current == head { return }
        if let current {
            guard try hasObject(current), try isAncestor(current, of: head) else {
                throw PushRefused(remote: name, remoteAhead: true, reason: "rejected: \(branch): non-fast-forward")
            }
        }
        var generator = SystemRandomNumberGenerator()
        let stamp = String(generator.next(), radix: 36) + String(generator.next(), radix: 36)
        // A push killed mid-way (kill -9) leaves its own refs behind; an hour later they are nobody's.
        removeAbandonedPushRefs("refs/folio/outgoing-push/*")
        remote.removeAbandonedPushRefs("refs/folio/incoming-push/*")
        let outgoing = "refs/folio/outgoing-push/\(stamp)", incoming = "refs/folio/incoming-push/\(stamp)"
        try updateReference(outgoing, to: head, expecting: nil, logMessage: "push")
        defer { try? deleteReference(outgoing) }
        try push(name, refspecs: ["\(outgoing):\(incoming)"], options: options)
        defer { try? remote.deleteReference(incoming) }
        do {
            try remote.updateReference(branch, to: head, expecting: current, logMessage: "push")
        } catch let error as GitError where error.isModified || error.isExists || error.isLocked {
            throw PushRefused(remote: name, remoteAhead: false, reason: "rejected: \(branch): failed to update ref (another push moved it meanwhile)")
        }
        if current == nil { try? remote.pointUnbornHead(at: branch) }
    }

    /// A fresh repository's HEAD (`git init --bare` names `master`, which nothing pushed) moved to `branch`, so that a
    /// plain `git clone` of it checks out what was pushed; a HEAD naming a branch that exists is left alone.
    func pointUnbornHead(at branch: String) throws {
        guard git_repository_head_unborn(pointer) == 1 else { return }
        try check(git_repository_set_head(pointer, branch), "point HEAD at \(branch)", displayPath)
    }

    /// Deletes the refs matching `glob` whose loose file was last written over an hour ago (a push's own refs live
    /// for the length of one push).
    private func removeAbandonedPushRefs(_ glob: String) {
        for name in (try? referenceNames(matching: glob)) ?? [] {
            var info = stat()
            guard lstat(gitDirectoryPath + name, &info) == 0, time(nil) - info.st_mtim.tv_sec > 3600 else { continue }
            try? deleteReference(name)
        }
    }
}
