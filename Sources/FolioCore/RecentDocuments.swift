import FoundationEssentials
import Glibc

/// The documents the user opened or created, pinned first then newest first, kept in
/// `$XDG_STATE_HOME/folio/recent.json`.
public struct RecentDocuments: Sendable {
    /// One remembered document.
    public struct Entry: Codable, Sendable, Equatable {
        public var path: String
        public var title: String
        public var contentType: String
        public var opened: Date
        /// Pinned from the launcher: kept at the top and never dropped for newer documents.
        public var pinned: Bool?
        public init(path: String, title: String, contentType: String, opened: Date, pinned: Bool? = nil) {
            self.path = path; self.title = title; self.contentType = contentType; self.opened = opened; self.pinned = pinned
        }
    }

    /// How many entries are kept (pinned ones are kept beyond it).
    public static let limit = 50
    public let fileURL: URL

    public init(environment: [String: String]) {
        fileURL = FolioPaths(environment: environment).stateHome.appendingPathComponent("recent.json")
    }

    /// The remembered documents, pinned first, then newest first; a document that no longer exists is listed too
    /// (`exists(_:)` tells), so the launcher can show it as missing and let the user remove it. Something other than a
    /// regular file in the list's place (a folder, a FIFO) is an error naming it: no list could ever be kept there.
    public func load() throws -> [Entry] {
        guard let data = try ConfigFile.read(fileURL) else { return [] }
        // A damaged list is not worth an error: it is rebuilt as documents are opened. Strict JSON: duplicate keys or
        // a lone surrogate make the whole list damaged, not half-read.
        let entries = Self.decode(data) ?? []
        return entries.filter { $0.pinned == true } + entries.filter { $0.pinned != true }
    }

    /// Whether the document at `entry.path` still exists.
    public static func exists(_ entry: Entry) -> Bool {
        FileManager.default.fileExists(atPath: entry.path + "/" + DocumentMetadata.path)
    }

    /// Puts `document` at the top of the list (after the pinned ones; a pinned document stays pinned). Best effort:
    /// when the list cannot be read (`load` says why) it is left as it is.
    public func record(_ document: Document) {
        withListLocked {
            guard let old = try? load() else { return }
            var entries = old.filter { $0.path != document.url.path }
            let pinned = old.first { $0.path == document.url.path }?.pinned
            entries.insert(Entry(path: document.url.path, title: document.metadata.title,
                                 contentType: document.metadata.contentType.identifier, opened: Date(), pinned: pinned), at: 0)
            save(entries)
        }
    }

    /// Pins or unpins the entry for `path` (nothing happens when it is not in the list).
    public func setPinned(_ pinned: Bool, path: String) throws {
        try withListLocked {
            var entries = try load()
            guard let index = entries.firstIndex(where: { $0.path == path }) else { return }
            entries[index].pinned = pinned ? true : nil
            try write(entries)
        }
    }

    /// Forgets the entry for `path`; the document itself is not touched.
    public func remove(path: String) throws {
        try withListLocked {
            let entries = try load()
            guard entries.contains(where: { $0.path == path }) else { return }
            try write(entries.filter { $0.path != path })
        }
    }

    /// Runs a read-change-write of the list holding an exclusive `flock` on `recent.json.lock` beside it, so two
    /// `folio` processes recording at once both keep their entry. Without a lock (the folder cannot be made, a file
    /// system without locks) the change is made anyway: the list is a convenience, never worth an error.
    private func withListLocked<R>(_ body: () throws -> R) rethrows -> R {
        let folder = fileURL.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let fd = open(fileURL.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        defer { if fd >= 0 { close(fd) } }
        if fd >= 0 { while flock(fd, LOCK_EX) == -1 && errno == EINTR {} }
        return try body()
    }

    private func save(_ entries: [Entry]) { try? write(entries) }

    private func write(_ entries: [Entry]) throws {
        let sorted = entries.filter { $0.pinned == true } + entries.filter { $0.pinned != true }
        let kept = sorted.enumerated().filter { $0.element.pinned == true || $0.offset < Self.limit }.map(\.element)
        try AtomicFile.write(Self.encode(kept), to: fileURL, sync: false)
    }
}
