import FoundationEssentials
import Glibc
import FolioCore
import FolioGit

extension Template {
    /// Creates the document at `url` from this template with `answers` (already collected), as one first commit
    /// "Create from <id> <version> (<commit>)". Its origin records the source, ref, commit and the answers minus
    /// secrets. Nothing is written when anything fails.
    ///
    /// `staging`, from `store.beginCreate(at: url)` called earlier (while the template was still being found), is the
    /// document's repository already being made; without it, it is begun here and made while the files render.
    public func instantiate(at url: URL, answers: [String: JSONValue], store: DocumentStore, title: String? = nil,
                            staging: NewDocumentStaging? = nil) throws -> Document {
        let staging = try staging ?? store.beginCreate(at: url)
        // The files are written as they render (the work tree takes longest); the rest waits for all of them.
        let (metadata, files) = try prepare(at: url, answers: answers, store: store, title: title) { staging.writeEarly($0) }
        return try store.create(at: url, metadata: metadata, files: files, message: creationMessage, staging: staging)
    }

    /// `instantiate(at:answers:store:)` from `files` this template already rendered with `answers` (as programs run
    /// around them, for example), so that they are not rendered twice.
    public func instantiate(at url: URL, answers: [String: JSONValue], store: DocumentStore, rendered files: [DocumentFile],
                            staging: NewDocumentStaging? = nil) throws -> Document {
        let staging = try staging ?? store.beginCreate(at: url)
        try checkCompatible()
        let metadata = try metadata(at: url, answers: answers, files: files, store: store, title: nil)
        return try store.create(at: url, metadata: metadata, files: files, message: creationMessage, staging: staging)
    }

    /// The metadata and files a document made at `url` with `answers` gets (rendered, checked; nothing written).
    func prepare(at url: URL, answers: [String: JSONValue], store: DocumentStore, title: String?,
                 rendered: (([DocumentFile]) -> Void)? = nil) throws -> (DocumentMetadata, [DocumentFile]) {
        try checkCompatible()
        let files = try renderWithSources(answers: answers, rendered: rendered).map(\.file)
        PhaseTrace.mark("rendered")
        return (try metadata(at: url, answers: answers, files: files, store: store, title: title), files)
    }

    /// The `.folio/document.json` of a document made at `url` with `answers` from the rendered `files`.
    func metadata(at url: URL, answers: [String: JSONValue], files: [DocumentFile], store: DocumentStore, title: String?) throws -> DocumentMetadata {
        let primary: String
        if let rendered = try renderPrimaryFile(answers: answers) {
            guard files.contains(where: { $0.path == rendered }) else {
                throw TemplateError(describe("template.json"), "primaryFile '\(rendered)' is not among the rendered files", kind: .invalidFile)
            }
            primary = rendered
        } else {
            let type = ContentType(manifest.contentType ?? ContentType.plainText.identifier)
            primary = files.map(\.path).sorted().first ?? DocumentMetadata.defaultPrimaryFile(for: type, registry: store.contentTypes)
        }
        let documentTitle = title ?? answers["title"]?.stringValue ?? answers["name"]?.stringValue ?? url.deletingPathExtension().lastPathComponent
        let origin = DocumentOrigin(kind: "template", template: .init(
            id: manifest.id, version: manifest.version, source: source.location, ref: ref, commit: commit, answers: recordableAnswers(answers)))
        return DocumentMetadata(contentType: ContentType(manifest.contentType ?? ContentType.plainText.identifier), title: documentTitle,
                                primaryFile: primary, origin: origin)
    }

    /// "Create from <id> <version> (<short commit>)".
    public var creationMessage: String {
        "Create from \(manifest.id) \(manifest.version ?? "unversioned") (\(String(commit.prefix(7))))"
    }
}
