import Foundation
import FolioCore
import FolioGit

/// What `lstat` says about a file, enough to tell it has not changed since it was last read.
struct FileStamp: Equatable {
    let size: Int64
    let mtimeSeconds: Int64
    let mtimeNanoseconds: Int64
    let inode: UInt64
    let mode: UInt32

    init(_ info: stat) {
        size = Int64(info.st_size)
        mtimeSeconds = Int64(info.st_mtim.tv_sec)
        mtimeNanoseconds = Int64(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
        mode = UInt32(info.st_mode)
    }

    init(size: Int64, mtimeSeconds: Int64, mtimeNanoseconds: Int64, inode: UInt64, mode: UInt32) {
        self.size = size; self.mtimeSeconds = mtimeSeconds; self.mtimeNanoseconds = mtimeNanoseconds; self.inode = inode; self.mode = mode
    }
}

/// The stamps and blob ids of a folder's last snapshot, kept beside its cache repository, so that snapshotting an
/// unchanged folder again reads no file and writes nothing (like git's index). As in git, a file whose time stamp
/// is not older than the cache file's own is "racily clean" and read again (a change in the same clock tick would
/// not show), and a cache that does not parse is ignored: it only ever saves work, the snapshot is the same without it.
struct SnapshotStatCache {
    struct Record { let stamp: FileStamp; let blob: ObjectID }
    static let header = "folio-snapshot-stat 1"

    var commit: ObjectID?
    /// The cache file's own modification time (seconds, nanoseconds), from the same file-system clock as the stamps.
    var writtenAt: (Int64, Int64) = (0, 0)
    var records: [String: Record] = [:]

    static func file(for repository: Repository) -> URL { file(inGitDirectory: repository.gitDirectory) }

    static func file(inGitDirectory gitDirectory: URL) -> URL { gitDirectory.appendingPathComponent("folio-snapshot-stat") }

    /// The cache of `repository`, or an empty one.
    static func load(_ repository: Repository) -> SnapshotStatCache { load(at: file(for: repository)) }

    /// The cache in the file at `url`, or an empty one.
    static func load(at url: URL) -> SnapshotStatCache {
        var cache = SnapshotStatCache()
        let path = url.path
        var info = stat()
        guard lstat(path, &info) == 0, let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else { return cache }
        // Split on bytes, not Characters: grapheme breaking of every line cost more than the reads it saves.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), String(Substring(first)) == header, let meta = lines.popFirst(),
              let commit = ObjectID(hex: String(Substring(meta))) else { return SnapshotStatCache() }
        cache.commit = commit
        cache.writtenAt = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
        for line in lines where !line.isEmpty {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 6, omittingEmptySubsequences: false).map { Substring($0) }
            guard fields.count == 7, let size = Int64(fields[0]), let seconds = Int64(fields[1]), let nanoseconds = Int64(fields[2]),
                  let inode = UInt64(fields[3]), let mode = UInt32(fields[4]), let blob = ObjectID(hex: String(fields[5])) else {
                return SnapshotStatCache()
            }
            cache.records[String(fields[6])] = Record(stamp: FileStamp(size: size, mtimeSeconds: seconds, mtimeNanoseconds: nanoseconds,
                                                                       inode: inode, mode: mode), blob: blob)
        }
        return cache
    }

    /// The blob of `entry` when its stamp is unchanged and old enough to trust.
    func blob(for entry: FolderSnapshot.Entry) -> ObjectID? {
        guard let record = records[entry.path], record.stamp == entry.stamp,
              (record.stamp.mtimeSeconds, record.stamp.mtimeNanoseconds) < writtenAt else { return nil }
        return record.blob
    }

    /// Whether every entry is unchanged and nothing was added or removed: the cached commit is the snapshot.
    func isCurrent(_ entries: [FolderSnapshot.Entry]) -> Bool {
        entries.count == records.count && entries.allSatisfy { blob(for: $0) != nil }
    }

    /// Saves the stamps of `entries` (with their blobs) for `commit`; paths holding a newline are not cached.
    static func save(_ entries: [FolderSnapshot.Entry], blobs: [ObjectID], commit: ObjectID, repository: Repository) {
        guard !entries.contains(where: { $0.path.contains("\n") }) else { return }
        var text = header + "\n" + commit.hex + "\n"
        for (entry, blob) in zip(entries, blobs) {
            let s = entry.stamp
            text += "\(s.size) \(s.mtimeSeconds) \(s.mtimeNanoseconds) \(s.inode) \(s.mode) \(blob.hex) \(entry.path)\n"
        }
        try? AtomicFile.write(Data(text.utf8), to: file(for: repository), sync: false)
    }
}
