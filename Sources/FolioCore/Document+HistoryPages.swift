import FoundationEssentials
import Glibc
import FolioGit

/// A document's history read a page at a time, newest first, in `Document.log`'s order, from the version it began
/// at (a change made meanwhile does not shift the pages): each page goes on from where the last one stopped, so
/// reading 10,000 versions in pages costs what reading them at once does.
///
/// Holds the document's repository handle between pages: use it from one thread at a time, as the document.
public final class HistoryPages {
    /// The version the pages began at.
    public let start: String
    private let walk: LogWalk
    private let tagsByCommit: [ObjectID: [String]]

    init(repository: Repository, start: ObjectID) throws {
        self.start = start.hex
        walk = try LogWalk(repository, from: start)
        var tags: [ObjectID: [String]] = [:]
        for tag in try repository.tags() { tags[tag.target, default: []].append(tag.name) }
        tagsByCommit = tags
    }

    /// How many versions the pages have passed (listed or skipped).
    public var position: Int { walk.position }
    /// Whether every version has been listed.
    public var isFinished: Bool { walk.isFinished }

    /// Passes over the next `count` versions.
    public func skip(_ count: Int) throws { try walk.skip(count) }

    /// The next `limit` versions at most (fewer at the first one), with the tags naming each.
    public func next(_ limit: Int) throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        entries.reserveCapacity(min(limit, 10_000))
        try walk.next(limit) { commit in entries.append(HistoryEntry(commit.info, tags: tagsByCommit[commit.id] ?? [])) }
        return entries
    }
}

extension Document {
    /// The history from `start` (a version as `resolve` reads it; default: the newest), to read a page at a time.
    public func historyPages(from start: String? = nil) throws -> HistoryPages {
        let id = try start.map(resolve) ?? branchTip()
        return try HistoryPages(repository: repository, start: id)
    }

    /// How many versions the history from `start` (default: the newest) holds: `@N` numbers them from the first.
    public func versionCount(from start: String? = nil) throws -> Int {
        try repository.countCommits(from: start.map(resolve) ?? branchTip())
    }
}
