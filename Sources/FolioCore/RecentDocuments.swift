import Foundation

/// The documents the user opened or created, newest first, kept in `$XDG_STATE_HOME/folio/recent.json`.
public struct RecentDocuments: Sendable {
    /// One remembered document.
    public struct Entry: Codable, Sendable, Equatable {
        public var path: String
        public var title: String
        public var contentType: String
        public var opened: Date
    }

    /// How many entries are kept.
    public static let limit = 50
    public let fileURL: URL

    public init(environment: [String: String]) {
        fileURL = FolioPaths(environment: environment).stateHome.appendingPathComponent("recent.json")
    }

    /// The remembered documents that still exist, newest first.
    public func load() -> [Entry] {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // A damaged list is not worth an error: it is rebuilt as documents are opened.
        // Strict JSON first: duplicate keys or a lone surrogate also make the list damaged, not half-read.
        guard (try? JSONNode.parse(data)) != nil else { return [] }
        let entries = (try? decoder.decode([Entry].self, from: data)) ?? []
        return entries.filter { FileManager.default.fileExists(atPath: $0.path + "/" + DocumentMetadata.path) }
    }

    /// Puts `document` at the top of the list.
    public func record(_ document: Document) {
        var entries = load().filter { $0.path != document.url.path }
        entries.insert(Entry(path: document.url.path, title: document.metadata.title,
                             contentType: document.metadata.contentType.identifier, opened: Date()), at: 0)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(Array(entries.prefix(Self.limit))) {
            try? AtomicFile.write(data, to: fileURL, sync: false)
        }
    }
}
