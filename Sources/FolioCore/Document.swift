import Foundation
import FolioGit

/// One change to a document's files.
public enum DocumentChange: Sendable, Equatable {
    case write(path: String, data: Data, executable: Bool = false)
    case delete(path: String)
}

/// A document: a folder that is a git repository whose every change is one commit.
///
/// Not thread-safe (it owns a libgit2 repository); use one `Document` per thread or task. Several processes may
/// change the same document at once: writers are serialized by a lock and the branch moves by compare-and-swap.
public final class Document {
    /// The document's folder.
    public let url: URL
    /// The document's folder as a path ending in "/".
    let rootPath: String
    /// What `.folio/document.json` says.
    public private(set) var metadata: DocumentMetadata
    /// The underlying repository (for the other Folio modules).
    package let repository: Repository
    let store: DocumentStore
    /// The writer lock (and crash note); maintenance takes it too.
    let lock: DocumentLock
    /// Who commits, resolved on the first change (reading git config); only the time changes per commit.
    private lazy var identity: (author: Signature, committer: Signature) =
        (Identity.author(settings: store.settings, environment: store.environment, repository: repository),
         Identity.committer(settings: store.settings, environment: store.environment, repository: repository))
    /// The branch HEAD names, read once when the document is opened.
    let branch: String
    private var changesSinceMaintenanceCheck = 0
    /// The last commit this document made, so that the next change need not read it back.
    private var lastCommit: CommitInfo?

    init(url: URL, repository: Repository, metadata: DocumentMetadata, store: DocumentStore) throws {
        self.url = url
        self.rootPath = repository.workDirectoryPath ?? url.path + "/"
        self.repository = repository
        self.metadata = metadata
        self.store = store
        self.lock = try DocumentLock(gitDirectory: repository.gitDirectory)
        self.branch = try repository.headBranch() ?? "refs/heads/main"
    }

    private var writesFastLooseObjects = false

    /// Installs the level-1 loose-object writer on the first change (opening a document to read it needs none).
    private func prepareForWriting() throws {
        guard !writesFastLooseObjects else { return }
        try repository.useFastLooseObjects(fsync: store.settings.sync == .full)
        writesFastLooseObjects = true
    }

    /// The author and committer for a commit made now (a fixed `GIT_*_DATE` stays fixed).
    func signatures() -> (author: Signature, committer: Signature) {
        var (author, committer) = identity
        let now = Date()
        if store.environment["GIT_AUTHOR_DATE"] == nil { author.time = now }
        if store.environment["GIT_COMMITTER_DATE"] == nil { committer.time = now }
        return (author, committer)
    }

    /// The newest commit.
    public func head() throws -> CommitInfo {
        guard let id = try repository.headCommitID() else { throw FolioError.notADocument(url.path, "it has no commits") }
        return try repository.commit(id)
    }

    // MARK: Reading

    /// The bytes of `path` in version `rev` (nil: the newest).
    public func read(path: String, at rev: String? = nil) throws -> Data {
        let commit = try rev.map(resolve) ?? head().id
        let info = try repository.commit(commit)
        guard let entry = try repository.entry(atPath: path, inTree: info.tree), entry.kind == .blob else {
            throw FolioError.fileNotFound(path, "\(url.lastPathComponent) at \(commit.short)")
        }
        return try repository.readBlob(entry.id)
    }

    /// The files of version `rev` (nil: the newest), Folio's own files excluded.
    public func files(at rev: String? = nil) throws -> [TreeEntry] {
        let commit = try rev.map(resolve) ?? head().id
        return try repository.files(inTree: repository.commit(commit).tree).filter { !$0.path.hasPrefix(DocumentMetadata.folder + "/") }
    }

    // MARK: Changing

    /// Replaces one file's content as one commit; returns nil when the content is unchanged.
    @discardableResult
    public func write(_ data: Data, to path: String, message: String) throws -> CommitInfo? {
        try apply([.write(path: path, data: data)], message: message)
    }

    /// Applies `changes` as one commit with `message`; returns nil when nothing changed.
    @discardableResult
    public func apply(_ changes: [DocumentChange], message: String) throws -> CommitInfo? {
        try prepareForWriting()
        var treeChanges: [TreeChange] = []
        var workTree: [WorkTreeUpdate] = []
        for change in changes {
            switch change {
            case let .write(path, data, executable):
                try DocumentPath.validate(path, allowFolioFolder: false)
                let blob = try repository.writeBlob(data)
                let mode: UInt32 = executable ? 0o100755 : 0o100644
                treeChanges.append(.upsert(path: path, blob: blob, mode: mode))
                workTree.append(.write(path: path, data: data, blob: blob, mode: mode))
            case let .delete(path):
                try DocumentPath.validate(path, allowFolioFolder: false)
                treeChanges.append(.remove(path: path))
                workTree.append(.remove(path: path))
            }
        }
        return try commitTree(message: message, workTree: workTree) { headTree in try repository.updateTree(headTree, treeChanges) }
    }

    /// What to do to the work tree after a commit: known from the change itself, or derived from a diff.
    enum WorkTreeUpdate {
        case write(path: String, data: Data, blob: ObjectID, mode: UInt32)
        case remove(path: String)
    }

    /// Makes `tree` the current content as one new commit (used by restore, undo, redo, merges).
    @discardableResult
    package func commitTree(message: String, parents extraParents: [ObjectID] = [], build: (ObjectID?) throws -> ObjectID) throws -> CommitInfo? {
        try commitTree(message: message, parents: extraParents, workTree: nil, build: build)
    }

    private func commitTree(message: String, parents extraParents: [ObjectID] = [], workTree known: [WorkTreeUpdate]?,
                            build: (ObjectID?) throws -> ObjectID) throws -> CommitInfo? {
        try prepareForWriting()
        return try lock.withLock {
            try recoverInterruptedChange()
            var attempt = 0
            while true {
                attempt += 1
                let headID = try repository.referenceTarget(branch)
                let headTree = try headID.map(tree(of:))
                let newTree = try build(headTree)
                if newTree == headTree && extraParents.isEmpty { return nil }
                let (author, committer) = signatures()
                let commit = try repository.writeCommit(tree: newTree, parents: (headID.map { [$0] } ?? []) + extraParents,
                                                        author: author, committer: committer, message: message)
                let commitID = commit.id
                let updates = try known ?? workTreeUpdates(repository.deltas(from: headTree, to: newTree))
                try writeIntent(commitID)
                do {
                    try moveBranch(to: commitID, from: headID, message: message)
                } catch let error as GitError where error.isModified || error.isExists {
                    // Another writer (not holding our lock, e.g. plain git) moved the branch: re-apply on top.
                    try clearIntent()
                    if attempt < 20 { continue }
                    throw FolioError.busy(url.path)
                }
                try updateWorkTree(updates)
                try clearIntent()
                try maintainIfNeeded()
                lastCommit = commit
                return commit
            }
        }
    }

    /// The tree of commit `id` (this document's last commit is not read again).
    private func tree(of id: ObjectID) throws -> ObjectID {
        if let lastCommit, lastCommit.id == id { return lastCommit.tree }
        return try repository.commit(id).tree
    }

    private func moveBranch(to commitID: ObjectID, from headID: ObjectID?, message: String) throws {
        var pause: useconds_t = 1000
        for attempt in 0..<8 {
            do {
                try repository.updateReference(branch, to: commitID, expecting: headID, logMessage: "commit: \(message)")
                if store.settings.sync == .full { try repository.syncToDisk([branch]) }
                return
            } catch let error as GitError where error.isLocked {
                // We hold Folio's lock, so a ref lock that outlives a short wait was left by a killed writer.
                if attempt >= 5 { removeStaleLock(repository.gitDirectoryPath + branch + ".lock") }
                usleep(pause)
                pause *= 2
            }
        }
        try repository.updateReference(branch, to: commitID, expecting: headID, logMessage: "commit: \(message)")
        if store.settings.sync == .full { try repository.syncToDisk([branch]) }
    }

    private func removeStaleLock(_ path: String) {
        unlink(path)
    }

    /// The work-tree updates that take the work tree from one tree to another.
    func workTreeUpdates(_ deltas: [FileDelta]) throws -> [WorkTreeUpdate] {
        var updates: [WorkTreeUpdate] = []
        for delta in deltas {
            if delta.status == .renamed || delta.status == .deleted || delta.status == .typeChanged { updates.append(.remove(path: delta.oldPath)) }
            guard delta.status != .deleted, let blob = delta.newID else { continue }
            updates.append(.write(path: delta.newPath, data: try repository.readBlob(blob), blob: blob, mode: delta.newMode))
        }
        return updates
    }

    /// Writes a commit's files into the work tree (atomically, file by file) and records them in the index.
    private func updateWorkTree(_ changes: [WorkTreeUpdate]) throws {
        let sync = store.settings.sync == .full
        var updates: [IndexUpdate] = []
        var removals: [String] = []
        var metadataChanged = false
        for change in changes {
            switch change {
            case let .remove(path):
                removeFile(path)
                removals.append(path)
            case let .write(path, data, blob, mode):
                if mode != 0o120000 {
                    try AtomicFile.write(data, toPath: rootPath + path, sync: sync, mode: mode == 0o100755 ? 0o777 : 0o666, umask: true)
                } else {
                    let target = url.appendingPathComponent(path, isDirectory: false)
                    let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).folio-link")
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    unlink(temporary.path)
                    guard symlink(String(decoding: data, as: UTF8.self), temporary.path) == 0, rename(temporary.path, target.path) == 0 else {
                        throw POSIXFailure(operation: "write link", path: target.path)
                    }
                }
                removals.removeAll { $0 == path }
                updates.append(IndexUpdate(path: path, blob: blob, mode: mode))
                if path == DocumentMetadata.path { metadataChanged = true }
            }
        }
        try withStaleLockRetry(repository.gitDirectoryPath + "index.lock") {
            try repository.updateIndex(updates, removing: removals)
        }
        if sync { try repository.syncToDisk(["index"]) }
        if metadataChanged { try reloadMetadata() }
    }

    private func delta(metadataIn deltas: [FileDelta]) -> Bool {
        deltas.contains { $0.newPath == DocumentMetadata.path }
    }

    private func withStaleLockRetry(_ lockFile: String, _ body: () throws -> Void) throws {
        var pause: useconds_t = 1000
        for attempt in 0..<8 {
            do { return try body() } catch let error as GitError where error.isLocked {
                if attempt >= 5 { removeStaleLock(lockFile) }
                usleep(pause)
                pause *= 2
            }
        }
        try body()
    }

    private func removeFile(_ path: String) {
        let target = url.appendingPathComponent(path, isDirectory: false)
        unlink(target.path)
        // Remove folders the deletion left empty, up to the document's root.
        var folder = target.deletingLastPathComponent()
        while folder.path.count > url.path.count, rmdir(folder.path) == 0 {
            folder = folder.deletingLastPathComponent()
        }
    }

    func reloadMetadata() throws {
        let metadataURL = url.appendingPathComponent(DocumentMetadata.path)
        guard let data = FileManager.default.contents(atPath: metadataURL.path) else { return }
        do { metadata = try DocumentMetadata.decode(data) } catch {
            throw FolioError.invalidFile(metadataURL.path, JSONKeys.describe(error))
        }
    }

    /// Records changes that other programs made to the work tree as one commit; nil when there is nothing to record.
    @discardableResult
    public func commitWorkTree(message: String? = nil) throws -> CommitInfo? {
        try lock.withLock {
            try recoverInterruptedChange()
            let headID = try repository.headCommitID()
            let headTree = try headID.map { try repository.commit($0).tree }
            let tree = try repository.stageWorkTree(write: false)
            if tree == headTree { return nil }
            let deltas = try repository.deltas(from: headTree, to: tree)
            let text = message ?? Self.describe(deltas)
            let (author, committer) = signatures()
            let commit = try repository.writeCommit(tree: tree, parents: headID.map { [$0] } ?? [], author: author, committer: committer, message: text)
            try moveBranch(to: commit.id, from: headID, message: text)
            try withStaleLockRetry(repository.gitDirectoryPath + "index.lock") {
                _ = try repository.stageWorkTree(write: true)
            }
            if delta(metadataIn: deltas) { try reloadMetadata() }
            try maintainIfNeeded()
            return commit
        }
    }

    static func describe(_ deltas: [FileDelta]) -> String {
        guard deltas.count == 1, let only = deltas.first else { return "Change \(deltas.count) files" }
        switch only.status {
        case .added: return "Add \(only.newPath)"
        case .deleted: return "Delete \(only.oldPath)"
        case .renamed: return "Rename \(only.oldPath) to \(only.newPath)"
        default: return "Edit \(only.newPath)"
        }
    }

    // MARK: Crash recovery

    /// Notes which commit is about to become current (and, for a fast-forward, the tree the work tree had), so
    /// that a writer killed between moving the branch and writing the work tree is finished on the next open.
    /// A torn note holds no valid id and is ignored: the note is written before the branch moves.
    private func writeIntent(_ commit: ObjectID, from fromTree: ObjectID? = nil) throws {
        try lock.writeNote(commit.hex + (fromTree.map { " " + $0.hex } ?? ""), sync: store.settings.sync == .full)
    }

    private func clearIntent() throws {
        try lock.clearNote()
    }

    /// Finishes a change interrupted after its commit became current: writes its files into the work tree.
    /// The note holds the commit and, for a fast-forward, the tree the work tree had before.
    func recoverInterruptedChange() throws {
        guard let note = lock.readNote() else { return }
        let words = note.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let first = words.first, let commitID = ObjectID(hex: first), try repository.referenceTarget(branch) == commitID {
            let commit = try repository.commit(commitID)
            let fromTree = try words.count > 1 ? ObjectID(hex: words[1]) : commit.parents.first.map { try repository.commit($0).tree }
            try updateWorkTree(try workTreeUpdates(repository.deltas(from: fromTree, to: commit.tree)))
        }
        try clearIntent()
    }

    /// Finishes a change or fast-forward that a killed process left half-done (opening a document does it too).
    package func finishInterruptedChange() throws {
        try lock.withLock { try recoverInterruptedChange() }
    }

    /// Makes `target`, a descendant of the current version, current without a new commit (a pull that can
    /// fast-forward): moves the branch by compare-and-swap, then writes the changed files and the index, with the
    /// same crash note as a change. Returns false when the current version is not an ancestor of `target`.
    package func fastForward(to target: ObjectID) throws -> Bool {
        try lock.withLock {
            try recoverInterruptedChange()
            let headID = try repository.referenceTarget(branch)
            if headID == target { return true }
            if let headID, try !repository.isAncestor(headID, of: target) { return false }
            let fromTree = try headID.map { try repository.commit($0).tree }
            let updates = try workTreeUpdates(repository.deltas(from: fromTree, to: repository.commit(target).tree))
            try writeIntent(target, from: fromTree ?? repository.emptyTree())
            do {
                try moveBranch(to: target, from: headID, message: "fast-forward")
            } catch let error as GitError where error.isModified || error.isExists {
                try clearIntent()
                return false
            }
            try updateWorkTree(updates)
            try clearIntent()
            return true
        }
    }

    // MARK: Maintenance


    private func maintainIfNeeded() throws {
        // Counting loose objects costs a directory read: do it on the first change and every 32nd after.
        changesSinceMaintenanceCheck += 1
        guard changesSinceMaintenanceCheck == 1 || changesSinceMaintenanceCheck % 32 == 0 else { return }
        guard repository.estimatedLooseObjects() > DocumentMaintenance.looseObjectLimit else { return }
        DocumentMaintenance.schedule(gitDirectory: repository.gitDirectory)
    }

    /// Waits for background packing of this process to finish (tests and tools that inspect the object store).
    public func waitForMaintenance() {
        DocumentMaintenance.waitForAll()
    }
}
