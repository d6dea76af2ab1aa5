import Foundation

/// Where a document came from, recorded so its creation can be replayed and later updated.
public struct DocumentOrigin: Codable, Sendable, Equatable {
    /// The template a document was made from, at which commit, with which answers (secrets left out).
    public struct Template: Codable, Sendable, Equatable {
        public var id: String
        public var version: String?
        public var source: String
        public var ref: String?
        public var commit: String
        public var answers: [String: JSONValue]
        public init(id: String, version: String?, source: String, ref: String?, commit: String, answers: [String: JSONValue]) {
            self.id = id; self.version = version; self.source = source; self.ref = ref; self.commit = commit; self.answers = answers
        }
    }
    /// `blank`, `template` or `clone`.
    public var kind: String
    public var template: Template?

    public init(kind: String, template: Template? = nil) { self.kind = kind; self.template = template }
    public static let blank = DocumentOrigin(kind: "blank")
}

/// The contents of `.folio/document.json`: what a document is.
public struct DocumentMetadata: Codable, Sendable, Equatable {
    public static let currentFormat = 1
    /// The folder inside a document that holds Folio's own files.
    public static let folder = ".folio"
    /// The metadata file's path inside a document.
    public static let path = ".folio/document.json"

    public var format: Int
    public var contentType: ContentType
    public var title: String
    public var created: Date
    /// The file an editor opens, relative to the document's root.
    public var primaryFile: String
    public var origin: DocumentOrigin

    public init(contentType: ContentType, title: String, created: Date = Date(), primaryFile: String, origin: DocumentOrigin = .blank) {
        self.format = Self.currentFormat
        self.contentType = contentType
        self.title = title
        self.created = created
        self.primaryFile = primaryFile
        self.origin = origin
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case format, contentType, title, created, primaryFile, origin }

    /// The file's bytes: pretty, key-sorted JSON ending in a newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Parses the file; errors name the problem with line and column, or the missing key.
    public static func decode(_ data: Data) throws -> DocumentMetadata {
        let node = try JSONNode.parse(data)
        try node.rejectUnknownKeys { path in
            switch path {
            case []: return Set(CodingKeys.allCases.map(\.rawValue))
            case ["origin"]: return ["kind", "template"]
            case ["origin", "template"]: return ["id", "version", "source", "ref", "commit", "answers"]
            default: return nil
            }
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let metadata = try decoder.decode(DocumentMetadata.self, from: data)
        guard metadata.format <= currentFormat else {
            throw JSONPositionError(line: node["format"]?.line ?? 1, column: node["format"]?.column ?? 1,
                                    message: "format \(metadata.format) is newer than this Folio understands (\(currentFormat))")
        }
        try DocumentPath.validate(metadata.primaryFile)
        return metadata
    }

    /// The primary file name for a blank document of `type`.
    public static func defaultPrimaryFile(for type: ContentType, registry: ContentTypeRegistry = .builtIn) -> String {
        if registry.conforms(type, to: .markdown) { return "document.md" }
        if registry.conforms(type, to: .json) { return "document.json" }
        if registry.conforms(type, to: .text) { return "document.txt" }
        return "document"
    }
}

/// Rules for paths inside a document.
public enum DocumentPath {
    /// Fails unless `path` is relative, normalized, and stays out of `.git`.
    public static func validate(_ path: String, allowFolioFolder: Bool = true) throws {
        let bytes = path.utf8
        if bytes.contains(UInt8(ascii: "\\")) || bytes.contains(0) {
            throw FolioError.invalidRequest("'\(path)': backslashes and NUL are not allowed in document paths")
        }
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !bytes.isEmpty, !segments.contains(where: { $0.isEmpty || $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) else {
            throw FolioError.invalidRequest("'\(path)': a file in a document must be a relative path without '.', '..' or empty parts")
        }
        // ".git" in any letter case (case-insensitive file systems would write into the repository).
        if segments.contains(where: { $0.count == 4 && $0.map { (65...90).contains($0) ? $0 | 0x20 : $0 }.elementsEqual(".git".utf8) }) {
            throw FolioError.invalidRequest("'\(path)': files inside .git cannot be written")
        }
        if !allowFolioFolder, let first = segments.first, first.elementsEqual(DocumentMetadata.folder.utf8) {
            throw FolioError.invalidRequest("'\(path)': .folio is managed by Folio")
        }
    }
}
