import CGit2
import FoundationEssentials
import Glibc

/// A walk over a history newest first, as `Repository.forEachInLog` lists it (newest committer time first among the
/// branches met, each commit read once), that can stop after a page and go on later from where it stopped: reading
/// a long history a page at a time costs the same as reading it at once, where a walk begun again for each page
/// (skipping what was listed) costs the square of the pages.
///
/// Owns the commits it has met but not yet listed (freed when it ends). Not thread-safe, like its `Repository`,
/// which it keeps open.
public final class LogWalk {
    let repository: Repository
    /// The commit the walk started from.
    public let start: ObjectID
    /// The commits met but not yet listed: at most as many as there are branches running side by side.
    private var frontier: [(time: Int64, commit: OpaquePointer)] = []
    /// A commit can be met twice only along two paths that part at a merge, which is listed before either path goes
    /// on; so until the first merge (for ever, in a linear history) nothing needs remembering.
    private var seen: Set<ObjectID> = []
    private var mergeListed = false
    /// How many commits the walk has passed (listed or skipped).
    public private(set) var position = 0

    /// A walk from `start`, which is read at once (an error names it).
    public init(_ repository: Repository, from start: ObjectID) throws {
        self.repository = repository
        self.start = start
        frontier.append(try repository.lookupLoggedCommit(start))
    }

    deinit { frontier.forEach { git_commit_free($0.commit) } }

    /// Whether every commit has been passed.
    public var isFinished: Bool { frontier.isEmpty }

    /// Passes over the next `count` commits without lending them.
    public func skip(_ count: Int) throws {
        var skipped = 0
        while skipped < count, let commit = try advance() {
            git_commit_free(commit)
            skipped += 1
        }
    }

    /// Lends each of the next commits (at most `limit`) to `body`, newest first, for the duration of the call.
    public func next(_ limit: Int, _ body: (LoggedCommit) throws -> Void) throws {
        var listed = 0
        while listed < limit, let commit = try advance() {
            defer { git_commit_free(commit) }
            try body(LoggedCommit(commit: commit))
            listed += 1
        }
    }

    /// Takes the newest commit off the frontier and puts its parents on it; the caller frees the commit.
    private func advance() throws -> OpaquePointer? {
        guard !frontier.isEmpty else { return nil }
        var newest = 0
        for index in frontier.indices where frontier[index].time > frontier[newest].time { newest = index }
        frontier.swapAt(newest, frontier.count - 1)
        let commit = frontier.removeLast().commit
        do {
            let parents = git_commit_parentcount(commit)
            if parents > 1 { mergeListed = true }
            for index in 0..<parents {
                guard let parentID = git_commit_parent_id(commit, index).map(ObjectID.init) else { continue }
                if mergeListed, !seen.insert(parentID).inserted { continue }
                frontier.append(try repository.lookupLoggedCommit(parentID))
            }
        } catch {
            git_commit_free(commit)
            throw error
        }
        position += 1
        return commit
    }
}

extension Repository {
    func lookupLoggedCommit(_ id: ObjectID) throws -> (time: Int64, commit: OpaquePointer) {
        var commit: OpaquePointer?
        try id.withOID { try check(git_commit_lookup(&commit, pointer, $0), "read commit", id.hex) }
        guard let commit else { throw GitError(operation: "read commit", subject: id.hex, message: "no commit returned") }
        return (Int64(git_commit_time(commit)), commit)
    }
}
