import FoundationEssentials
import Glibc
import FolioGit

/// Where a document came from, recorded so its creation can be replayed and later updated.
public struct DocumentOrigin: Encodable, Sendable, Equatable {
    /// The template a document was made from, at which commit, with which answers (secrets left out).
    public struct Template: Encodable, Sendable, Equatable {
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
public struct DocumentMetadata: Encodable, Sendable, Equatable {
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
        if let data = handEncoded() { return data }
        return try foundationEncoded()
    }

    /// `encoded()` through JSONEncoder (the reference the hand-written form is tested against).
    func foundationEncoded() throws -> Data {
        try StrictJSON.fileData(self, dates: .iso8601)
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
        let metadata = try DocumentMetadata(node: node)
        let formatNode = try node.member("format")
        guard metadata.format >= 1 else {
            throw JSONPositionError(line: formatNode.line, column: formatNode.column,
                                    message: "format \(metadata.format) is not a format version (1 or more)")
        }
        guard metadata.format <= currentFormat else {
            throw JSONPositionError(line: formatNode.line, column: formatNode.column,
                                    message: "format \(metadata.format) is newer than this Folio understands (\(currentFormat))")
        }
        let primaryNode = try node.member("primaryFile")
        do { try DocumentPath.validate(metadata.primaryFile, allowFolioFolder: false) } catch {
            throw JSONPositionError(line: primaryNode.line, column: primaryNode.column, message: "primaryFile: \(error)")
        }
        return metadata
    }

    /// The primary file name for a blank document of `type`.
    public static func defaultPrimaryFile(for type: ContentType, registry: ContentTypeRegistry = .builtIn) -> String {
        // A type a plugin declares is named with its first file extension that is a plain name (the declaration comes
        // from a plugin's manifest, so anything else is left out); Folio's own types keep their format's extension.
        if let declaration = registry.declaration(of: type), declaration.declaredBy != "folio",
           let ext = declaration.extensions.first(where: isPlainExtension) {
            return "document.\(ext)"
        }
        if registry.conforms(type, to: .markdown) { return "document.md" }
        if registry.conforms(type, to: .json) { return "document.json" }
        if registry.conforms(type, to: .text) { return "document.txt" }
        return "document"
    }

    /// 1 to 16 ASCII letters, digits, `-` and `_`.
    private static func isPlainExtension(_ ext: String) -> Bool {
        (1...16).contains(ext.utf8.count) && ext.utf8.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }
}

/// Rules for paths inside a document.
public enum DocumentPath {
    /// Fails when a new document at `url` would be, or sit inside, a repository's `.git` folder (any letter case).
    public static func validateLocation(_ url: URL) throws {
        if url.standardizedFileURL.pathComponents.contains(where: { $0.lowercased() == ".git" }) {
            throw FolioError.invalidDocumentPath(path: url.path, problem: .gitFolder)
        }
    }

    /// Fails unless `path` is relative, normalized, and stays out of `.git`.
    public static func validate(_ path: String, allowFolioFolder: Bool = true) throws {
        let bytes = path.utf8
        if bytes.contains(UInt8(ascii: "\\")) || bytes.contains(0) {
            throw FolioError.invalidDocumentPath(path: path, problem: .forbiddenCharacter)
        }
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !bytes.isEmpty, !segments.contains(where: { $0.isEmpty || $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) else {
            throw FolioError.invalidDocumentPath(path: path, problem: .notRelative)
        }
        // ".git" in any letter case and in every spelling NTFS or HFS+ reads as ".git" (git's own verify_path rule):
        // such file systems would write into the repository.
        if segments.contains(where: { GitObjectRules.isGitName($0) }) {
            throw FolioError.invalidDocumentPath(path: path, problem: .insideGit)
        }
        if !allowFolioFolder, let first = segments.first, first.elementsEqual(DocumentMetadata.folder.utf8) {
            throw FolioError.invalidDocumentPath(path: path, problem: .folioFolder)
        }
    }
}

// MARK: Reading from a parsed node

// Opening a document decodes this file; reading the already-parsed node directly (instead of a second parse by
// JSONDecoder) costs microseconds rather than milliseconds of first-use type lookups, and every error has a line
// and column.
extension JSONNode {
    func member(_ key: String) throws -> JSONNode {
        guard case .object = kind else { throw JSONPositionError(line: line, column: column, message: "expected an object") }
        guard let value = self[key] else { throw JSONPositionError(line: line, column: column, message: "missing key '\(key)'") }
        return value
    }

    func optionalMember(_ key: String) -> JSONNode? {
        guard let value = self[key], case .null = value.kind else { return self[key] }
        return nil
    }

    func string() throws -> String {
        guard case let .string(text) = kind else { throw JSONPositionError(line: line, column: column, message: "expected a string") }
        return text
    }

    func integer() throws -> Int {
        guard let whole = wholeNumber else {
            throw JSONPositionError(line: line, column: column, message: "expected a whole number")
        }
        return whole
    }

    /// An ISO 8601 date and time (`2026-11-29T17:39:16Z`, fractional seconds and `±hh:mm` offsets allowed).
    func date() throws -> Date {
        let text = try string()
        guard let date = ISO8601Seconds.parse(text) else { throw JSONPositionError(line: line, column: column, message: "'\(text)' is not an ISO 8601 date") }
        return date
    }
}

extension DocumentMetadata {
    init(node: JSONNode) throws {
        format = try node.member("format").integer()
        contentType = ContentType(try node.member("contentType").string())
        title = try node.member("title").string()
        created = try node.member("created").date()
        primaryFile = try node.member("primaryFile").string()
        origin = try DocumentOrigin(node: node.member("origin"))
    }
}

extension DocumentOrigin {
    init(node: JSONNode) throws {
        kind = try node.member("kind").string()
        template = try node.optionalMember("template").map { template in
            Template(id: try template.member("id").string(), version: try template.optionalMember("version")?.string(),
                     source: try template.member("source").string(), ref: try template.optionalMember("ref")?.string(),
                     commit: try template.member("commit").string(),
                     answers: try template.member("answers").value.objectValue
                        ?? { throw JSONPositionError(line: template.line, column: template.column, message: "'answers' must be an object") }())
        }
    }
}

private extension UInt8 {
    var isASCIILetterOrDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}
