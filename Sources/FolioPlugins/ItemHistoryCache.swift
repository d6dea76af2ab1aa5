import FolioCore
import FolioGit
import FoundationEssentials
import Glibc

/// The per-version item links of one document (`ItemLinks` for each commit and parent), kept in
/// `.git/folio/item-history` so that the history of an item over a long history is read rather than recomputed.
///
/// The file is Folio's own but is still read as untrusted: a header naming the format, the editor and plugin build and
/// the primary file it was made for (`identity`), then the records, then a 64-bit FNV-1a checksum of everything before
/// it. Any mismatch — another format, identity or checksum, a short or over-long field, an index out of range — makes
/// the whole file a miss (it is rebuilt, never half-believed). Written atomically (temporary file and rename), so two
/// writers leave one whole file.
struct ItemHistoryCache {
    struct Entry: Equatable {
        var parents: [ObjectID]
        /// The links to each parent, nil until computed.
        var links: [ItemLinks?]
    }

    static let magic = Array("FOLIOIH1".utf8)
    /// The most records and strings a file may claim (anything beyond is damage).
    static let maximumRecords = 10_000_000

    let identity: String
    var entries: [ObjectID: Entry] = [:]
    /// Whether entries were added since the file was read.
    var changed = false
    /// Whether the file existed but was not usable (damaged or for another editor build).
    private(set) var discarded = false

    init(identity: String) { self.identity = identity }

    /// The cache file of a document's repository.
    static func url(gitDirectory: URL) -> URL {
        gitDirectory.appendingPathComponent("folio").appendingPathComponent("item-history")
    }

    /// Reads the cache at `url` made for `identity`; missing, damaged or made for something else, an empty cache.
    static func load(from url: URL, identity: String) -> ItemHistoryCache {
        var cache = ItemHistoryCache(identity: identity)
        guard let data = try? ConfigFile.read(url, maxBytes: 1 << 30) else { return cache }
        if let entries = decode(data, identity: identity) { cache.entries = entries } else { cache.discarded = true }
        return cache
    }

    /// Writes the cache atomically.
    func save(to url: URL) throws {
        try AtomicFile.write(encode(), to: url, sync: false, mode: 0o644)
    }

    // MARK: Encoding

    func encode() -> Data {
        var out = ByteWriter()
        out.bytes.append(contentsOf: Self.magic)
        out.string(identity)
        out.u32(entries.count)
        for (commit, entry) in entries.sorted(by: { $0.key < $1.key }) {
            out.string(commit.hex)
            out.u32(entry.parents.count)
            for (parent, links) in zip(entry.parents, entry.links) {
                out.string(parent.hex)
                guard let links else { out.byte(0); continue }
                out.byte(links.same ? 2 : 1)
                if links.same { continue }
                out.u32(links.count)
                out.u32(links.runs.count)
                for run in links.runs { out.u32(run.start); out.u32(run.previous); out.u32(run.length) }
                out.u32(links.notes.count)
                for note in links.notes {
                    out.u32(note.index)
                    out.u32(note.previous.map { $0 + 1 } ?? 0)
                    out.byte((note.changed ? 1 : 0) | (note.moved ? 2 : 0))
                    out.string(note.key)
                    out.string(note.previousKey ?? "")
                    out.string(note.summary)
                    out.string(note.previousSummary ?? "")
                }
            }
        }
        out.u64(Self.checksum(out.bytes[...]))
        return Data(out.bytes)
    }

    /// The entries of a cache file, or nil when it is damaged or made for another identity.
    static func decode(_ data: Data, identity: String) -> [ObjectID: Entry]? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 8, Array(bytes.prefix(magic.count)) == magic else { return nil }
        let body = bytes[..<(bytes.count - 8)]
        var tail = ByteReader(bytes[(bytes.count - 8)...])
        guard let stored = tail.u64(), stored == checksum(body) else { return nil }
        var reader = ByteReader(body.dropFirst(magic.count))
        guard reader.string() == identity, let count = reader.u32(), count <= maximumRecords else { return nil }
        var entries: [ObjectID: Entry] = [:]
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let commit = reader.string().flatMap(ObjectID.init(hex:)), let parentCount = reader.u32(), parentCount <= 4096 else { return nil }
            var entry = Entry(parents: [], links: [])
            for _ in 0..<parentCount {
                guard let parent = reader.string().flatMap(ObjectID.init(hex:)), let kind = reader.byte() else { return nil }
                entry.parents.append(parent)
                switch kind {
                case 0: entry.links.append(nil)
                case 2: entry.links.append(.identical)
                case 1:
                    guard let links = decodeLinks(&reader) else { return nil }
                    entry.links.append(links)
                default: return nil
                }
            }
            entries[commit] = entry
        }
        return reader.atEnd ? entries : nil
    }

    private static func decodeLinks(_ reader: inout ByteReader) -> ItemLinks? {
        guard let count = reader.u32(), count <= EditorItem.maximumCount, let runCount = reader.u32(), runCount <= count else { return nil }
        var links = ItemLinks(count: count)
        links.runs.reserveCapacity(runCount)
        var covered = 0
        for _ in 0..<runCount {
            guard let start = reader.u32(), let previous = reader.u32(), let length = reader.u32(), length > 0, start >= covered,
                  start + length <= count, previous <= EditorItem.maximumCount else { return nil }
            covered = start + length
            links.runs.append(.init(start: start, previous: previous, length: length))
        }
        guard let noteCount = reader.u32(), noteCount <= count else { return nil }
        var last = -1
        for _ in 0..<noteCount {
            guard let index = reader.u32(), index > last, index < count, let previous = reader.u32(), previous <= EditorItem.maximumCount + 1,
                  let flags = reader.byte(), flags <= 3, let key = reader.string(), let previousKey = reader.string(),
                  let summary = reader.string(), let previousSummary = reader.string() else { return nil }
            last = index
            links.notes.append(.init(index: index, previous: previous == 0 ? nil : previous - 1, changed: flags & 1 != 0, moved: flags & 2 != 0,
                                     key: key, previousKey: previous == 0 ? nil : previousKey, summary: summary,
                                     previousSummary: previous == 0 ? nil : previousSummary))
        }
        return links
    }

    /// 64-bit FNV-1a.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}

/// Little-endian fields for the cache file.
private struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func string(_ text: String) {
        u32(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }
}

/// Reads the cache file's fields; every read is bounds-checked and returns nil past the end.
private struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    var atEnd: Bool { offset == bytes.endIndex }

    mutating func byte() -> UInt8? {
        guard offset < bytes.endIndex else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u32() -> Int? {
        guard bytes.endIndex - offset >= 4 else { return nil }
        var value: UInt32 = 0
        for shift in 0..<4 { value |= UInt32(bytes[offset + shift]) << (8 * UInt32(shift)) }
        offset += 4
        return Int(value)
    }

    mutating func u64() -> UInt64? {
        guard bytes.endIndex - offset >= 8 else { return nil }
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
        offset += 8
        return value
    }

    mutating func string() -> String? {
        guard let length = u32(), bytes.endIndex - offset >= length else { return nil }
        defer { offset += length }
        return String(validating: bytes[offset..<offset + length], as: UTF8.self)
    }
}
