import Foundation
import FolioCore
import FolioGit

/// Plain folders (like the bundled `Templates/`) are snapshotted into a cached bare git repository, one commit per
/// distinct content, so that templates are always read from git objects and a document can record the exact commit.
/// The folder is walked first without reading any file, so one that holds more than `TemplateLimits.maxFolderFiles`
/// entries or `maxFolderBytes` bytes is refused before anything is written to the cache.
enum FolderSnapshot {
    static let branch = "refs/heads/main"

    /// One file or link found in the folder.
    struct Entry {
        let path: String
        let url: URL
        let isLink: Bool
        let executable: Bool
        /// What `lstat` said while walking.
        let stamp: FileStamp
    }

    /// Snapshots `folder` into its cache repository and returns it with `refs/heads/main` at the snapshot.
    static func snapshot(_ folder: URL, cache: URL, sourceName: String, limits: TemplateLimits = TemplateLimits()) throws -> Repository {
        var walk = Walk(root: folder, sourceName: sourceName, limits: limits)
        try walk.collect(folder, prefix: "")
        let repository = try CacheRepository.open(key: "folder:" + folder.path, label: folder.lastPathComponent, in: cache, sourceName: sourceName)
        let stats = SnapshotStatCache.load(repository)
        let previous = try repository.referenceTarget(branch)
        // Unchanged since the last snapshot (by every file's stamp): nothing to read or write.
        if let previous, previous == stats.commit, stats.isCurrent(walk.entries) { return repository }
        let changes = try walk.entries.map { entry in
            if let blob = stats.blob(for: entry) { return TreeChange.upsert(path: entry.path, blob: blob, mode: mode(of: entry)) }
            return try change(for: entry, repository: repository, sourceName: sourceName)
        }
        let blobs = changes.compactMap { change -> ObjectID? in if case let .upsert(_, blob, _) = change { return blob } else { return nil } }
        let tree = try repository.updateTree(nil, changes)
        if let previous, try repository.commit(previous).tree == tree {
            SnapshotStatCache.save(walk.entries, blobs: blobs, commit: previous, repository: repository)
            return repository
        }
        let signature = Signature(name: "Folio", email: "folio@localhost")
        let commit = try repository.createCommit(tree: tree, parents: previous.map { [$0] } ?? [], author: signature,
                                                 message: "Snapshot of \(folder.path)\n")
        do {
            try repository.updateReference(branch, to: commit, expecting: previous, logMessage: "snapshot")
        } catch let error as GitError where error.isModified || error.isExists || error.isLocked {
            // Another process snapshotted at the same moment; ours is equally valid, keep it reachable by a name.
            try? repository.setReference("refs/folio/snapshots/\(commit.hex)", to: commit, logMessage: "snapshot")
        }
        try? repository.setReference("refs/folio/current", to: commit, logMessage: "snapshot")
        if let current = try? repository.referenceTarget(branch), current == commit {
            SnapshotStatCache.save(walk.entries, blobs: blobs, commit: current, repository: repository)
        }
        return repository
    }

    private static func mode(of entry: Entry) -> UInt32 { entry.isLink ? 0o120000 : entry.executable ? 0o100755 : 0o100644 }

    /// Writes one entry's blob; an unreadable file is an error naming it.
    private static func change(for entry: Entry, repository: Repository, sourceName: String) throws -> TreeChange {
        do {
            if entry.isLink {
                let target = try FileManager.default.destinationOfSymbolicLink(atPath: entry.url.path)
                return .upsert(path: entry.path, blob: try repository.writeBlob(Data(target.utf8)), mode: 0o120000)
            }
            return .upsert(path: entry.path, blob: try repository.writeBlob(fromFile: entry.url), mode: entry.executable ? 0o100755 : 0o100644)
        } catch {
            throw TemplateError(sourceName, "cannot read \(entry.url.path): \(TemplateError.oneLine(error))")
        }
    }

    /// The walk over a folder: files and links, counted against the limits as they are found.
    struct Walk {
        let root: URL
        let sourceName: String
        let limits: TemplateLimits
        private(set) var entries: [Entry] = []
        private var seen = 0
        private var bytes = 0

        init(root: URL, sourceName: String, limits: TemplateLimits) {
            self.root = root
            self.sourceName = sourceName
            self.limits = limits
        }

        /// Walks `folder` with a list of folders still to read, not recursion: a folder nested thousands deep must
        /// not exhaust the (small) stack of the worker thread this runs on.
        mutating func collect(_ folder: URL, prefix: String) throws {
            var pending = [(folder, prefix)]
            while let (current, currentPrefix) = pending.popLast() {
                let names: [String]
                do { names = try FileManager.default.contentsOfDirectory(atPath: current.path) } catch {
                    throw TemplateError(sourceName, "cannot read \(current.path): \(error.localizedDescription)")
                }
                for name in names.sorted() where name != ".git" && name != ".DS_Store" {
                    let url = current.appendingPathComponent(name)
                    if try visit(url, path: currentPrefix + name) { pending.append((url, currentPrefix + name + "/")) }
                }
            }
        }

        /// Counts one entry against the limits and keeps it; true when it is a folder to walk into.
        private mutating func visit(_ url: URL, path: String) throws -> Bool {
            var info = stat()
            guard lstat(url.path, &info) == 0 else {
                // Foundation lists a name that is not UTF-8 with U+FFFD in place of its bytes: refuse, never skip.
                if path.unicodeScalars.contains("\u{FFFD}") {
                    throw TemplateError(sourceName, "\(root.path): the file name '\(path)' is not valid UTF-8")
                }
                return false
            }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFDIR || kind == S_IFLNK || kind == S_IFREG else { return false }
            // Folders count too: a tree of empty folders is as much work to walk as one of files.
            seen += 1
            if seen > limits.maxFolderFiles {
                throw TemplateError(sourceName, "\(root.path) holds more than \(limits.maxFolderFiles) files and folders (limit maxFiles); "
                                    + "a template folder is expected to be much smaller")
            }
            switch kind {
            case S_IFDIR:
                return true
            case S_IFLNK:
                entries.append(Entry(path: path, url: url, isLink: true, executable: false, stamp: FileStamp(info)))
            default:
                // Compared before adding: a sparse file's size may be near Int.max.
                let size = Int(clamping: info.st_size)
                if size > limits.maxFolderBytes - bytes {
                    throw TemplateError(sourceName, "\(root.path) holds more than \(limits.maxFolderBytes) bytes (limit maxBytes; passed at \(path)); "
                                        + "a template folder is expected to be much smaller")
                }
                bytes += size
                entries.append(Entry(path: path, url: url, isLink: false, executable: info.st_mode & S_IXUSR != 0, stamp: FileStamp(info)))
            }
            return false
        }
    }
}

/// A bare repository in the cache, created atomically on first use.
enum CacheRepository {
    static func folder(key: String, label: String, in cache: URL) -> URL {
        let hash = ObjectID.blobHash(of: Data(key.utf8))?.hex.prefix(16) ?? "0"
        let clean = String(label.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(40))
        return cache.appendingPathComponent("\(hash)-\(clean.isEmpty ? "source" : clean)")
    }

    static func open(key: String, label: String, in cache: URL, sourceName: String) throws -> Repository {
        try open(at: folder(key: key, label: label, in: cache), sourceName: sourceName)
    }

    static func open(at url: URL, sourceName: String) throws -> Repository {
        let cache = url.deletingLastPathComponent()
        if Repository.exists(at: url) { return try Repository.open(at: url) }
        do {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let staging = cache.appendingPathComponent(".\(url.lastPathComponent).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            _ = try Repository.create(at: staging, bare: true)
            if rename(staging.path, url.path) != 0 { try? FileManager.default.removeItem(at: staging) }
            return try Repository.open(at: url)
        } catch {
            throw TemplateError(sourceName, "cannot create the cache repository \(url.path): \(TemplateError.oneLine(error))")
        }
    }
}
