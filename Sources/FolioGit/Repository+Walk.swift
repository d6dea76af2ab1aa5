import CGit2
import FoundationEssentials
import Glibc

extension Repository {
    /// Walks commits reachable from `start` newest first along first parents and merges, without sorting
    /// (so the first page costs the same whatever the history's length), hiding `hidden` and its ancestors.
    /// `body` returns false to stop.
    public func walk(from start: ObjectID, hiding hidden: ObjectID? = nil, _ body: (ObjectID) throws -> Bool) throws {
        var walker: OpaquePointer?
        try check(git_revwalk_new(&walker, pointer), "start history walk", displayPath)
        defer { git_revwalk_free(walker) }
        try check(git_revwalk_sorting(walker, GIT_SORT_NONE.rawValue), "sort history walk", displayPath)
        try start.withOID { try check(git_revwalk_push(walker, $0), "walk from", start.hex) }
        if let hidden { try hidden.withOID { try check(git_revwalk_hide(walker, $0), "hide", hidden.hex) } }
        var oid = git_oid()
        while true {
            let code = git_revwalk_next(&oid, walker)
            if code == GIT_ITEROVER.rawValue { return }
            try check(code, "walk history", displayPath)
            if try !body(ObjectID(oid)) { return }
        }
    }

    /// A page of commits newest first: skips `skip`, returns at most `limit` (nil: all).
    public func log(from start: ObjectID, skip: Int = 0, limit: Int? = nil, hiding hidden: ObjectID? = nil) throws -> [CommitInfo] {
        var result: [CommitInfo] = []
        if let limit { result.reserveCapacity(min(limit, 10_000)) }
        try forEachInLog(from: start, skip: skip, limit: limit, hiding: hidden) { result.append($0.info) }
        return result
    }

    /// Calls `body` for a page of commits newest first (skips `skip`, at most `limit`, nil: all), lending each
    /// commit as libgit2 parsed it, so that a long log can be printed without copying every commit first.
    ///
    /// Walks the commits itself (`LogWalk`), newest committer time first among the branches met so far (as `git log` does),
    /// reading each commit once. libgit2's revwalk would parse every commit a second time and load the whole
    /// commit-graph first, which costs more than a first page on a long history. With `hidden` (a commit whose
    /// ancestors are left out) the walk is libgit2's revwalk.
    public func forEachInLog(from start: ObjectID, skip: Int = 0, limit: Int? = nil, hiding hidden: ObjectID? = nil,
                             _ body: (LoggedCommit) throws -> Void) throws {
        var listed = 0
        var skipped = 0
        if let hidden {
            try walk(from: start, hiding: hidden) { id in
                if let limit, listed >= limit { return false }
                if skipped < skip { skipped += 1; return true }
                let (_, commit) = try lookupLoggedCommit(id)
                defer { git_commit_free(commit) }
                try body(LoggedCommit(commit: commit))
                listed += 1
                return true
            }
            return
        }
        let walk = try LogWalk(self, from: start)
        try walk.skip(skip)
        try walk.next(limit ?? Int.max, body)
    }

    /// How many commits are reachable from `start`.
    public func countCommits(from start: ObjectID) throws -> Int {
        var count = 0
        try walk(from: start) { _ in count += 1; return true }
        return count
    }

    /// Commits `local` has that `upstream` lacks, and the reverse.
    public func aheadBehind(local: ObjectID, upstream: ObjectID) throws -> (ahead: Int, behind: Int) {
        var ahead = 0, behind = 0
        try local.withOID { l in try upstream.withOID { u in
            try check(git_graph_ahead_behind(&ahead, &behind, pointer, l, u), "compare histories", displayPath)
        } }
        return (ahead, behind)
    }

    /// Whether `ancestor` is `descendant` or one of its ancestors.
    public func isAncestor(_ ancestor: ObjectID, of descendant: ObjectID) throws -> Bool {
        if ancestor == descendant { return true }
        let code = descendant.withOID { d in ancestor.withOID { a in git_graph_descendant_of(pointer, d, a) } }
        try check(code, "compare histories", displayPath)
        return code == 1
    }

    /// The best common ancestor of two commits, nil when their histories share none.
    public func mergeBase(_ one: ObjectID, _ other: ObjectID) throws -> ObjectID? {
        var base = git_oid()
        let code = one.withOID { a in other.withOID { b in git_merge_base(&base, pointer, a, b) } }
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "find common version", displayPath)
        return ObjectID(base)
    }
}

/// A commit lent by `Repository.forEachInLog` for the duration of one call: its fields read straight from
/// libgit2's parsed commit. Do not keep it (or its pointers) after the call returns; copy `info` instead.
public struct LoggedCommit {
    let commit: OpaquePointer

    /// The commit's id.
    public var id: ObjectID { ObjectID(git_commit_id(commit)) }
    /// The parents' ids, first parent first.
    public var parents: [ObjectID] { (0..<git_commit_parentcount(commit)).compactMap { git_commit_parent_id(commit, $0).map(ObjectID.init) } }
    /// The author's time, in seconds since 1970.
    public var authorTime: Int64 { git_commit_author(commit).map { Int64($0.pointee.when.time) } ?? 0 }
    /// The author's name and email, and the full message, as libgit2 holds them (NUL-terminated, normally UTF-8).
    public var authorName: UnsafePointer<CChar>? { git_commit_author(commit).flatMap { UnsafePointer($0.pointee.name) } }
    public var authorEmail: UnsafePointer<CChar>? { git_commit_author(commit).flatMap { UnsafePointer($0.pointee.email) } }
    public var message: UnsafePointer<CChar>? { git_commit_message(commit) }
    /// The commit copied into a value.
    public var info: CommitInfo { Repository.info(of: commit) }
}
