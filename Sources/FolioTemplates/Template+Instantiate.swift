import Foundation
import FolioCore

extension Template {
    /// Creates the document at `url` from this template with `answers` (already collected), as one first commit
    /// "Create from <id> <version> (<commit>)". Its origin records the source, ref, commit and the answers minus
    /// secrets. Nothing is written when anything fails.
    public func instantiate(at url: URL, answers: [String: JSONValue], store: DocumentStore, title: String? = nil) throws -> Document {
        try checkCompatible()
        let files = try render(answers: answers)
        let primary: String
        if let rendered = try renderPrimaryFile(answers: answers) {
            guard files.contains(where: { $0.path == rendered }) else {
                throw TemplateError(describe("template.json"), "primaryFile '\(rendered)' is not among the rendered files")
            }
            primary = rendered
        } else {
            let type = ContentType(manifest.contentType ?? ContentType.plainText.identifier)
            primary = files.map(\.path).sorted().first ?? DocumentMetadata.defaultPrimaryFile(for: type, registry: store.contentTypes)
        }
        let documentTitle = title ?? answers["title"]?.stringValue ?? answers["name"]?.stringValue ?? url.deletingPathExtension().lastPathComponent
        let origin = DocumentOrigin(kind: "template", template: .init(
            id: manifest.id, version: manifest.version, source: source.location, ref: ref, commit: commit, answers: recordableAnswers(answers)))
        let metadata = DocumentMetadata(contentType: ContentType(manifest.contentType ?? ContentType.plainText.identifier), title: documentTitle,
                                        primaryFile: primary, origin: origin)
        return try store.create(at: url, metadata: metadata, files: files, message: creationMessage)
    }

    /// "Create from <id> <version> (<short commit>)".
    public var creationMessage: String {
        "Create from \(manifest.id) \(manifest.version ?? "unversioned") (\(String(commit.prefix(7))))"
    }
}
