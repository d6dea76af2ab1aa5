import FoundationEssentials
import Glibc
import FolioCore

/// One file a new document would get, as `folio new --dry-run` lists it.
public struct PlannedFile: Sendable, Equatable, Encodable {
    /// The path in the document.
    public let path: String
    /// Bytes written (for a link, its target's length).
    public let size: Int
    /// The git mode as octal text: `100644`, `100755` (executable) or `120000` (link).
    public let mode: String
    /// The template file it comes from (`files/…`), or nil for Folio's own `.folio/document.json`.
    public let source: String?

    /// Creates an entry.
    public init(path: String, size: Int, mode: String, source: String?) { self.path = path; self.size = size; self.mode = mode; self.source = source }
}

/// What instantiating a template would write, computed without writing anything.
public struct InstantiationPlan: Sendable, Equatable, Encodable {
    /// The document folder that would be created.
    public let path: String
    public let template: String
    public let version: String?
    /// The first commit's message.
    public let message: String
    /// Every file, sorted by path, Folio's metadata included.
    public let files: [PlannedFile]
}

extension Template {
    /// Renders with `answers` and runs every check `instantiate(at:answers:store:)` runs before writing, but writes
    /// nothing (no temporary folder either): the files the document would get, each with its size, mode and the
    /// template file it comes from.
    public func plan(at url: URL, answers: [String: JSONValue], store: DocumentStore, title: String? = nil) throws -> InstantiationPlan {
        try checkCompatible()
        let rendered = try renderWithSources(answers: answers)
        let files = rendered.map(\.file)
        let metadata = try metadata(at: url, answers: answers, files: files, store: store, title: title)
        try store.checkCreate(at: url, files: files)
        var planned = rendered.map { file, source in
            PlannedFile(path: file.path, size: file.symlinkTarget.map { $0.utf8.count } ?? file.data.count,
                        mode: file.symlinkTarget != nil ? "120000" : file.executable ? "100755" : "100644", source: "files/" + source)
        }
        planned.append(PlannedFile(path: DocumentMetadata.path, size: try metadata.encoded().count, mode: "100644", source: nil))
        planned.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return InstantiationPlan(path: url.path, template: manifest.id, version: manifest.version, message: creationMessage, files: planned)
    }
}
