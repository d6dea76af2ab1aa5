import FoundationEssentials
import Glibc
import FolioCore
import FolioDisplayWidth
import FolioGit

/// A remote whose branch was rewound: its new tip does not contain the version its remote-tracking ref named before
/// the fetch (force-pushed backwards, or its history rewritten). Nothing here was changed because of it.
public struct RemoteRewind: Sendable, Equatable {
    /// The branch on the remote (`origin/main`).
    public let source: String
    /// The version the remote's branch named before (the remote-tracking ref before the fetch).
    public let previous: ObjectID
    /// The version it names now.
    public let tip: ObjectID

    /// One line saying what happened and what was (not) done.
    public var summary: String {
        "\(source.shownAsText) was rewound: its new tip \(tip.short) does not contain the version it had before "
            + "(\(previous.short)); nothing of the local history was dropped, and nothing was merged or pushed; "
            + "the next sync merges its new tip with the local version"
    }
}

extension Document {
    /// The kept conflicts still to settle (`refs/folio/conflicts/…`), oldest first, after dropping those whose remote
    /// version is already part of the current history (`dropped`: merged meanwhile, by a settlement or an older Folio
    /// that merged past them). Every path that reads kept conflicts goes through here, so none is left stale.
    func liveConflictRefs() throws -> (kept: [String], dropped: [String]) {
        let head = try repository.headCommitID()
        var kept: [String] = [], dropped: [String] = []
        for ref in try repository.referenceNames(matching: Self.conflictRefGlob) {
            guard let commit = try repository.referenceTarget(ref) else { continue }
            if let head, try repository.isAncestor(commit, of: head) {
                try repository.deleteReference(ref)
                dropped.append(ref)
            } else {
                kept.append(ref)
            }
        }
        return (kept, dropped)
    }

    /// Drops the kept conflicts whose remote version is already part of the current history; returns their refs,
    /// each worth a note (`droppedConflictNote`).
    @discardableResult
    public func dropMergedConflicts() throws -> [String] { try liveConflictRefs().dropped }

    /// The note for a kept conflict dropped because its version is already part of the current one.
    public static func droppedConflictNote(_ ref: String, branch: String = "the current version") -> String {
        let stamp = ref.hasPrefix(conflictRefPrefix) ? String(ref.dropFirst(conflictRefPrefix.count)) : ref
        return "dropped kept conflict \(stamp.shownAsText): its version is already part of \(branch.shownAsText)"
    }

    static let heldBackPrefix = "held back: "

    /// Why syncing is held back by kept conflicts, one line without commands (nil when none is kept).
    public static func heldBackReason(conflicts: Int) -> String? {
        guard conflicts > 0 else { return nil }
        let what = conflicts == 1 ? "a kept conflict waits" : "\(conflicts) kept conflicts wait"
        return heldBackPrefix + "\(what) to be settled; no further remote versions are merged and nothing is pushed until then"
    }

    /// The remote-tracking ref's version before a fetch, and the rewind the fetch found, if any: `after` does not
    /// contain `before`.
    func rewind(from before: ObjectID?, to after: ObjectID?, source: String) throws -> RemoteRewind? {
        guard let before, let after, before != after, try !repository.isAncestor(before, of: after) else { return nil }
        return RemoteRewind(source: source, previous: before, tip: after)
    }
}
