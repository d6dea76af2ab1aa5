import Foundation
import FolioGit

extension Document {
    /// The note a fast-forward leaves while it moves the branch and rewrites files: "<from tree> <to commit>".
    private var fastForwardIntentURL: URL { repository.gitDirectory.appendingPathComponent("folio/fast-forward") }

    /// Makes `target`, a descendant of the current version, current without a new commit: moves the branch by
    /// compare-and-swap, then writes the changed files (atomically, file by file) and the index. Returns false
    /// when the current version is no longer an ancestor of `target` (another writer moved on: merge instead).
    package func fastForward(to target: ObjectID) throws -> Bool {
        let lock = try DocumentLock(gitDirectory: repository.gitDirectory)
        return try lock.withLock {
            try recoverInterruptedChange()
            try recoverInterruptedFastForward()
            let branch = try repository.headBranch() ?? "refs/heads/main"
            let headID = try repository.referenceTarget(branch)
            if headID == target { return true }
            if let headID, try !repository.isAncestor(headID, of: target) { return false }
            let fromTree = try headID.map { try repository.commit($0).tree }
            let toTree = try repository.commit(target).tree
            try writeFastForwardIntent(from: fromTree, to: target)
            try repository.updateReference(branch, to: target, expecting: headID, logMessage: "fast-forward")
            try applyTreeChange(from: fromTree, to: toTree)
            unlink(fastForwardIntentURL.path)
            return true
        }
    }

    /// Finishes a fast-forward killed after its branch moved: rewrites every file that differs between the old
    /// tree and the new one (idempotent), then forgets the note.
    package func recoverInterruptedFastForward() throws {
        guard let data = FileManager.default.contents(atPath: fastForwardIntentURL.path) else { return }
        let words = String(decoding: data, as: UTF8.self).split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        if words.count == 2, let target = ObjectID(hex: words[1]), try repository.headCommitID() == target {
            let fromTree = ObjectID(hex: words[0])
            try applyTreeChange(from: fromTree, to: repository.commit(target).tree)
        }
        unlink(fastForwardIntentURL.path)
    }

    private func writeFastForwardIntent(from tree: ObjectID?, to target: ObjectID) throws {
        let text = "\(tree?.hex ?? "-") \(target.hex)\n"
        try AtomicFile.write(Data(text.utf8), to: fastForwardIntentURL, sync: store.settings.sync == .full)
    }

    /// Writes the work-tree and index changes that take the document from one tree to another.
    private func applyTreeChange(from old: ObjectID?, to new: ObjectID) throws {
        let sync = store.settings.sync == .full
        var updates: [IndexUpdate] = []
        var removals: [String] = []
        var metadataChanged = false
        for change in try workTreeUpdates(repository.deltas(from: old, to: new)) {
            switch change {
            case let .remove(path):
                let target = url.appendingPathComponent(path)
                unlink(target.path)
                var folder = target.deletingLastPathComponent()
                while folder.path.count > url.path.count, rmdir(folder.path) == 0 { folder = folder.deletingLastPathComponent() }
                removals.append(path)
            case let .write(path, data, blob, mode):
                let target = url.appendingPathComponent(path)
                if mode == 0o120000 {
                    let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).folio-link")
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    unlink(temporary.path)
                    guard symlink(String(decoding: data, as: UTF8.self), temporary.path) == 0, rename(temporary.path, target.path) == 0 else {
                        throw POSIXFailure(operation: "write link", path: target.path)
                    }
                } else {
                    try AtomicFile.write(data, to: target, sync: sync, mode: mode == 0o100755 ? 0o755 : 0o644)
                }
                removals.removeAll { $0 == path }
                updates.append(IndexUpdate(path: path, blob: blob, mode: mode))
                if path == DocumentMetadata.path { metadataChanged = true }
            }
        }
        try repository.updateIndex(updates, removing: removals)
        if metadataChanged { try reloadMetadata() }
    }
}
