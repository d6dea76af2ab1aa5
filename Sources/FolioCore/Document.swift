import FoundationEssentials
import Glibc
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
    /// The work tree, written beneath `rootPath` without following links.
    let workTree: WorkTree
    /// Who commits, resolved on the first change (reading git config); only the time changes per commit.
    private var identity: (author: Signature, committer: Signature)?
    /// The branch HEAD names, read once when the document is opened.
    let branch: String
    private var changesSinceMaintenanceCheck = 0
    /// The last commit this document made, so that the next change need not read it back.
    private var lastCommit: CommitInfo?
    /// Set when the last change (or finishing an interrupted one) could not write the work tree: what is out of
    /// date and why. The change itself is in the history; `repairWorkTree()` writes the files.
    public internal(set) var workTreeProblem: WorkTreeStatus?
    /// errno of the last failed work-tree write, kept in the crash note while the work tree is behind.
    private var lastFailureCode: Int32?

    init(url: URL, repository: Repository, metadata: DocumentMetadata, store: DocumentStore, readOnly: Bool = false) throws {
        self.url = url
        self.rootPath = repository.workDirectoryPath ?? url.path + "/"
        self.repository = repository
        self.metadata = metadata
        self.store = store
        self.lock = DocumentLock(gitDirectory: repository.gitDirectory, readOnly: readOnly)
        self.workTree = WorkTree(rootPath: rootPath, displayRoot: url.path)
        self.branch = Self.branchHEADNames(repository)
    }

    private var writesFastLooseObjects = false

    /// Whether this document's durability setting asks for fsyncs (`sync: full`), for what other modules write
    /// into it (fetched packs).
    package var syncsToDisk: Bool { store.settings.sync == .full }

    /// Installs the level-1 loose-object writer on the first change (opening a document to read it needs none).
    private func prepareForWriting() throws {
        guard !writesFastLooseObjects else { return }
        try repository.useFastLooseObjects(fsync: store.settings.sync == .full)
        writesFastLooseObjects = true
    }

    /// The author and committer for a commit made now (a fixed `GIT_*_DATE` stays fixed).
    func signatures() throws -> (author: Signature, committer: Signature) {
        let resolved = try identity ?? (Identity.author(settings: store.settings, environment: store.environment, repository: repository),
                                        Identity.committer(settings: store.settings, environment: store.environment, repository: repository))
        identity = resolved
        var (author, committer) = resolved
        let now = Date()
        if !Identity.fixesDate("GIT_AUTHOR_DATE", environment: store.environment) { author.time = now }
        if !Identity.fixesDate("GIT_COMMITTER_DATE", environment: store.environment) { committer.time = now }
        return (author, committer)
    }

    /// The newest commit.
    public func head() throws -> CommitInfo {
        try repository.commit(branchTip())
    }

    /// The history entry of `commit` (e.g. one a change just returned), with the tags naming it.
    public func historyEntry(_ commit: CommitInfo) throws -> HistoryEntry {
        HistoryEntry(commit, tags: try repository.tags().filter { $0.target == commit.id }.map(\.name))
    }

    // MARK: Reading

    /// The bytes of `path` in version `rev` (nil: the newest).
    public func read(path: String, at rev: String? = nil) throws -> Data {
        let commit = try rev.map(resolve) ?? head().id
        let info = try repository.commit(commit)
        guard let entry = try repository.entry(atPath: path, inTree: info.tree), entry.kind == .blob else {
            throw FolioError.fileNotFound(file: path, location: "\(url.lastPathComponent) at \(commit.short)")
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
        var workTreeUpdates: [WorkTreeUpdate] = []
        for change in changes {
            switch change {
            case let .write(path, data, executable):
                try DocumentPath.validate(path, allowFolioFolder: false)
                try workTree.checkNames(path)
                let blob = try saving(path) { try repository.writeBlob(data) }
                let mode: UInt32 = executable ? 0o100755 : 0o100644
                treeChanges.append(.upsert(path: path, blob: blob, mode: mode))
                workTreeUpdates.append(.write(path: path, data: data, blob: blob, mode: mode))
            case let .delete(path):
                try DocumentPath.validate(path, allowFolioFolder: false)
                treeChanges.append(.remove(path: path))
                workTreeUpdates.append(.remove(path: path))
            }
        }
        let writes = workTreeUpdates.compactMap { if case let .write(path, _, _, _) = $0 { path } else { nil } }
        return try commitTree(message: message, workTree: workTreeUpdates) { headTree in
            do { return try repository.updateTree(headTree, treeChanges) } catch let error as GitError {
                // libgit2 refuses a file where a folder must be (and the reverse); say which, on the user's paths.
                try checkFolders(of: writes, in: headTree)
                throw error
            }
        }
    }

    /// Refuses writes below a path that is a file or link in the current version, and over a folder there (a git
    /// tree cannot hold both).
    private func checkFolders(of paths: [String], in tree: ObjectID?) throws {
        let written = Set(paths)
        for path in paths {
            for folder in WorkTree.folders(of: path) {
                if written.contains(String(folder)) { throw WorkTreeError.notAFolder(path: workTree.display(path), file: String(folder)) }
                guard let tree, let entry = try repository.entry(atPath: String(folder), inTree: tree) else { continue }
                if entry.kind == .blob { throw WorkTreeError.notAFolder(path: workTree.display(path), file: String(folder)) }
            }
            if let tree, try repository.entry(atPath: path, inTree: tree)?.kind == .tree { throw WorkTreeError.isAFolder(path: workTree.display(path)) }
        }
    }

    /// Runs an object-store write for `path` (nil: the whole change), turning libgit2's failure into one naming the
    /// file (or the document) and the cause.
    func saving<R>(_ path: String?, _ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as GitError {
            throw WorkTreeError.storeFailed(path: path.map(workTree.display) ?? url.path, cause: Self.cause(of: error))
        } catch let error as FileSystemError {
            throw WorkTreeError.storeFailed(path: path.map(workTree.display) ?? url.path, cause: error.reason)
        }
    }

    /// The cause of a libgit2 failure for a user: libgit2's message, or errno's when libgit2 gave none.
    static func cause(of error: GitError) -> String {
        if error.message.hasPrefix("libgit2 error"), errno != 0 { return String(cString: strerror(errno)) }
        return error.message
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
            // When the work tree is still behind from an earlier failure, this change writes those files too.
            let behindFrom = recoverInterruptedChange()
            var attempt = 0
            while true {
                attempt += 1
                let headID: ObjectID? = try branchTip()
                let headTree = try headID.map(tree(of:))
                let newTree = try build(headTree)
                if newTree == headTree && extraParents.isEmpty { return nil }
                let (author, committer) = try signatures()
                let commit = try saving(nil) {
                    try repository.writeCommit(tree: newTree, parents: (headID.map { [$0] } ?? []) + extraParents,
                                               author: author, committer: committer, message: message)
                }
                let commitID = commit.id
                let shownTree = try behindFrom ?? headTree ?? repository.emptyTree()
                try passGate(newTree, shown: shownTree)
                let updates = try (behindFrom == nil ? known : nil) ?? workTreeUpdates(repository.deltas(from: shownTree, to: newTree))
                try checkWorkTree(updates)
                try writeIntent(commitID, from: shownTree)
                do {
                    try moveBranch(to: commitID, from: headID, message: message)
                } catch let error as GitError where error.isModified || error.isExists {
                    // Another writer (not holding our lock, e.g. plain git) moved the branch: re-apply on top.
                    try writeIntentOrClear(behindFrom)
                    if attempt < 20 { continue }
                    throw FolioError.busy(url.path)
                }
                try finishWorkTree(updates, commit: commitID, from: shownTree)
                try maintainIfNeeded()
                lastCommit = commit
                return commit
            }
        }
    }

    /// Every tree about to become current passes `DocumentTreeGate` where it differs from the tree the work tree shows
    /// (a restore of a commit that a fetch would refuse is refused the same way).
    private func passGate(_ tree: ObjectID, shown: ObjectID, commit: ObjectID? = nil) throws {
        do { try DocumentTreeGate.check(tree, shown: shown, commit: commit, repository: repository) } catch let refused as RefusedObject {
            throw FolioError.refusedVersion(document: url.path, refused: refused)
        }
    }

    /// Refuses, before anything becomes current, work-tree writes the file system would refuse: names and paths
    /// too long, a link or a file where a folder must be, a folder where a file goes.
    private func checkWorkTree(_ updates: [WorkTreeUpdate]) throws {
        var writes: [String] = []
        var removals: [String] = []
        for update in updates {
            switch update {
            case let .write(path, _, _, _): writes.append(path)
            case let .remove(path): removals.append(path)
            }
        }
        try workTree.check(writes: writes, removals: removals)
    }

    /// Writes a change's files after its commit became current and clears the crash note; when that fails, the
    /// note stays (naming the tree the work tree still shows, and why) and `workTreeProblem` says what is out of date.
    private func finishWorkTree(_ updates: [WorkTreeUpdate], commit: ObjectID, from shownTree: ObjectID) throws {
        do {
            try updateWorkTree(updates)
            try clearIntent()
            workTreeProblem = nil
        } catch {
            try noteWorkTreeFailure(error, commit: commit, from: shownTree)
        }
    }

    private func writeIntentOrClear(_ behindFrom: ObjectID?) throws {
        guard let behindFrom, let head = try repository.referenceTarget(branch) else { return try clearIntent() }
        try writeIntent(head, from: behindFrom, failure: lastFailureCode)
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
                workTree.remove(path)
                removals.append(path)
            case let .write(path, data, blob, mode):
                if mode != 0o120000 {
                    try workTree.write(data, to: path, mode: mode == 0o100755 ? 0o777 : 0o666, sync: sync)
                } else {
                    try workTree.writeLink(String(decoding: data, as: UTF8.self), to: path, sync: sync)
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

    func reloadMetadata() throws {
        let metadataURL = url.appendingPathComponent(DocumentMetadata.path)
        guard let data = workTree.read(DocumentMetadata.path) else { return }
        do { metadata = try DocumentMetadata.decode(data) } catch {
            throw FolioError.invalidFile(path: metadataURL.path, problem: JSONKeys.describe(error))
        }
    }

    /// Records changes that other programs made to the work tree as one commit; nil when there is nothing to record.
    @discardableResult
    public func commitWorkTree(message: String? = nil) throws -> CommitInfo? {
        try lock.withLock {
            // Recording the work tree while it is behind would take back the changes it does not show yet.
            if recoverInterruptedChange() != nil, let problem = workTreeProblem, !problem.isCurrent {
                throw WorkTreeError.outOfDate(document: url.path, files: problem.outOfDate, cause: problem.cause ?? "an earlier write failed")
            }
            let headID: ObjectID? = try branchTip()
            let headTree = try headID.map { try repository.commit($0).tree }
            let tree = try repository.stageWorkTree(write: false)
            if tree == headTree { return nil }
            // A link out of the document is never recorded: every collaborator's fetch would refuse it.
            do { try repository.checkTree(tree, against: headTree, linksStayInside: true) } catch let refused as RefusedObject {
                throw FolioError.refusedVersion(document: url.path, refused: refused)
            }
            let deltas = try repository.deltas(from: headTree, to: tree)
            // Names Folio reserves for its temporary files are never recorded (a sweep after a crash would take them).
            for delta in deltas where delta.status != .deleted { try workTree.checkNames(delta.newPath) }
            let text = message ?? Self.describe(deltas)
            let (author, committer) = try signatures()
            let commit = try repository.writeCommit(tree: tree, parents: headID.map { [$0] } ?? [], author: author, committer: committer, message: text)
            try moveBranch(to: commit.id, from: headID, message: text)
            try withStaleLockRetry(repository.gitDirectoryPath + "index.lock") {
                _ = try repository.stageWorkTree(write: true)
            }
            if store.settings.sync == .full { try repository.syncToDisk(["index"]) }
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

    // MARK: Crash recovery and an out-of-date work tree

    /// What the crash note says is left to do: bring the work tree from the tree it shows to the current version.
    struct PendingWorkTree {
        /// The tree the work tree shows (all of it written).
        let shown: ObjectID
        /// The current commit and its tree.
        let current: ObjectID
        let currentTree: ObjectID
        /// errno of the last failed attempt, when one failed.
        let failure: Int32?
    }

    /// Notes, before the branch moves, which commit is about to become current and which tree the work tree shows,
    /// so that a writer killed (or failing) between moving the branch and writing the work tree is finished later.
    /// A torn note holds no valid id and is ignored: the note is written before the branch moves.
    private func writeIntent(_ commit: ObjectID, from shownTree: ObjectID, failure: Int32? = nil) throws {
        try lock.writeNote(commit.hex + " " + shownTree.hex + (failure.map { " \($0)" } ?? ""), sync: store.settings.sync == .full)
    }

    private func clearIntent() throws {
        try lock.clearNote()
    }

    /// The work tree's unfinished update, nil when it shows the current version.
    func pendingWorkTree() throws -> PendingWorkTree? {
        guard let note = lock.readNote() else { return nil }
        let words = note.split(separator: " ").map(String.init)
        guard let first = words.first, let noted = ObjectID(hex: first), let current = try repository.referenceTarget(branch) else { return nil }
        let currentTree = try repository.commit(current).tree
        let shown: ObjectID
        if words.count > 1, let tree = ObjectID(hex: words[1]) {
            shown = tree
        } else if noted == current {
            // A note of an older Folio: the commit alone, whose first parent the work tree showed.
            shown = try repository.commit(current).parents.first.map { try repository.commit($0).tree } ?? repository.emptyTree()
        } else {
            return nil
        }
        if shown == currentTree { return nil }
        return PendingWorkTree(shown: shown, current: current, currentTree: currentTree, failure: words.count > 2 ? Int32(words[2]) : nil)
    }

    /// Finishes a change interrupted after its commit became current, or one whose work-tree write failed: writes
    /// the files that differ between the tree the work tree shows and the current version. Call holding the lock.
    ///
    /// Never throws: when writing fails again the note stays and `workTreeProblem` says why. Returns the tree the
    /// work tree still shows when it is behind, nil when it is current.
    @discardableResult
    func recoverInterruptedChange() -> ObjectID? {
        guard let note = lock.readNote() else { return nil }
        // With HEAD or the branch damaged the note's version may be the one a repair needs: it stays.
        if (try? refProblem()) != nil { return nil }
        removeTemporaries(of: note)
        guard let pending = try? pendingWorkTree() else {
            try? clearIntent()
            return nil
        }
        let updates: [WorkTreeUpdate]
        do { updates = try workTreeUpdates(repository.deltas(from: pending.shown, to: pending.currentTree)) } catch {
            // The note names a tree this repository cannot read (a damaged note): nothing can be finished from it.
            try? clearIntent()
            return nil
        }
        do {
            try updateWorkTree(updates)
            try clearIntent()
            workTreeProblem = nil
            return nil
        } catch {
            try? noteWorkTreeFailure(error, commit: pending.current, from: pending.shown)
            return pending.shown
        }
    }

    /// Removes the temporary files a writer killed while writing the work tree left beside the files it wrote.
    /// Work-tree files are written only while a note is kept, by a writer holding the lock, and only in the folders
    /// of the files that differ between the tree the note says the work tree shows and the noted commit's tree (or
    /// the current one, when finishing an earlier change): those folders are swept. Call holding the lock.
    private func removeTemporaries(of note: String) {
        let words = note.split(separator: " ")
        guard let first = words.first, let noted = ObjectID(hex: String(first)) else { return }
        var targets: [ObjectID] = []
        if let commit = try? repository.commit(noted) { targets.append(commit.tree) }
        if let current = try? repository.referenceTarget(branch), let commit = try? repository.commit(current) { targets.append(commit.tree) }
        let shown: ObjectID?
        if words.count > 1 { shown = ObjectID(hex: String(words[1])) } else {
            // A note of an older Folio: the commit alone, whose first parent the work tree showed.
            shown = try? repository.commit(noted).parents.first.map { try repository.commit($0).tree } ?? repository.emptyTree()
        }
        guard let shown else { return }
        var folders: Set<String> = []
        for target in Set(targets) {
            guard let deltas = try? repository.deltas(from: shown, to: target) else { continue }
            for delta in deltas {
                for path in [delta.oldPath, delta.newPath] { folders.insert(String(WorkTree.split(path).folder)) }
            }
        }
        workTree.removeTemporaries(in: folders)
    }

    /// Keeps the note of a failed work-tree write (with errno) and sets `workTreeProblem`.
    private func noteWorkTreeFailure(_ error: any Error, commit: ObjectID, from shownTree: ObjectID) throws {
        let code = Self.errorCode(of: error)
        lastFailureCode = code
        try writeIntent(commit, from: shownTree, failure: code)
        let status = (try? computeWorkTreeStatus()) ?? WorkTreeStatus(outOfDate: [], cause: nil)
        workTreeProblem = WorkTreeStatus(outOfDate: status.outOfDate, cause: status.cause ?? "\(error)")
    }

    /// errno behind a work-tree failure (nil when there is none, e.g. a libgit2 index failure).
    static func errorCode(of error: any Error) -> Int32? {
        switch error {
        case let WorkTreeError.systemCallFailed(_, _, code): return code
        case WorkTreeError.isAFolder: return EISDIR
        case WorkTreeError.notAFolder: return ENOTDIR
        case WorkTreeError.linkInPath: return ELOOP
        case WorkTreeError.nameTooLong, WorkTreeError.pathTooLong: return ENAMETOOLONG
        case let failure as POSIXFailure: return failure.code
        default: return nil
        }
    }

    /// Whether the work tree shows the current version, and which files are out of date when it does not (after a
    /// write that failed, e.g. on a full disk). Reading only: works on a document the user may not write.
    public func workTreeStatus() throws -> WorkTreeStatus {
        try lock.whileReading { try computeWorkTreeStatus() }
    }

    private func computeWorkTreeStatus() throws -> WorkTreeStatus {
        // A damaged note (naming a tree this repository cannot read) says nothing about the work tree.
        guard let pending = try? pendingWorkTree(),
              let updates = try? workTreeUpdates(repository.deltas(from: pending.shown, to: pending.currentTree)) else { return .current }
        var written: Set<String> = []
        var outOfDate: Set<String> = []
        for case let .write(path, data, _, mode) in updates {
            written.insert(path)
            let shown = mode == 0o120000 ? workTree.linkTarget(path).map { Data($0.utf8) } : workTree.read(path)
            if shown != data { outOfDate.insert(path) }
        }
        for case let .remove(path) in updates where !written.contains(path) && workTree.exists(path) {
            outOfDate.insert(path)
        }
        return WorkTreeStatus(outOfDate: outOfDate.sorted(), cause: pending.failure.map { String(cString: strerror($0)) })
    }

    /// The out-of-date files of a work tree left behind by a failed write that still show what the work tree showed
    /// before (missing where that version had none): Folio's stale content, not changes of the user's. Reading only.
    package func outOfDateFilesNotChangedByTheUser() throws -> Set<String> {
        try lock.whileReading {
            guard let pending = try? pendingWorkTree() else { return [] }
            var stale: Set<String> = []
            for path in try computeWorkTreeStatus().outOfDate {
                let before = try repository.entry(atPath: path, inTree: pending.shown)
                let shown: Data?
                if before?.isSymlink == true { shown = workTree.linkTarget(path).map { Data($0.utf8) } } else { shown = workTree.read(path) }
                let expected = try before.flatMap { $0.kind == .blob ? try repository.readBlob($0.id) : nil }
                if shown == expected && (before != nil || !workTree.exists(path)) { stale.insert(path) }
            }
            return stale
        }
    }

    /// Writes the work tree's out-of-date files from the current version (after a failed write, once the cause is
    /// gone); returns what is still out of date, `.current` when the work tree is mended.
    @discardableResult
    public func repairWorkTree() throws -> WorkTreeStatus {
        try lock.withLock {
            recoverInterruptedChange()
            return try computeWorkTreeStatus()
        }
    }

    /// Finishes a change or fast-forward that a killed process left half-done (opening a document does it too).
    /// Does nothing on a document that cannot be written; a write that fails again is reported by `workTreeProblem`.
    package func finishInterruptedChange() throws {
        guard lock.isWritable, lock.readNote() != nil else { return }
        try lock.withLock { _ = recoverInterruptedChange() }
    }

    /// Makes `target`, a descendant of the current version, current without a new commit (a pull that can
    /// fast-forward): moves the branch by compare-and-swap, then writes the changed files and the index, with the
    /// same crash note as a change. Returns false when the current version is not an ancestor of `target`.
    package func fastForward(to target: ObjectID) throws -> Bool {
        try lock.withLock {
            let behindFrom = recoverInterruptedChange()
            let headID: ObjectID? = try branchTip()
            if headID == target { return true }
            if let headID, try !repository.isAncestor(headID, of: target) { return false }
            let shownTree = try behindFrom ?? headID.map { try repository.commit($0).tree } ?? repository.emptyTree()
            let targetTree = try repository.commit(target).tree
            try passGate(targetTree, shown: shownTree, commit: target)
            let updates = try workTreeUpdates(repository.deltas(from: shownTree, to: targetTree))
            try checkWorkTree(updates)
            try writeIntent(target, from: shownTree)
            do {
                try moveBranch(to: target, from: headID, message: "fast-forward")
            } catch let error as GitError where error.isModified || error.isExists {
                try writeIntentOrClear(behindFrom)
                return false
            }
            try finishWorkTree(updates, commit: target, from: shownTree)
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
