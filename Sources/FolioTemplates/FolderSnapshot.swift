import FoundationEssentials
import Glibc
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
        /// The file's full path (the root's path, "/", `path`).
        let fullPath: String
        let isLink: Bool
        let executable: Bool
        /// What `lstat` said while walking.
        let stamp: FileStamp

        var url: URL { URL(fileURLWithPath: fullPath) }
    }

    /// Snapshots `folder` into its cache repository and returns it with `refs/heads/main` at the snapshot.
    static func snapshot(_ folder: URL, cache: URL, sourceName: String, limits: TemplateLimits = TemplateLimits()) throws -> Repository {
        try snapshot(try walk(folder, sourceName: sourceName, limits: limits), cache: cache, sourceName: sourceName)
    }

    /// The folder's files and links (nothing read), within `limits`.
    static func walk(_ folder: URL, sourceName: String, limits: TemplateLimits) throws -> Walk {
        PhaseTrace.mark("template folder walk begun")
        var walk = Walk(root: folder, sourceName: sourceName, limits: limits)
        try walk.collect(folder, prefix: "")
        PhaseTrace.mark("template folder walked")
        return walk
    }

    /// Snapshots the walked folder into its cache repository and returns it with `refs/heads/main` at the snapshot.
    static func snapshot(_ walk: Walk, cache: URL, sourceName: String) throws -> Repository {
        let folder = walk.root
        let location = CacheRepository.snapshotFolder(for: folder, in: cache)
        let earlier = CacheRepository.folder(key: "folder:" + folder.path, label: folder.lastPathComponent, in: cache)
        if access(location.path, F_OK) != 0 && access(earlier.path, F_OK) == 0 { rename(earlier.path, location.path) }
        let repository = try CacheRepository.open(at: location, sourceName: sourceName)
        let stats = SnapshotStatCache.load(repository)
        PhaseTrace.mark("snapshot cache opened")
        let previous = try repository.referenceTarget(branch)
        // Unchanged since the last snapshot (by every file's stamp): nothing to read or write.
        if let previous, previous == stats.commit, stats.blobsIfCurrent(walk.entries) != nil { return repository }
        let unknown = walk.entries.reduce(0) { count, entry in stats.blob(for: entry) == nil ? count + 1 : count }
        // The objects and the commit: many new files (a first snapshot) go into one pack, which later reads map once
        // instead of opening a loose object per file; a few (an edited template) stay loose rather than adding a
        // small pack per edit. (A pack keeps what the commit written in it reaches, so the commit is made inside.)
        let write = { (repository: Repository) throws -> ([TreeChange], ObjectID?) in
            let (changes, tree) = try snapshotTree(walk.entries, stats: stats, repository: repository, sourceName: sourceName)
            if let previous, try repository.commit(previous).tree == tree { return (changes, nil) }
            let commit = try repository.createCommit(tree: tree, parents: previous.map { [$0] } ?? [],
                                                     author: Signature(name: "Folio", email: "folio@localhost"),
                                                     message: "Snapshot of \(folder.path)\n")
            return (changes, commit)
        }
        let (changes, written) = try unknown >= packThreshold ? repository.writingObjectsAsOnePack(write) : write(repository)
        let blobs = changes.compactMap { change -> ObjectID? in if case let .upsert(_, blob, _) = change { return blob } else { return nil } }
        guard let commit = written else {
            // Same content as the last snapshot (say, a file touched but not changed).
            if let previous { SnapshotStatCache.save(walk.entries, blobs: blobs, commit: previous, repository: repository) }
            return repository
        }
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

    /// From this many files not known to the stat cache on, a snapshot's objects are written as one pack.
    static let packThreshold = 64

    /// The tree of `entries`, each file's blob taken from the stat cache or written.
    private static func snapshotTree(_ entries: [Entry], stats: SnapshotStatCache, repository: Repository,
                                     sourceName: String) throws -> ([TreeChange], ObjectID) {
        let changes = try entries.map { entry in
            if let blob = stats.blob(for: entry) { return TreeChange.upsert(path: entry.path, blob: blob, mode: mode(of: entry)) }
            return try change(for: entry, repository: repository, sourceName: sourceName)
        }
        return (changes, try repository.updateTree(nil, changes))
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
            throw TemplateError(sourceName, "cannot read \(entry.url.path): \(TemplateError.oneLine(error))", kind: .unreadable)
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
        /// not exhaust the (small) stack of the worker thread this runs on. Names are read with `readdir` and paths
        /// kept as strings (Foundation's listing and URLs cost more than the `lstat`s themselves).
        mutating func collect(_ folder: URL, prefix: String) throws {
            var pending = [(folder.path, prefix)]
            while let (current, currentPrefix) = pending.popLast() {
                for name in try Self.names(in: current, sourceName: sourceName, root: root, prefix: currentPrefix).sorted()
                where name != ".git" && name != ".DS_Store" {
                    let full = current.hasSuffix("/") ? current + name : current + "/" + name
                    if try visit(full, path: currentPrefix + name) { pending.append((full, currentPrefix + name + "/")) }
                }
            }
        }

        /// The names in the folder at `path` (without `.` and `..`); a name that is not UTF-8 is refused, never skipped.
        private static func names(in path: String, sourceName: String, root: URL, prefix: String) throws -> [String] {
            guard let directory = opendir(path) else {
                throw TemplateError(sourceName, "cannot read \(path): \(String(cString: strerror(errno)))", kind: .unreadable)
            }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let bytes: [UInt8] = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    // Shown with its bytes escaped (`caf\xE9`): the raw name could not be printed safely.
                    let shown = bytes.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
                    throw TemplateError(sourceName, "\(root.path): the file name '\(prefix)\(shown)' is not valid UTF-8", kind: .notUTF8)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            return names
        }

        /// Counts one entry against the limits and keeps it; true when it is a folder to walk into.
        private mutating func visit(_ fullPath: String, path: String) throws -> Bool {
            var info = stat()
            guard lstat(fullPath, &info) == 0 else { return false }  // removed while walking
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFDIR || kind == S_IFLNK || kind == S_IFREG else { return false }
            // Folders count too: a tree of empty folders is as much work to walk as one of files.
            seen += 1
            if seen > limits.maxFolderFiles {
                throw TemplateError(sourceName, "\(root.path) holds more than \(limits.maxFolderFiles) files and folders (limit maxFiles); "
                                    + "a template folder is expected to be much smaller", kind: .tooLarge)
            }
            switch kind {
            case S_IFDIR:
                return true
            case S_IFLNK:
                entries.append(Entry(path: path, fullPath: fullPath, isLink: true, executable: false, stamp: FileStamp(info)))
            default:
                // Compared before adding: a sparse file's size may be near Int.max.
                let size = Int(clamping: info.st_size)
                if size > limits.maxFolderBytes - bytes {
                    throw TemplateError(sourceName, "\(root.path) holds more than \(limits.maxFolderBytes) bytes (limit maxBytes; passed at \(path)); "
                                        + "a template folder is expected to be much smaller", kind: .tooLarge)
                }
                bytes += size
                entries.append(Entry(path: path, fullPath: fullPath, isLink: false, executable: info.st_mode & S_IXUSR != 0, stamp: FileStamp(info)))
            }
            return false
        }
    }
}

/// A bare repository in the cache, created atomically on first use.
enum CacheRepository {
    static func folder(key: String, label: String, in cache: URL) -> URL {
        let hash = ObjectID.blobHash(of: Data(key.utf8))?.hex.prefix(16) ?? "0"
        return cache.appendingPathComponent("\(hash)-\(clean(label))")
    }

    /// The cache repository of the plain folder `root`: named by a 64-bit FNV-1a hash of its path, computed without
    /// libgit2 so that a current snapshot is found while libgit2 is still starting. (Before, folders were named like
    /// remote mirrors, by the git blob hash of their key; `snapshot` moves such a repository to this name.)
    static func snapshotFolder(for root: URL, in cache: URL) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ("folder:" + root.path).utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return cache.appendingPathComponent("f\(String(repeating: "0", count: 16 - hex.count))\(hex)-\(clean(root.lastPathComponent))")
    }

    private static func clean(_ label: String) -> String {
        let clean = String(label.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(40))
        return clean.isEmpty ? "source" : clean
    }

    static func open(at url: URL, sourceName: String) throws -> Repository {
        let cache = url.deletingLastPathComponent()
        if let existing = try? Repository.open(at: url) { return existing }
        do {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let staging = cache.appendingPathComponent(".\(url.lastPathComponent).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            _ = try Repository.create(at: staging, bare: true)
            if rename(staging.path, url.path) != 0 { try? FileManager.default.removeItem(at: staging) }
            return try Repository.open(at: url)
        } catch {
            throw TemplateError(sourceName, "cannot create the cache repository \(url.path): \(TemplateError.oneLine(error))", kind: .writeFailed)
        }
    }
}
