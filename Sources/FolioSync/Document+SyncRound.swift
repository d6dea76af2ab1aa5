import FoundationEssentials
import Glibc
import FolioCore
import FolioDisplayWidth
import FolioGit

/// What one sync round may do.
public enum SyncRoundMode: Sendable, Equatable {
    /// Look at the remote, pull when it moved, push when ahead.
    case sync
    /// Push only (refused when the remote has versions not here).
    case push
    /// Pull only.
    case pull
}

/// What one sync round did and found.
public struct SyncRoundResult: Sendable, Equatable {
    /// The remote synced with.
    public var remote: String
    /// The branch (`main`).
    public var branch: String
    /// The pull's outcome, nil when nothing was pulled.
    public var pulled: PullOutcome?
    /// Versions sent to the remote (0 when nothing was pushed).
    public var pushed: Int = 0
    /// Versions here the remote lacks, and the other way round, after the round.
    public var ahead: Int = 0
    public var behind: Int = 0
    /// Kept conflicts waiting to be settled (nothing is merged or pushed while there are any).
    public var conflicts: [String] = []
    /// Kept conflicts the round dropped because their remote version is already part of the current history.
    public var droppedConflicts: [String] = []
    /// Pushes refused because the remote moved meanwhile (or another push held its branch), each followed at once by
    /// a fetch, a merge and another push.
    public var pushRetries: Int = 0
    /// Why the pull was left out (unrecorded changes in the work tree), one line made by Folio.
    public var problem: String?

    /// One line saying what happened: `pushed 2 versions`, `merged origin/main`, `up to date`.
    public var summary: String {
        var parts: [String] = []
        let source = "\(remote)/\(branch)".shownAsText
        switch pulled {
        case let .fastForwarded(_, versions)?: parts.append("received \(versions) version\(versions == 1 ? "" : "s") from \(source)")
        case .merged?: parts.append("merged \(source)")
        case let .conflict(conflict)?: parts.append("conflict with \(source): theirs kept as \(conflict.ref.shownAsText)")
        case let .rewound(rewind)?: parts.append(rewind.summary)
        case let .held(held)?: parts.append(held.summary)
        case .upToDate?, nil: break
        }
        parts += droppedConflicts.map { Document.droppedConflictNote($0, branch: branch) }
        if pushed > 0 { parts.append("pushed \(pushed) version\(pushed == 1 ? "" : "s")" + (pushRetries > 0 ? " (after \(pushRetries) lost race\(pushRetries == 1 ? "" : "s") for the remote)" : "")) }
        if parts.isEmpty, let heldBack = Document.heldBackReason(conflicts: conflicts.count) { parts.append(heldBack) }
        if let problem { parts.append(problem) }
        return parts.isEmpty ? "up to date" : parts.joined(separator: "; ")
    }

    /// Whether the round changed anything here or on the remote.
    public var changedSomething: Bool {
        if pushed > 0 { return true }
        if !droppedConflicts.isEmpty { return true }
        switch pulled {
        case .fastForwarded?, .merged?, .conflict?, .rewound?: return true
        case .upToDate?, .held?, nil: return false
        }
    }
}

extension Document {
    /// How many times a round pushes again at once after losing a race for the remote's branch.
    static let pushRaceRetries = 5

    /// One round of continuous sync with the document's sync remote: a cheap look at the remote's branch
    /// (`Repository.remoteBranchTip`, compared with the remote-tracking ref only), a pull when it moved or the
    /// tracking ref is not merged yet (quarantined fetch, then the semantic or text merge), then a push when this side
    /// is ahead. A kept conflict stops it before the network: nothing is merged or pushed until it is settled (kept
    /// conflicts already part of the current history are dropped first, in `droppedConflicts`). Unrecorded
    /// work-tree changes leave the pull out (the remote's versions are still fetched) and say so in `problem`. A push
    /// that lost a race for the remote (it moved meanwhile, or another push held its branch) is pulled and pushed
    /// again at once, after a random pause of tens of milliseconds so racing writers spread out, up to
    /// `pushRaceRetries` times; then the refusal is thrown (`SyncError.isLostPushRace`).
    public func syncRound(_ mode: SyncRoundMode = .sync, options: SyncOptions = SyncOptions()) throws -> SyncRoundResult {
        try finishInterruptedChange()
        let remote = try syncRemote(nil)
        var result = SyncRoundResult(remote: remote.name, branch: branchName)
        (result.conflicts, result.droppedConflicts) = try liveConflictRefs()
        guard result.conflicts.isEmpty else { return try counted(result) }
        while true {
            do {
                try pullAndPush(mode, remote: remote.name, options: options, result: &result)
                return try counted(result)
            } catch let error as SyncError where error.isLostPushRace && result.pushRetries < Self.pushRaceRetries {
                if case .remoteAhead = error, mode == .push { throw error }  // pushing only: the remote's versions stay out
                result.pushRetries += 1
                usleep(UInt32.random(in: 10_000...60_000))  // racing writers spread out
            }
        }
    }

    /// One look at the remote, the pull it calls for and the push; a kept conflict found on the way ends it.
    private func pullAndPush(_ mode: SyncRoundMode, remote: String, options: SyncOptions, result: inout SyncRoundResult) throws {
        let remoteTip = try repository.remoteBranchTip(remote, branch: "refs/heads/\(branchName)", options: options.transfer)
        if mode != .push, try needsPull(remoteTip: remoteTip, remote: remote) {
            if let outcome = try pullUnlessUnrecorded(remote, options: options, result: &result) {
                if outcome != .upToDate || result.pulled == nil { result.pulled = outcome }
                switch outcome {
                case .conflict:
                    result.conflicts = try liveConflictRefs().kept
                    return
                case .rewound, .held: return  // named, nothing pushed over it this round
                case .upToDate, .fastForwarded, .merged: break
                }
            }
        }
        guard mode != .pull, let ahead = try pushable(remoteTip: remoteTip, remote: remote), ahead > 0 else { return }
        try push(to: remote, options: options.transfer)
        result.pushed += ahead
    }

    /// Whether the remote's branch moved past the tracking ref, or the tracking ref holds versions not merged here.
    private func needsPull(remoteTip: ObjectID?, remote: String) throws -> Bool {
        let tracking = try repository.referenceTarget(trackingRef(remote))
        if let remoteTip, remoteTip != tracking { return true }
        guard let tracking else { return false }
        return try !repository.isAncestor(tracking, of: head().id)
    }

    /// Pulls; with unrecorded changes in the work tree only fetches, and notes why in `result.problem`.
    private func pullUnlessUnrecorded(_ remote: String, options: SyncOptions, result: inout SyncRoundResult) throws -> PullOutcome? {
        do {
            return try pull(from: remote, options: options)
        } catch let SyncError.unrecordedChanges(document: _, paths: paths) {
            try fetch(from: remote, options: options.transfer)
            let shown = paths.prefix(3).map(\.shownAsText).joined(separator: ", ") + (paths.count > 3 ? ", …" : "")
            result.problem = "not merging the remote's versions while \(shown) \(paths.count == 1 ? "has" : "have") unrecorded changes"
            return nil
        }
    }

    /// How many versions a push would send, or nil when the remote holds versions not merged here (no push then).
    private func pushable(remoteTip: ObjectID?, remote: String) throws -> Int? {
        let head = try head().id
        guard let remoteTip else { return try repository.countCommits(from: head) }
        // The remote's id is compared only with what the fetch brought in and checked (the tracking ref).
        guard let tracking = try repository.referenceTarget(trackingRef(remote)), tracking == remoteTip,
              try repository.isAncestor(tracking, of: head) else { return nil }
        return try repository.aheadBehind(local: head, upstream: tracking).ahead
    }

    /// `result` with the versions ahead and behind the tracking ref filled in.
    private func counted(_ result: SyncRoundResult) throws -> SyncRoundResult {
        var result = result
        let head = try head().id
        if let tracking = try repository.referenceTarget(trackingRef(result.remote)) {
            (result.ahead, result.behind) = try repository.aheadBehind(local: head, upstream: tracking)
        } else {
            result.ahead = try repository.countCommits(from: head)
            result.behind = 0
        }
        return result
    }
}
