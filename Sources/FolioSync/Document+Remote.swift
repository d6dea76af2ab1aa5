import FoundationEssentials
import Glibc
import FolioCore
import FolioGit

/// A remote's standing relative to the document, as of the last fetch.
public struct RemoteStatus: Sendable, Equatable, Encodable {
    public let name: String
    /// The URL as Folio shows it (user information redacted).
    public let url: String
    /// The remote-tracking ref compared against (`refs/remotes/origin/main`), nil when never fetched.
    public let tracking: String?
    /// Versions here that the remote lacks.
    public let ahead: Int
    /// Versions on the remote that are not here.
    public let behind: Int
}

/// What `folio status` reports (encoded, what `folio status --json` prints beside the sharing state).
public struct SyncStatus: Sendable, Equatable, Encodable {
    public let path: String
    public let branch: String
    public let head: String
    /// Paths changed in the work tree but not recorded as a version. Files a failed write left out of date, which
    /// still show Folio's old content, are not the user's changes: they are in `workTree`, not here.
    public let unrecordedChanges: [String]
    /// Folders of the work tree that are git repositories of their own ("b/"): never recorded, never a change.
    public let nestedRepositories: [String]
    public let remotes: [RemoteStatus]
    /// Kept conflict refs (`refs/folio/conflicts/…`).
    public let conflicts: [String]
    /// Kept conflicts this look dropped because their remote version is already part of the current history.
    public let droppedConflicts: [String]
    /// Why syncing is held back (kept conflicts wait to be settled), one line; nil when it is not.
    public let heldBack: String?
    /// Why the sync remote's version waits unmerged because it changes the content type, one line; nil when none does.
    public let heldContentType: String?
    /// Whether the work tree shows the current version.
    public let workTree: WorkTreeStatus
}

/// What a push did.
public struct PushResult: Sendable, Equatable {
    /// The remote's name.
    public let remote: String
    /// The branch pushed (`main`).
    public let branch: String
    /// The version the remote's branch now names.
    public let commit: ObjectID
}

extension Document {
    /// The short branch name (`main`).
    var branchName: String {
        let full = (try? repository.headBranch()) ?? nil
        let name = full ?? "refs/heads/main"
        return name.hasPrefix("refs/heads/") ? String(name.dropFirst("refs/heads/".count)) : name
    }

    /// The configured remotes.
    public func remotes() throws -> [RemoteInfo] { try repository.remotes() }

    /// Adds a remote named `name` at `url` (a path, `file://`, `git://`, `http(s)://` or `ssh://` URL).
    public func addRemote(_ name: String, url: String) throws {
        // git's rule for remote names, and Folio's own (letters, digits, '-', '_', '.'), before anything is written.
        guard GitNames.problem(with: name, as: .remote) == nil else { throw SyncError.invalidRemoteName(name) }
        if let reason = Self.remoteURLProblem(url) { throw SyncError.invalidRemoteURL(url: url, reason: reason) }
        if try repository.remotes().contains(where: { $0.name == name }) {
            throw SyncError.remoteExists(name: name, document: self.url.path)
        }
        try repository.addRemote(name, url: url)
    }

    /// Why `url` cannot be a remote's URL, nil when it can: empty, a control character (it would reach `.git/config`
    /// and every message that names the remote), or a scheme Folio does not fetch from. A local path may hold spaces.
    public static func remoteURLProblem(_ url: String) -> String? {
        if url.trimming(.whitespaces).isEmpty { return "it is empty" }
        if url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "it holds a control character" }
        if RemoteURL.holdsPassword(url) {
            return "it holds a password (user:password@), which Folio never stores or shows: give the secret through FOLIO_GIT_TOKEN or .netrc instead"
        }
        if let (scheme, rest) = RemoteLocation.urlParts(url) {
            if let problem = RemoteLocation.schemeProblem(scheme) { return problem }
            if rest.isEmpty { return "it names no host or path" }
        }
        return nil
    }

    /// Removes a remote and its remote-tracking refs.
    public func removeRemote(_ name: String) throws {
        _ = try remoteNamed(name)
        try repository.removeRemote(name)
    }

    func remoteNamed(_ name: String) throws -> RemoteInfo {
        guard let remote = try repository.remotes().first(where: { $0.name == name }) else {
            throw SyncError.unknownRemote(document: url.path, name: name)
        }
        return remote
    }

    /// The remote to use: `name`, else the branch's upstream, else `origin`, else the only remote.
    func syncRemote(_ name: String?) throws -> RemoteInfo {
        if let name { return try remoteNamed(name) }
        let all = try repository.remotes()
        if let upstream = repository.configString("branch.\(branchName).remote"), let remote = all.first(where: { $0.name == upstream }) {
            return remote
        }
        if let origin = all.first(where: { $0.name == "origin" }) { return origin }
        if all.count == 1, let only = all.first { return only }
        throw SyncError.noRemote(document: url.path)
    }

    /// The remote-tracking ref for the current branch on `remote`.
    func trackingRef(_ remote: String) -> String { "refs/remotes/\(remote)/\(branchName)" }

    /// Fetches the remote's branches into its remote-tracking refs (refs move only once everything arrived).
    @discardableResult
    public func fetch(from remote: String? = nil, options: TransferOptions = TransferOptions()) throws -> TransferProgress {
        let remote = try syncRemote(remote)
        return try fetchDurably(remote.name, options: options)
    }

    /// Fetches from `remote`, then fsyncs the packs and the tracking ref it wrote when the document's sync setting
    /// asks for it (libgit2's own fsync is off process-wide).
    @discardableResult
    func fetchDurably(_ remote: String, options: TransferOptions) throws -> TransferProgress {
        let packsBefore = syncsToDisk ? repository.packFileNames() : []
        let progress: TransferProgress
        do { progress = try repository.fetch(remote, options: options, rules: incomingRules) } catch let refused as IncomingRefused {
            throw SyncError.refusedIncoming(document: url.path, refused: refused)
        }
        if syncsToDisk { try repository.syncFetched(packsBefore: packsBefore, refs: [trackingRef(remote)]) }
        return progress
    }

    /// Sends the current branch to a remote; refused when the remote has versions not merged here.
    @discardableResult
    public func push(to remote: String? = nil, options: TransferOptions = TransferOptions()) throws -> PushResult {
        try finishInterruptedChange()
        let remote = try syncRemote(remote)
        let branch = "refs/heads/\(branchName)"
        let head = try head().id
        do {
            if let path = Repository.localRemotePath(remote.url) {
                try repository.pushToLocalRemote(remote.name, path: path, branch: branch, head: head, options: options)
            } else {
                try repository.push(remote.name, refspecs: ["\(branch):\(branch)"], options: options)
            }
        } catch let refused as PushRefused {
            if refused.remoteAhead { throw SyncError.remoteAhead(document: url.path, remote: remote.name, reason: refused.reason) }
            if Self.isRefLockRace(refused) { throw SyncError.remoteBusy(document: url.path, remote: remote.name, reason: refused.reason) }
            throw SyncError.pushRejected(remote: remote.name, reason: refused.reason)
        }
        try repository.setReference(trackingRef(remote.name), to: head, logMessage: "push")
        if repository.configString("branch.\(branchName).remote") == nil {
            try repository.setConfig("branch.\(branchName).remote", remote.name)
            try repository.setConfig("branch.\(branchName).merge", branch)
        }
        return PushResult(remote: remote.name, branch: branchName, commit: head)
    }

    /// Whether a refused push lost a race for the server's ref rather than being declined: git's receive-pack answers
    /// `failed to update ref` (older versions `failed to lock`) when another push holds the ref's lock or moved the ref
    /// between its check and its update. A hook's refusal or a policy says something else and stays a refusal.
    static func isRefLockRace(_ refused: PushRefused) -> Bool {
        refused.reason.hasPrefix("rejected: ") && (refused.reason.contains(": failed to update ref") || refused.reason.contains(": failed to lock"))
    }

    /// Ahead/behind per remote (as of the last fetch), unrecorded work-tree changes, kept conflicts and whether the
    /// work tree is up to date.
    public func syncStatus() throws -> SyncStatus {
        try finishInterruptedChange()
        let head = try head().id
        var remotes: [RemoteStatus] = []
        for remote in try repository.remotes() {
            let ref = trackingRef(remote.name)
            if let tracking = try repository.referenceTarget(ref) {
                let (ahead, behind) = try repository.aheadBehind(local: head, upstream: tracking)
                remotes.append(RemoteStatus(name: remote.name, url: RemoteURL.redacted(remote.url), tracking: ref, ahead: ahead, behind: behind))
            } else {
                remotes.append(RemoteStatus(name: remote.name, url: RemoteURL.redacted(remote.url), tracking: nil,
                                            ahead: try repository.countCommits(from: head), behind: 0))
            }
        }
        let changes = try repository.workTreeChanges()
        let stale = try outOfDateFilesNotChangedByTheUser()
        let live = try liveConflictRefs()
        return SyncStatus(path: url.path, branch: branchName, head: head.hex,
                          unrecordedChanges: changes.changed.filter { !stale.contains($0) }.sorted(),
                          nestedRepositories: changes.nestedRepositories.sorted(), remotes: remotes,
                          conflicts: live.kept, droppedConflicts: live.dropped, heldBack: Self.heldBackReason(conflicts: live.kept.count),
                          heldContentType: try waitingContentType()?.summary, workTree: try workTreeStatus())
    }
}
