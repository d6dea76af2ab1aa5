import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioLaunch
import FolioPlugins
import Synchronization

extension DocumentHistory: HistoryPreviewProvider {
    func comparison(from old: String, to new: String?, width: Int, isStale: @escaping @Sendable () -> Bool) async throws -> VersionComparison {
        try session.comparison(from: old, to: new, width: width, isStale: isStale)
    }
}

/// Versions drawn lately, by commit and width: moving back and forth over the list, and the current version drawn
/// beside every other one, costs no editor call.
final class DrawnVersions: Sendable {
    static let capacity = 16
    private let entries = Mutex<[(key: String, view: PluginView)]>([])

    func view(_ key: String) -> PluginView? {
        entries.withLock { list in list.first { $0.key == key }?.view }
    }

    func keep(_ key: String, _ view: PluginView) {
        entries.withLock { list in
            list.removeAll { $0.key == key }
            list.insert((key, view), at: 0)
            if list.count > Self.capacity { list.removeLast() }
        }
    }
}

extension DocumentSessionAdapter {
    /// The most rows a version is drawn with: as many as the history browser keeps of a diff.
    static let previewHeight = HistoryState.maximumDiffLines
    /// The height of the view that finds whether an item shows text below the items when selected.
    static let detailProbeHeight = 40

    /// Versions `old` and `new` (nil: the current one) as the editor draws them at `width`, compared row by row, with
    /// the editor's description and the changed text of items word by word. A document without an editor is drawn
    /// as its primary file's text. Each editor call takes the session's lock on its own, so the editor host's
    /// frames are never kept waiting for a whole comparison.
    func comparison(from old: String, to new: String?, width: Int, isStale: () -> Bool) throws -> VersionComparison {
        let (oldID, newID) = try locked { (try document.resolve(old).hex, try new.map { try document.resolve($0).hex } ?? document.head().id.hex) }
        let before = try drawn(oldID, width: width)
        if isStale() { throw CancellationError() }  // the selection moved on: its answer would be dropped anyway
        let after = try drawn(newID, width: width)
        var summary: [String] = []
        if oldID != newID, editorManifest != nil, !isStale() {
            summary = (try? locked { try host.semanticDiff(document: document, from: oldID, to: newID, associations: associations, editor: editorManifest?.id) })
                .flatMap { $0 }.map(Self.lines) ?? []
        }
        let hasDetail = editorManifest != nil
        var marks: ItemMarks?
        if oldID != newID, editorManifest != nil, !isStale(), let from = ObjectID(hex: oldID), let to = ObjectID(hex: newID),
           let lists = try? locked({ try host.itemLists(document: document, from: from, to: to, associations: associations, editor: editorManifest?.id) }) {
            marks = ItemMarks.make(old: lists.old.map { ($0.key, $0.fingerprint) }, new: lists.new.map { ($0.key, $0.previous, $0.fingerprint) })
        }
        let note = (before.failure ?? after.failure).map { why in locked { "\(why): \(document.metadata.primaryFile) as text" } }
        return try VersionComparison.make(oldID: oldID, newID: newID, old: before.content, new: after.content, summary: summary,
                                          note: note, itemMarks: marks, isStale: isStale) { side, row in
            guard hasDetail else { return nil }
            return try detail(side == .old ? oldID : newID, width: width, row: row, plain: side == .old ? before.content : after.content)
        }
    }

    /// Version `id` as the editor draws it at `width`, whole (trailing blank rows dropped), or, when no editor opens
    /// the document, why, with its primary file as text under it. A failed render throws.
    func drawn(_ id: String, width: Int) throws -> PluginView {
        let key = "\(id) \(width)"
        if let kept = drawnVersions.view(key) { return kept }
        let view: PluginView = try locked {
            let bytes = try document.read(path: document.metadata.primaryFile, at: id)
            guard let editorManifest else {
                let text = Self.lines(String(decoding: bytes, as: UTF8.self)).prefix(Self.previewHeight).map { PluginText.viewLine($0, width: width) }
                return .failed(editorProblem ?? "no editor", text: text)
            }
            let opened = try host.backend(editorManifest.id).openDocument(bytes)
            return .lines(Self.trimmed(try opened.view(RenderRequest(width: width, height: Self.previewHeight))))
        }
        drawnVersions.keep(key, view)
        return view
    }

    /// What version `id` shows under its items when item row `row` is selected (a scene's text), nil when the view
    /// shows nothing there or already showed something there without a selection (a drawing).
    func detail(_ id: String, width: Int, row: Int, plain: [String]) throws -> [String]? {
        guard let layout = ViewLines.outlineLayout(plain), layout.headerLines + layout.count >= plain.count,
              let item = ViewLines.itemIndex(plain[row], in: layout), let editorManifest else { return nil }
        return try locked {
            let opened = try host.backend(editorManifest.id).openDocument(try document.read(path: document.metadata.primaryFile, at: id))
            // A small view first: whether anything shows below the items with this one selected (a checklist of
            // 10,000 items shows none, and is not drawn whole for it).
            let probe = try opened.view(RenderRequest(width: width, height: Self.detailProbeHeight, selection: ViewSelection(cursor: item + 1)))
            guard let last = probe.lastIndex(where: { ViewLines.itemPath($0) != nil }), probe.index(after: last) < Self.trimmed(probe).count else { return [] }
            let lines = try opened.view(RenderRequest(width: width, height: Self.previewHeight, selection: ViewSelection(cursor: item + 1)))
            return Array(Self.trimmed(lines).dropFirst(layout.headerLines + layout.count))
        }
    }

    static func trimmed(_ lines: [String]) -> [String] {
        var lines = lines
        while let last = lines.last, last.allSatisfy({ $0 == " " }) { lines.removeLast() }
        return lines
    }
}
