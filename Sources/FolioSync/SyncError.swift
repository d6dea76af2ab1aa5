import FoundationEssentials
import Glibc
import FolioCore
import FolioGit

/// A sync failure with its context, printed as one line.
public enum SyncError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// The document has no remote to use.
    case noRemote(document: String)
    /// No remote of the document has this name.
    case unknownRemote(document: String, name: String)
    /// A remote name is refused by git's rules or is not letters, digits, `-`, `_` and `.`.
    case invalidRemoteName(String)
    /// A remote's URL Folio refuses before writing it (`reason` in words).
    case invalidRemoteURL(url: String, reason: String)
    /// The document already has a remote with this name.
    case remoteExists(name: String, document: String)
    /// The work tree has changes not recorded as a version, in these paths.
    case unrecordedChanges(document: String, paths: [String])
    /// A push was refused: the remote's name and why.
    case pushRejected(remote: String, reason: String)
    /// A push was refused because the remote has versions the document lacks: pull first.
    case remoteAhead(document: String, remote: String, reason: String)
    /// A push was refused because another push was updating the remote's branch at the same moment (the server could
    /// not update its ref, as `git daemon` says `failed to update ref`): fetching and pushing again can let it through.
    case remoteBusy(document: String, remote: String, reason: String)
    /// Kept conflicts wait to be settled: no further remote versions are merged and nothing is pushed until then.
    case heldByConflict(document: String, conflicts: [String])
    /// A clone source is not a Folio document.
    case notADocumentSource(source: String, why: String)
    /// A kept conflict ref does not exist in the document.
    case unknownConflict(document: String, ref: String)
    /// A clone failed in transfer or in git (`reason` is libgit2's); nothing was left behind.
    case cloneFailed(source: String, reason: String)
    /// What a remote sent was refused before anything was kept (`document` is nil for a clone).
    case refusedIncoming(document: String?, refused: IncomingRefused)
    /// A document's `folio.syncInterval` is not a number of seconds within `Settings.syncIntervalRange` (`value` as
    /// written).
    case invalidSyncInterval(document: String, value: String)
    /// Another process is syncing the document right now.
    case syncBusy(document: String)
    /// A sync round was cancelled (by its caller) while it waited to start.
    case syncCancelled(document: String)

    public var description: String {
        switch self {
        case let .noRemote(path):
            return "\(path): no remote to use"
        case let .unknownRemote(path, name):
            return "\(path): no remote named '\(name)'"
        case let .invalidRemoteName(name):
            let why = GitNames.problem(with: name, as: .remote)?.description ?? "git does not allow it"
            return "'\(GitNames.shown(name))' is not a valid remote name: \(why)"
        case let .invalidRemoteURL(url, reason):
            return "'\(GitNames.shown(RemoteURL.redacted(url)))' is not a remote Folio can use: \(reason)"
        case let .remoteExists(name, path):
            return "\(path): a remote named '\(name)' already exists"
        case let .unrecordedChanges(path, paths):
            let shown = paths.prefix(5).joined(separator: ", ") + (paths.count > 5 ? ", …" : "")
            return "\(path): unrecorded changes in \(shown)"
        case let .pushRejected(remote, reason):
            return "push to \(remote) refused: \(reason)"
        case let .remoteAhead(_, remote, reason):
            return "push to \(remote) refused: \(reason); the remote has versions not here"
        case let .remoteBusy(_, remote, reason):
            return "push to \(remote) refused: \(reason); another push was updating it at the same moment"
        case let .heldByConflict(path, conflicts):
            let reason = Document.heldBackReason(conflicts: conflicts.count) ?? "held back"
            return "\(path): \(reason) (\(conflicts.map { GitNames.shown($0) }.joined(separator: ", ")))"
        case let .notADocumentSource(url, why):
            return "\(url): not a Folio document (\(why)); nothing was cloned"
        case let .unknownConflict(path, ref):
            return "\(path): no kept conflict '\(ref)'"
        case let .cloneFailed(source, reason):
            return "\(source): cannot clone (\(reason)); nothing was cloned"
        case let .refusedIncoming(path?, refused):
            return "\(path): \(refused)"
        case let .refusedIncoming(nil, refused):
            return refused.description
        case let .invalidSyncInterval(path, value):
            return "\(path): sync interval '\(value.prefix(40))' is not a number of seconds from 1 to 86400"
        case let .syncBusy(path):
            return "\(path): another Folio process is syncing this document right now"
        case let .syncCancelled(path):
            return "\(path): sync failed: cancelled"
        }
    }

    public var errorDescription: String? { description }

    /// Whether the error is a push that lost a race for the remote's branch (it moved meanwhile, or another push held
    /// it): the remote was reached, and fetching, merging and pushing again at once can let it through.
    public var isLostPushRace: Bool {
        switch self {
        case .remoteAhead, .remoteBusy: return true
        default: return false
        }
    }
}
