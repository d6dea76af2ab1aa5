import FoundationEssentials
import Glibc
import FolioGit

/// One version in a document's history, as `folio log` shows it.
public struct HistoryEntry: Sendable, Equatable, Encodable {
    public let id: String
    public let shortID: String
    public let time: Date
    public let author: String
    public let email: String
    public let message: String
    public let summary: String
    public let tags: [String]
    public let parents: [String]

    init(_ commit: CommitInfo, tags: [String]) {
        id = commit.id.hex
        shortID = commit.id.short
        time = commit.author.time
        author = commit.author.name
        email = commit.author.email
        message = commit.message
        summary = commit.summary
        self.tags = tags
        parents = commit.parents.map(\.hex)
    }
}

/// The trailers Folio writes into undo and redo commits; history is the undo stack.
enum UndoTrailer {
    static let undo = "Folio-Undo"
    static let redo = "Folio-Redo"
}

extension Document {
    /// Resolves a version: a full or short commit id, a tag, `HEAD~N`, or `@N` (the Nth version, 1 = first).
    public func resolve(_ rev: String) throws -> ObjectID {
        if rev.hasPrefix("@"), let n = Int(rev.dropFirst()) {
            let head = try branchTip()
            guard n >= 1 else { throw FolioError.unknownRevision(revision: rev, document: url.path) }
            let total = try repository.countCommits(from: head)
            guard n <= total else { throw FolioError.unknownRevision(revision: rev, document: url.path) }
            var found: ObjectID?
            var index = total
            try repository.walk(from: head) { id in
                if index == n { found = id; return false }
                index -= 1
                return true
            }
            guard let found else { throw FolioError.unknownRevision(revision: rev, document: url.path) }
            return found
        }
        _ = try branchTip()  // a damaged HEAD or branch is said as such, not as an unknown version
        do { return try repository.resolveCommit(rev) } catch let error as GitError {
            if error.isAmbiguous { throw FolioError.ambiguousRevision(revision: rev, document: url.path) }
            throw FolioError.unknownRevision(revision: rev, document: url.path)
        }
    }

    /// Versions newest first: skips `skip`, at most `limit`, only those after `since` when given.
    public func log(limit: Int? = nil, skip: Int = 0, since: String? = nil) throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        try forEachLogEntry(limit: limit, skip: skip, since: since) { commit, tags in entries.append(HistoryEntry(commit.info, tags: tags)) }
        return entries
    }

    /// Calls `body` for each version `log` would list, in the same order, with the tags naming it; the commit is
    /// lent for the call only (a full log of a long history is printed without copying it all first).
    public func forEachLogEntry(limit: Int? = nil, skip: Int = 0, since: String? = nil, _ body: (LoggedCommit, [String]) throws -> Void) throws {
        let head = try branchTip()
        let hidden = try since.map(resolve)
        // A long walk reads each commit once; libgit2's object cache never holds commits (set once for the process
        // in `GitLibrary`), so the walk costs no cache upkeep and no option is flipped under another thread.
        var tagsByCommit: [ObjectID: [String]] = [:]
        for tag in try repository.tags() { tagsByCommit[tag.target, default: []].append(tag.name) }
        try repository.forEachInLog(from: head, skip: skip, limit: limit, hiding: hidden) { commit in
            try body(commit, tagsByCommit.isEmpty ? [] : tagsByCommit[commit.id] ?? [])
        }
    }

    /// The unified diff between two versions (defaults: the previous version and the current one).
    public func diff(from a: String? = nil, to b: String? = nil) throws -> String {
        let newID = try b.map(resolve) ?? head().id
        let oldID: ObjectID?
        if let a { oldID = try resolve(a) } else { oldID = try repository.commit(newID).parents.first }
        let oldTree = try oldID.map { try repository.commit($0).tree }
        return try repository.patch(from: oldTree, to: repository.commit(newID).tree)
    }

    /// Makes `rev`'s content current as a new commit "Restore to <id>: <message>"; history is never rewritten.
    @discardableResult
    public func restore(_ rev: String) throws -> CommitInfo? {
        let target = try repository.commit(resolve(rev))
        return try commitTree(message: "Restore to \(target.id.short): \(Self.displaySummary(target))") { _ in target.tree }
    }

    /// Undoes the newest change that is not yet undone, as a new commit "Undo: <message>".
    @discardableResult
    public func undo() throws -> CommitInfo {
        guard let target = try undoTarget() else { throw FolioError.nothingToUndo(document: url.path) }
        let parentTree = try target.parents.first.map { try repository.commit($0).tree }
        guard let parentTree else { throw FolioError.nothingToUndo(document: url.path) }
        let message = "Undo: \(Self.displaySummary(target))\n\n\(UndoTrailer.undo): \(target.id.hex)\n"
        guard let commit = try commitTree(message: message, build: { _ in parentTree }) else {
            throw FolioError.nothingToUndo(document: url.path)
        }
        return commit
    }

    /// Redoes the newest undone change, as a new commit "Redo: <message>".
    @discardableResult
    public func redo() throws -> CommitInfo {
        guard let target = try redoTarget() else { throw FolioError.nothingToRedo(document: url.path) }
        let message = "Redo: \(Self.displaySummary(target))\n\n\(UndoTrailer.redo): \(target.id.hex)\n"
        guard let commit = try commitTree(message: message, build: { _ in target.tree }) else {
            throw FolioError.nothingToRedo(document: url.path)
        }
        return commit
    }

    /// Whether there is a change to undo.
    public var canUndo: Bool { ((try? undoTarget()) ?? nil) != nil }
    /// Whether there is an undone change to redo.
    public var canRedo: Bool { ((try? redoTarget()) ?? nil) != nil }

    /// The change `undo` would take back: walking back from HEAD, each undo cancels one earlier change.
    func undoTarget() throws -> CommitInfo? {
        var pendingUndos = 0
        var target: CommitInfo?
        try walkBack { commit in
            if commit.parents.isEmpty { return false }  // the creation cannot be undone
            if commit.trailer(UndoTrailer.undo) != nil {
                pendingUndos += 1
            } else if pendingUndos > 0 {
                pendingUndos -= 1
            } else {
                target = commit
                return false
            }
            return true
        }
        return target
    }

    /// The change `redo` would bring back: the one taken back by the newest undo not yet redone, provided no
    /// ordinary change came after it.
    func redoTarget() throws -> CommitInfo? {
        var pendingRedos = 0
        var target: CommitInfo?
        try walkBack { commit in
            if commit.trailer(UndoTrailer.redo) != nil {
                pendingRedos += 1
                return true
            }
            if let undone = commit.trailer(UndoTrailer.undo) {
                if pendingRedos > 0 { pendingRedos -= 1; return true }
                if let id = ObjectID(hex: undone) { target = try repository.commit(id) }
                return false
            }
            return false  // an ordinary change clears the redo path
        }
        return target
    }

    /// Walks the branch's commits back from its tip, newest first, while `visit` returns true.
    private func walkBack(_ visit: (CommitInfo) throws -> Bool) throws {
        try repository.walk(from: try branchTip()) { id in try visit(try repository.commit(id)) }
    }

    /// A commit's first line without the Undo:/Redo: prefixes piled up by repeated undo and redo.
    static func displaySummary(_ commit: CommitInfo) -> String {
        var summary = commit.summary
        while let prefix = ["Undo: ", "Redo: "].first(where: { summary.hasPrefix($0) }) { summary.removeFirst(prefix.count) }
        return summary
    }

    /// Names version `rev` (default: the newest) with the tag `name`.
    public func tag(_ name: String, at rev: String? = nil) throws {
        guard Self.versionNameProblem(name) == nil else { throw FolioError.invalidVersionName(name) }
        let target = try rev.map(resolve) ?? head().id
        if try repository.referenceTarget("refs/tags/\(name)") != nil {
            throw FolioError.versionExists(name: name, document: url.path)
        }
        let tagger = try signatures().committer
        try repository.createTag(name, target: target, tagger: tagger, message: name + "\n")
    }

    /// Why `name` cannot name a version, nil when it can: git's rules for tag names (checked before anything is
    /// written, so `git fsck --strict` stays clean), and no name that reads as one of Folio's own ways to name a
    /// version (`HEAD`, `@N`).
    public static func versionNameProblem(_ name: String) -> String? {
        if let problem = GitNames.problem(with: name, as: .tag) { return problem.description }
        if name.hasPrefix("@") { return "it cannot start with '@', which numbers versions (@1 is the first)" }
        if name.uppercased() == "HEAD" { return "HEAD names the newest version" }
        return nil
    }

    /// The named versions, sorted by name.
    public func tags() throws -> [TagInfo] { try repository.tags() }
}
