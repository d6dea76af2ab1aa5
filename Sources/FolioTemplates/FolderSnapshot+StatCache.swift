import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit
import FolioMustache

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

    /// The cache in the file at `url`, or an empty one (also when any line of it does not parse).
    static func load(at url: URL) -> SnapshotStatCache {
        var info = stat()
        // A regular file only (opened without blocking): reading a FIFO put in its place would wait forever.
        guard lstat(url.path, &info) == 0, let bytes = try? RegularFile.read(url.path) else { return SnapshotStatCache() }
        let parsed = bytes.withUnsafeBufferPointer { parse($0) }
        guard var cache = parsed else { return SnapshotStatCache() }
        cache.writtenAt = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
        return cache
    }

    /// Parses the file's bytes (split on bytes, never on Characters: grapheme breaking cost more than the reads the
    /// cache saves); nil when anything is out of place.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SnapshotStatCache? {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), first.elementsEqual(header.utf8), let meta = lines.popFirst(),
              let commit = ObjectID(hex: String(decoding: meta, as: UTF8.self)) else { return nil }
        var cache = SnapshotStatCache()
        cache.commit = commit
        cache.records.reserveCapacity(lines.count)
        for line in lines where !line.isEmpty {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 6, omittingEmptySubsequences: false)
            guard fields.count == 7, let size = decimal(fields[0]).flatMap({ Int64(exactly: $0) }),
                  let seconds = signedDecimal(fields[1]),
                  let nanoseconds = decimal(fields[2]).flatMap({ Int64(exactly: $0) }), let inode = decimal(fields[3]),
                  let mode = decimal(fields[4]).flatMap({ UInt32(exactly: $0) }),
                  let blob = ObjectID(hex: String(decoding: fields[5], as: UTF8.self)),
                  let path = String(validating: fields[6], as: UTF8.self) else { return nil }
            cache.records[path] = Record(stamp: FileStamp(size: size, mtimeSeconds: seconds, mtimeNanoseconds: nanoseconds,
                                                          inode: inode, mode: mode), blob: blob)
        }
        return cache
    }

    /// `decimal`, or its negation after a "-" (a file dated before 1970).
    private static func signedDecimal(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        guard text.first == UInt8(ascii: "-") else { return decimal(text).flatMap { Int64(exactly: $0) } }
        guard let magnitude = decimal(text.dropFirst()), magnitude <= UInt64(Int64.max) + 1 else { return nil }
        return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }

    /// A run of ASCII digits as a number; nil when empty, not digits, or too large.
    private static func decimal(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    /// The blob of `entry` when its stamp is unchanged and old enough to trust.
    func blob(for entry: FolderSnapshot.Entry) -> ObjectID? {
        guard let record = records[entry.path], record.stamp == entry.stamp,
              (record.stamp.mtimeSeconds, record.stamp.mtimeNanoseconds) < writtenAt else { return nil }
        return record.blob
    }

    /// Each entry's blob when every entry is unchanged and nothing was added or removed (the cached commit is then
    /// the snapshot), else nil.
    func blobsIfCurrent(_ entries: [FolderSnapshot.Entry]) -> [ObjectID]? {
        guard entries.count == records.count else { return nil }
        var blobs: [ObjectID] = []
        blobs.reserveCapacity(entries.count)
        for entry in entries {
            guard let blob = blob(for: entry) else { return nil }
            blobs.append(blob)
        }
        return blobs
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
