import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioBasics

/// A plain folder whose last snapshot is current: every file's `lstat` stamp matches the stat cache (and is old
/// enough to trust), so the snapshot's commit holds exactly these files and they can be read straight from the
/// folder. Found without libgit2, which is still starting on its own thread when `folio new` gets here.
struct CurrentFolder: Sendable {
    /// The folder.
    let root: URL
    /// The cache repository holding the snapshot.
    let gitDirectory: URL
    /// The snapshot's commit.
    let commit: ObjectID
    /// The folder's files and links, each with its blob in the snapshot.
    let entries: [FolderSnapshot.Entry]
    let blobs: [ObjectID]
}

extension FolderSnapshot {
    /// The folder's current snapshot when its stat cache vouches for every file as they are now, else nil (the
    /// caller snapshots it through libgit2). The stat cache is written only after the snapshot's commit is on the
    /// branch, and the branch only ever moves forward, so the commit it names is in the cache repository.
    static func current(_ walk: Walk, cache: URL) -> CurrentFolder? {
        let gitDirectory = CacheRepository.snapshotFolder(for: walk.root, in: cache)
        let stats = SnapshotStatCache.load(at: SnapshotStatCache.file(inGitDirectory: gitDirectory))
        guard let commit = stats.commit, let blobs = stats.blobsIfCurrent(walk.entries) else { return nil }
        return CurrentFolder(root: walk.root, gitDirectory: gitDirectory, commit: commit, entries: walk.entries, blobs: blobs)
    }
}

/// A file of a current folder changed after it was found current; the caller reads the snapshot's commit instead.
struct FolderChanged: Error {
    let path: String
}

/// The files of a `CurrentFolder` as a template tree, in git's order (bytewise by path, as in a git index), read
/// straight from the folder. Each read checks the file's stamp again on the open descriptor and fails with
/// `FolderChanged` when it moved on, so what is returned is always the snapshot's content.
struct FolderTemplateTree: TemplateTree {
    let folder: CurrentFolder
    private let sorted: [(entry: FolderSnapshot.Entry, blob: ObjectID)]
    private let byBlob: [ObjectID: FolderSnapshot.Entry]

    init(_ folder: CurrentFolder) {
        self.folder = folder
        sorted = zip(folder.entries, folder.blobs).map { ($0, $1) }.sorted { $0.entry.path.utf8.lexicographicallyPrecedes($1.entry.path.utf8) }
        byBlob = Dictionary(zip(folder.blobs, folder.entries), uniquingKeysWith: { first, _ in first })
    }

    var name: String { "folder \(folder.root.path)" }

    func files(under path: String) throws -> [TreeEntry] {
        let prefix = path.isEmpty ? "" : path + "/"
        return sorted.compactMap { item in
            guard item.entry.path.hasPrefix(prefix) else { return nil }
            return TreeEntry(path: String(item.entry.path.dropFirst(prefix.count)), id: item.blob, mode: Self.mode(of: item.entry), kind: .blob)
        }
    }

    func file(atPath path: String) throws -> TreeEntry? {
        guard let item = sorted.first(where: { $0.entry.path == path }) else { return nil }
        return TreeEntry(path: path, id: item.blob, mode: Self.mode(of: item.entry), kind: .blob)
    }

    /// Each distinct blob is read once, over the cores when there are many.
    func contents(of entries: [TreeEntry]) throws -> [Data] {
        let distinct = Array(Set(entries.map(\.id)))
        let files = try distinct.map { id -> FolderSnapshot.Entry in
            guard let entry = byBlob[id] else { throw FolderChanged(path: id.hex) }
            return entry
        }
        let read = parallelMap(files.count, serialBelow: 64) { index in Result { try Self.read(files[index]) } }
        var byID: [ObjectID: Data] = [:]
        for (id, result) in zip(distinct, read) { byID[id] = try result.get() }
        return entries.map { byID[$0.id] ?? Data() }
    }

    private static func mode(of entry: FolderSnapshot.Entry) -> UInt32 {
        entry.isLink ? 0o120000 : entry.executable ? 0o100755 : 0o100644
    }

    /// The file's bytes (a link's target), provided its stamp is still the one the stat cache vouched for.
    static func read(_ entry: FolderSnapshot.Entry) throws -> Data {
        if entry.isLink {
            var info = stat()
            guard lstat(entry.fullPath, &info) == 0, FileStamp(info) == entry.stamp,
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: entry.fullPath) else { throw FolderChanged(path: entry.path) }
            return Data(target.utf8)
        }
        let fd = open(entry.fullPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FolderChanged(path: entry.path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, FileStamp(info) == entry.stamp, let size = Int(exactly: info.st_size) else { throw FolderChanged(path: entry.path) }
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < size {
                let count = Glibc.read(fd, buffer.baseAddress.map { $0 + done }, size - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        // Read to its recorded size and not a byte more, with the same stamp after reading: the snapshot's content.
        var after = stat()
        guard complete, fstat(fd, &after) == 0, FileStamp(after) == entry.stamp else { throw FolderChanged(path: entry.path) }
        return data
    }
}
