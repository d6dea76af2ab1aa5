import FoundationEssentials
import Glibc
import FolioCore
import FolioLaunch
import FolioPlugins
import Synchronization

/// A document's files for the generic view: the listing with sizes, read-only contents, and an edit in the user's
/// editor recorded through `Document` (the path `folio write` takes) as one commit. It keeps a `Document` of its own
/// (a `Document` is not thread-safe, and the editor host's worker uses the session's).
final class GenericDocumentFiles: GenericDocumentAccess {
    let reason: GenericViewReason?
    private struct Cache {
        let document: Document
        var listing: (head: String, files: [ListedFile])?
    }
    private let state: Mutex<Cache>

    /// The generic view's access to `session`'s document, nil when an editor opens it (or it cannot be read again).
    init?(session: DocumentSessionAdapter, environment: [String: String]) {
        guard let reason = Self.reason(for: session),
              let document = try? DocumentStore(environment: environment).open(at: URL(fileURLWithPath: session.path)) else { return nil }
        self.reason = reason
        state = Mutex(Cache(document: document))
    }

    /// Why no editor opens the session's document: none fits, the associated one is not installed, the chosen one's
    /// build is quarantined or its library is gone; nil when the editor is usable.
    static func reason(for session: DocumentSessionAdapter) -> GenericViewReason? {
        let type = session.contentType.identifier
        guard let chosen = session.editorManifest else {
            // An editor for this type that the user disabled (or whose installed file changed) is not loaded.
            if let inactive = session.host.inactive.first(where: { $0.plugin.manifest.editors.contains { $0.contentTypes.contains(session.contentType) } }),
               let editor = inactive.plugin.manifest.editors.first(where: { $0.contentTypes.contains(session.contentType) }) {
                return .editorDisabled(editor.id)
            }
            if let associated = session.associations[type], !session.host.editors.contains(where: { $0.editor.id == associated }) {
                return .editorMissing(associated)
            }
            return .noEditor(contentType: type)
        }
        guard let plugin = session.host.editors.first(where: { $0.editor.id == chosen.id })?.plugin else { return .editorMissing(chosen.id) }
        if !FileManager.default.fileExists(atPath: plugin.library.path) { return .editorMissing(chosen.id) }
        if session.host.isolation.quarantine?.quarantined(library: plugin.library, plugin: plugin.manifest.id, bundled: plugin.bundled) != nil {
            return .editorQuarantined(chosen.id)
        }
        return nil
    }

    func head() -> (id: String, message: String) {
        state.withLock { cache in
            guard let head = try? cache.document.head() else { return ("", "") }
            return (head.id.hex, head.summary)
        }
    }

    func files() throws -> [GenericFileEntry] {
        try listing().map { file in
            let kind: GenericFileEntry.Kind = switch file.kind {
            case .file: .file
            case .executable: .executable
            case .link: .link
            case .submodule: .submodule
            }
            return GenericFileEntry(path: file.path, size: file.size, kind: kind)
        }
    }

    /// The newest version's files, listed once per head.
    private func listing() throws -> [ListedFile] {
        try state.withLock { cache in
            let head = (try? cache.document.head().id.hex) ?? ""
            if let listing = cache.listing, listing.head == head { return listing.files }
            let files = try cache.document.listFiles()
            cache.listing = (head, files)
            return files
        }
    }

    func content(of path: String) throws -> GenericFileView {
        guard let file = try listing().first(where: { $0.path == path }) else {
            throw FolioError.fileNotFound(file: path, location: "the newest version")
        }
        switch file.kind {
        case .submodule: return GenericFileView(path: path, lines: [], binary: false, size: 0, note: "a submodule (another repository's commit)")
        case .link: break
        case .file, .executable:
            if file.size > GenericFileView.displayLimit {
                return GenericFileView(path: path, lines: [], binary: false, size: file.size,
                                       note: "too large to show here (\(GenericText.size(file.size))); e opens it in your editor")
            }
        }
        let data = try state.withLock { try $0.document.read(path: path) }
        if file.kind == .link {
            return GenericFileView(path: path, lines: ["→ " + GenericText.sanitize(String(decoding: data, as: UTF8.self))], binary: false,
                                   size: data.count, note: nil)
        }
        return GenericFileView(path: path, data: data)
    }

    func edit(_ path: String, runEditor: (URL) throws -> Void) throws -> StatusLine {
        let edit = try state.withLock { try $0.document.beginExternalEdit(of: path) }
        try runEditor(edit.fileURL)
        let outcome = try state.withLock { try $0.document.finishExternalEdit(edit) }
        return Self.summary(outcome, path: path)
    }

    static func summary(_ outcome: ExternalEditOutcome, path: String) -> StatusLine {
        let ignored = outcome.ignored.isEmpty ? "" : " · left out editor files: " + outcome.ignored.joined(separator: ", ")
        guard let commit = outcome.commit else { return .note("no change to \(path): nothing recorded" + ignored) }
        return .success("recorded “\(commit.summary)” (\(commit.id.short))" + ignored)
    }
}
