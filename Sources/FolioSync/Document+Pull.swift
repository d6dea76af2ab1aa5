import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit

/// A merge that could not be finished: the remote version is kept under `ref`, the local one stays current.
public struct SyncConflict: Sendable, Equatable {
    /// Where the remote version is kept (`refs/folio/conflicts/20250102T030405Z`).
    public let ref: String
    /// The remote version.
    public let commit: ObjectID
    /// What was merged (`origin/main`).
    public let source: String
    /// The files both sides changed in ways that could not be combined.
    public let paths: [String]
    /// What the editor said conflicts, item by item ("'Milk': deleted by us, checked by them"), as plugin text made
    /// safe; empty when no editor merged the files.
    public var reasons: [String] = []

    /// One line saying what happened: what was merged, which files conflict and why (the first three reasons), and
    /// where theirs is kept.
    public var summary: String {
        let shown = reasons.prefix(3).joined(separator: "; ") + (reasons.count > 3 ? "; and \(reasons.count - 3) more" : "")
        let why = reasons.isEmpty ? "" : " (\(shown))"
        return "Conflict merging \(source) in \(paths.joined(separator: ", "))\(why): your version stays current, theirs is kept as \(ref)"
    }
}

/// What a pull did.
public enum PullOutcome: Sendable, Equatable {
    /// The remote had nothing new (or no branch of this name yet).
    case upToDate
    /// The document moved forward to the remote's version without a merge.
    case fastForwarded(to: ObjectID, versions: Int)
    /// Both sides had changed; the merge commit.
    case merged(CommitInfo)
    /// Both sides changed the same things; nothing was merged.
    case conflict(SyncConflict)
    /// The remote's branch was rewound (its new tip does not contain the version it had before): nothing was merged,
    /// nothing of the local history was dropped, and a sync pushes nothing this time.
    case rewound(RemoteRewind)
    /// The remote's version would change the document's content type to one not used here: fetched, not merged,
    /// until the user accepts it (`SyncOptions.acceptContentType`); nothing is pushed meanwhile.
    case held(HeldContentType)
}

/// A kept conflict: the remote version a merge could not combine with the local one.
public struct KeptConflict: Sendable, Equatable, Encodable {
    public let ref: String
    public let commit: String
    public let summary: String
}

/// Which side to keep for the conflicting files when resolving a kept conflict.
public enum ConflictSide: String, Sendable {
    case local, remote
}

/// Internal signal: the merge inside the document's lock left conflicts.
private struct UnresolvedMerge: Error { let conflicts: [MergeConflict]; let reasons: [String] }

extension Document {
    static let conflictRefPrefix = "refs/folio/conflicts/"
    static let conflictRefGlob = "refs/folio/conflicts/*"

    /// Fetches from a remote and brings its version of the current branch in: fast-forward when possible, else a
    /// three-way merge committed as "Merge <remote>/<branch>", else a kept conflict with nothing merged. While a kept
    /// conflict waits to be settled it only fetches, then throws `SyncError.heldByConflict` (kept conflicts already
    /// part of the current history are dropped first); a remote whose branch was rewound is `.rewound`, not merged;
    /// a remote version changing the content type to one not used here is `.held` unless `options.acceptContentType`.
    /// Every way a remote's version comes into the document (pull, sync, continuous sync) passes through here.
    public func pull(from remote: String? = nil, options: SyncOptions = SyncOptions()) throws -> PullOutcome {
        // A work tree left behind by a failed write (a full disk) is written first; what still cannot be written
        // holds Folio's old content, not the user's changes, so it does not stop the pull (the pull's own change
        // writes those files too). A stale file the user has since changed still counts as their change.
        try finishInterruptedChange()
        let remote = try syncRemote(remote)
        let stale = try outOfDateFilesNotChangedByTheUser()
        let unrecorded = try repository.changedPaths().filter { !stale.contains($0) }
        guard unrecorded.isEmpty else { throw SyncError.unrecordedChanges(document: url.path, paths: unrecorded.sorted()) }
        let kept = try liveConflictRefs().kept
        let before = try repository.referenceTarget(trackingRef(remote.name))
        try fetchDurably(remote.name, options: options.transfer)
        guard kept.isEmpty else { throw SyncError.heldByConflict(document: url.path, conflicts: kept) }
        guard let theirs = try repository.referenceTarget(trackingRef(remote.name)) else { return .upToDate }
        let source = "\(remote.name)/\(branchName)"
        if let rewind = try rewind(from: before, to: theirs, source: source) { return .rewound(rewind) }
        let held = try heldContentType(theirs, source: source)
        if let held, !options.acceptContentType { return .held(held) }
        let outcome = try integrate(theirs, source: source, semanticMerger: options.semanticMerger)
        if let held { try acceptContentTypes(held) }
        return outcome
    }

    /// Brings commit `theirs` into the current branch (the pull step after the fetch).
    public func integrate(_ theirs: ObjectID, source: String, semanticMerger: (any SemanticMerging)? = nil) throws -> PullOutcome {
        for _ in 0..<5 {
            let ours = try head().id
            if try repository.isAncestor(theirs, of: ours) { return .upToDate }
            if try repository.isAncestor(ours, of: theirs) {
                let (_, behind) = try repository.aheadBehind(local: ours, upstream: theirs)
                if try fastForward(to: theirs) { return .fastForwarded(to: theirs, versions: behind) }
                continue  // another writer added a version meanwhile: look again
            }
            do {
                let commit = try commitTree(message: "Merge \(source)", parents: [theirs]) { _ in
                    guard let current = try repository.headCommitID() else { return try repository.commit(theirs).tree }
                    return try mergedTree(ours: current, theirs: theirs, semanticMerger: semanticMerger)
                }
                guard let commit else { return .upToDate }
                return .merged(commit)
            } catch let unresolved as UnresolvedMerge {
                let ref = try keepConflict(theirs)
                return .conflict(SyncConflict(ref: ref, commit: theirs, source: source, paths: unresolved.conflicts.map(\.path),
                                              reasons: unresolved.reasons))
            }
        }
        throw FolioError.busy(url.path)
    }

    /// The tree merging `theirs` into `ours`, conflicts resolved by the semantic merger; throws `UnresolvedMerge`.
    private func mergedTree(ours: ObjectID, theirs: ObjectID, semanticMerger: (any SemanticMerging)?) throws -> ObjectID {
        let result = try mergeForSync(ours: ours, theirs: theirs, semanticMerger: semanticMerger)
        if result.isClean { return result.tree }
        var changes: [TreeChange] = []
        var unresolved: [MergeConflict] = []
        var reasons: [String] = []
        for conflict in result.conflicts {
            let outcome = try semanticMergeExplained(conflict, merger: semanticMerger)
            if let merged = outcome.merged, let side = conflict.ours {
                changes.append(.upsert(path: side.path, blob: try repository.writeBlob(merged), mode: side.mode))
            } else {
                unresolved.append(conflict)
                reasons += outcome.conflicts
            }
        }
        guard unresolved.isEmpty else { throw UnresolvedMerge(conflicts: unresolved, reasons: reasons) }
        return try repository.updateTree(result.tree, changes)
    }

    /// The three-way merge of `theirs` into `ours` that pulls and settling use: libgit2's, except that the primary file,
    /// when its editor merges by meaning and both sides changed it, is always left to that editor (a line merge of a
    /// checklist brings back an item one side moved and the other deleted).
    func mergeForSync(ours: ObjectID, theirs: ObjectID, semanticMerger: (any SemanticMerging)?) throws -> TreeMergeResult {
        let whole: Set<String> = semanticMerger?.mergesByMeaning(metadata.contentType) == true ? [metadata.primaryFile] : []
        return try repository.mergeCommits(ours: ours, theirs: theirs, wholeFiles: whole)
    }

    /// The editor's item-by-item merge of one conflicting file, when its content type has one.
    func semanticMerge(_ conflict: MergeConflict, merger: (any SemanticMerging)?) throws -> Data? {
        try semanticMergeExplained(conflict, merger: merger).merged
    }

    /// The editor's item-by-item merge of one conflicting file, or what it said conflicts (none when the file's
    /// content type has no semantic merge).
    func semanticMergeExplained(_ conflict: MergeConflict, merger: (any SemanticMerging)?) throws -> (merged: Data?, conflicts: [String]) {
        guard let merger, let ours = conflict.ours, let theirs = conflict.theirs, ours.path == theirs.path else { return (nil, []) }
        let type: ContentType?
        if ours.path == metadata.primaryFile {
            type = metadata.contentType
        } else {
            let ext = PathText.pathExtension(ours.path)
            type = ext.isEmpty ? nil : ContentTypeRegistry.builtIn.type(forExtension: ext)
        }
        guard let type else { return (nil, []) }
        let base = try conflict.ancestor.map { try repository.readBlob($0.id) } ?? Data()
        return try merger.mergeExplained(contentType: type, base: base, ours: repository.readBlob(ours.id), theirs: repository.readBlob(theirs.id))
    }

    /// Keeps `commit` under a new `refs/folio/conflicts/<UTC time>` ref (or the existing one already keeping it).
    private func keepConflict(_ commit: ObjectID) throws -> String {
        for ref in try repository.referenceNames(matching: Self.conflictRefGlob) where try repository.referenceTarget(ref) == commit {
            return ref
        }
        let stamp = Timestamps.compactUTC(Date())
        var name = Self.conflictRefPrefix + stamp
        var suffix = 2
        while try repository.referenceTarget(name) != nil {
            name = Self.conflictRefPrefix + stamp + "-\(suffix)"
            suffix += 1
        }
        try repository.updateReference(name, to: commit, expecting: nil, logMessage: "keep conflicting version")
        return name
    }

    /// Pulls, then pushes when the pull did not stop at a conflict or a rewound remote. A push that lost a race for
    /// the remote's branch (`SyncError.isLostPushRace`) is pulled and pushed again at once, after a random pause of
    /// tens of milliseconds, up to `pushRaceRetries` times. The outcome is the first pull's that changed something.
    public func sync(with remote: String? = nil, options: SyncOptions = SyncOptions()) throws -> (pull: PullOutcome, push: PushResult?) {
        var first: PullOutcome?
        for attempt in 0...Self.pushRaceRetries {
            let pulled = try pull(from: remote, options: options)
            if first == nil || first == .upToDate { first = pulled }
            switch pulled {
            case .conflict, .rewound, .held: return (pulled, nil)
            case .upToDate, .fastForwarded, .merged: break
            }
            do {
                return (first ?? pulled, try push(to: remote, options: options.transfer))
            } catch let error as SyncError where error.isLostPushRace && attempt < Self.pushRaceRetries {
                usleep(UInt32.random(in: 10_000...60_000))  // racing writers spread out
            }
        }
        throw FolioError.busy(url.path)  // not reached: the last attempt's refusal is thrown
    }

    /// The kept conflicts, oldest first (those whose version is already part of the current history are dropped).
    public func keptConflicts() throws -> [KeptConflict] {
        try liveConflictRefs().kept.compactMap { ref in
            guard let id = try repository.referenceTarget(ref) else { return nil }
            return KeptConflict(ref: ref, commit: id.hex, summary: try repository.commit(id).summary)
        }
    }

    /// Settles a kept conflict as a merge commit, taking `side` for the conflicting files (and the clean merge for
    /// the rest), then drops the ref. Afterwards the remote's version is merged, so pushing works again.
    @discardableResult
    public func resolveConflict(_ ref: String, keep side: ConflictSide) throws -> CommitInfo? {
        let name = ref.hasPrefix("refs/") ? ref : Self.conflictRefPrefix + ref
        guard name.hasPrefix(Self.conflictRefPrefix), let theirs = try repository.referenceTarget(name) else {
            throw SyncError.unknownConflict(document: url.path, ref: ref)
        }
        let stamp = String(name.dropFirst(Self.conflictRefPrefix.count))
        if let current = try repository.headCommitID(), try repository.isAncestor(theirs, of: current) {
            try repository.deleteReference(name)
            return nil
        }
        let commit = try commitTree(message: "Merge conflict \(stamp), keeping the \(side.rawValue) version", parents: [theirs]) { headTree in
            guard let current = try repository.headCommitID() else { return try repository.commit(theirs).tree }
            let result = try repository.mergeCommits(ours: current, theirs: theirs)
            guard side == .remote else { return result.tree }
            var changes: [TreeChange] = []
            for conflict in result.conflicts {
                if let ours = conflict.ours, ours.path != conflict.theirs?.path { changes.append(.remove(path: ours.path)) }
                if let theirs = conflict.theirs { changes.append(.upsert(path: theirs.path, blob: theirs.id, mode: theirs.mode)) }
            }
            return try repository.updateTree(result.tree, changes)
        }
        try repository.deleteReference(name)
        return commit
    }
}
