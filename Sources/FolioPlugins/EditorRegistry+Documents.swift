import FolioCore
import FoundationEssentials
import Glibc

/// Time spent inside the plugin during one headless edit (for benchmarks: the plugin's own part).
public struct EditTimings: Sendable, Equatable {
    /// Loading the plugin when this edit was its first use (zero otherwise).
    public var load: Duration = .zero
    public var open: Duration = .zero
    public var apply: Duration = .zero
    public var serialize: Duration = .zero
    /// Writing the commit through the document store.
    public var commit: Duration = .zero
    /// open + apply + serialize: the time spent in plugin code.
    public var plugin: Duration { open + apply + serialize }

    /// All zero.
    public init() {}
}

/// The result of `folio edit`: the editor used, the plugin's description (the commit message) and the commit.
public struct EditOutcome: Sendable {
    public let editor: String
    public let description: String
    /// The new commit's full id, or nil when the command changed nothing.
    public let commit: String?
    public let timings: EditTimings
}

extension EditorRegistry {
    /// The manifest of the editor for `document`: `override` ("reopen with"), then the user's association, then the ranking.
    public func chooseEditor(for document: Document, associations: [String: String] = [:], override: String? = nil) throws -> EditorManifest {
        try chooseEditor(for: document.metadata.contentType, associations: associations, override: override).editor
    }

    /// Applies one command to the document's primary file with its editor and writes the result as one commit
    /// whose message is the plugin's description. Bad arguments throw before anything is written.
    ///
    /// The command applies to version `base` — the one the user saw (default: the newest) — so that its item
    /// numbers mean the items the user meant. When the file changed since `base`, the result is merged with the
    /// newest content (the editor's semantic merge, else a three-way text merge) and committed as one change; when
    /// the two conflict, `EditConflict` is thrown and nothing is written (never a change to another item).
    /// `selection` (the window's cursor and range in that version's items) is passed to the plugin's `apply`.
    @discardableResult
    public func edit(_ document: Document, command: String, arguments: [String], base: String? = nil, selection: ViewSelection = ViewSelection(),
                     associations: [String: String] = [:], editor override: String? = nil) throws -> EditOutcome {
        let clock = ContinuousClock()
        var timings = EditTimings()
        let chosen = try chooseEditor(for: document, associations: associations, override: override)
        var start = clock.now
        let editor = try backend(chosen.id)
        timings.load = clock.now - start
        let path = document.metadata.primaryFile
        let shown = try base.map { "\(try document.resolve($0))" }
        let bytes = try document.read(path: path, at: shown)
        start = clock.now
        let opened = try editor.openDocument(bytes)
        timings.open = clock.now - start
        start = clock.now
        let (changed, description) = try opened.apply(command, arguments: arguments, selection: selection)
        timings.apply = clock.now - start
        start = clock.now
        let data = try changed.bytes()
        timings.serialize = clock.now - start
        start = clock.now
        let commit = try document.update(path, message: description) { current in
            guard let current, current != bytes else { return current == nil && shown != nil ? try Self.refuseGone(command, path) : data }
            return try merging(command, editor: chosen, backend: editor, path: path, base: bytes, ours: data, theirs: current)
        }
        timings.commit = clock.now - start
        return EditOutcome(editor: editor.editorID, description: description, commit: commit.map { "\($0.id)" }, timings: timings)
    }

    /// The editor's view of the document's primary file (at `rev`, default the newest) for `request`.
    public func view(of document: Document, at rev: String? = nil, _ request: RenderRequest,
                     associations: [String: String] = [:], editor override: String? = nil) throws -> [String] {
        let chosen = try chooseEditor(for: document, associations: associations, override: override)
        let editor = try backend(chosen.id)
        let opened = try editor.openDocument(try document.read(path: document.metadata.primaryFile, at: rev))
        return try opened.view(request)
    }

    /// The semantic diff of the primary file between versions `a` (default: `b`'s parent) and `b` (default: the newest),
    /// from the document's editor; nil when that editor has none (then show the text diff).
    public func semanticDiff(document: Document, from a: String? = nil, to b: String? = nil, associations: [String: String] = [:],
                             editor override: String? = nil) throws -> String? {
        let chosen = try chooseEditor(for: document, associations: associations, override: override)
        guard chosen.extensions.contains(FolioExtensionID.semanticDiff) else { return nil }
        let editor = try backend(chosen.id)
        let path = document.metadata.primaryFile
        // Resolve first: an unknown version is an error, not an empty side; `@N` has no `^` form, an id does.
        let newRev = "\(try document.resolve(b ?? "HEAD"))"
        let oldRev = try a.map { "\(try document.resolve($0))" } ?? "\(newRev)^"
        func content(_ rev: String) throws -> Data {
            do { return try document.read(path: path, at: rev) } catch let error as FolioError {
                switch error {
                case .fileNotFound: return Data()
                case .unknownRevision where a == nil && rev == oldRev: return Data()  // the first version has no parent
                default: throw error
                }
            }
        }
        return try editor.diff(from: content(oldRev), to: content(newRev))
    }
}

/// Capability ids of the plugin ABI, as Swift strings.
public enum FolioExtensionID {
    /// `folio.semantic-diff/1`.
    public static let semanticDiff = "folio.semantic-diff/1"
    /// `folio.semantic-merge/1`.
    public static let semanticMerge = "folio.semantic-merge/1"
    /// `folio.items/1`: the items of a version, and items taken from one version into another.
    public static let items = "folio.items/1"
}
