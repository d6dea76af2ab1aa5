import FolioCore
import FolioGit
import FoundationEssentials
import Glibc

/// One version that changed an item: what the item was before and after.
public struct ItemChange: Sendable, Equatable, Encodable {
    /// What happened to the item in this version.
    public enum Kind: String, Sendable, Encodable {
        case added, changed, moved, movedAndChanged = "moved-and-changed"
    }
    public let commit: String
    public let shortID: String
    public let time: Date
    public let author: String
    /// The version's first message line.
    public let message: String
    public let kind: Kind
    /// The item's number in this version, and in the version before (nil when it was added here).
    public let key: String
    public let previousKey: String?
    /// The item's summary in this version, and in the version before.
    public let summary: String
    public let previousSummary: String?

    /// What changed, in one line: "added as 3: [ ] Milk", "moved from 3 to 5; [ ] Milk → [x] Milk".
    public var change: String {
        let previous = previousKey ?? "?"
        let content = summary == previousSummary ? "changed (\(summary))" : "\(previousSummary ?? "") → \(summary)"
        switch kind {
        case .added: return "added as \(key): \(summary)"
        case .changed: return content
        case .moved: return "moved from \(previous) to \(key)"
        case .movedAndChanged: return "moved from \(previous) to \(key); \(content)"
        }
    }
}

/// The history of one item: the versions that changed it, newest first, ending with the one that added it.
public struct ItemHistory: Sendable, Equatable, Encodable {
    /// The item as asked for, and the version it was asked in.
    public let item: String
    public let version: String
    /// The item's summary in that version.
    public let summary: String
    public let changes: [ItemChange]
    /// How many versions the editor listed to answer (0 when the cache had everything).
    public let listed: Int
    /// Whether a cache file was found damaged (or made by another editor build) and rebuilt.
    public let rebuiltCache: Bool
}

extension EditorRegistry {
    /// The versions that changed `item` (as the editor's view numbers it in version `rev`, default the newest), newest
    /// first, each with what changed — from the editor's `folio.items/1` lists, kept per version in
    /// `.git/folio/item-history` (rebuilt when missing or damaged).
    public func itemHistory(document: Document, item: String, at rev: String? = nil, associations: [String: String] = [:],
                            editor override: String? = nil) throws -> ItemHistory {
        let (chosen, backend) = try itemsBackend(document, associations: associations, override: override)
        let start = try rev.map(document.resolve) ?? document.head().id
        let path = document.metadata.primaryFile
        let items = try listItems(backend, document: document, at: start)
        guard let index = items.firstIndex(where: { $0.key == item }) else {
            throw ItemError.noSuchItem(item: item, version: start.short, count: items.count)
        }
        let (steps, listed, rebuilt) = try withTimeline(document, editor: chosen, backend: backend) { timeline in
            try timeline.steps(from: start, index: index, count: items.count)
        }
        let changes = try steps.map { try Self.change($0, in: document) }
        return ItemHistory(item: item, version: start.hex, summary: items[index].summary, changes: changes, listed: listed, rebuiltCache: rebuilt)
    }

    /// Runs `body` on the document's item timeline with its cache (read from `.git/folio/item-history`, and written
    /// back when `body` added links); links that turn out not to fit the versions make it start again from nothing.
    /// Returns `body`'s result, how many versions the editor listed, and whether a damaged cache file was found.
    func withTimeline<R>(_ document: Document, editor: EditorManifest, backend: any EditorBackend,
                         _ body: (ItemTimeline) throws -> R) throws -> (R, listed: Int, rebuilt: Bool) {
        let path = document.metadata.primaryFile
        let cacheURL = ItemHistoryCache.url(gitDirectory: document.repository.gitDirectory)
        let identity = cacheIdentity(editor: editor, path: path)
        let loaded = ItemHistoryCache.load(from: cacheURL, identity: identity)
        var timeline = ItemTimeline(document: document, backend: backend, path: path, cache: loaded)
        let result: R
        var rebuilt = loaded.discarded
        do {
            result = try body(timeline)
        } catch is ItemTimeline.StaleCache {
            rebuilt = true
            timeline = ItemTimeline(document: document, backend: backend, path: path, cache: ItemHistoryCache(identity: identity))
            result = try body(timeline)
        }
        if timeline.cache.changed { try? timeline.cache.save(to: cacheURL) }  // a cache: a read-only document still answers
        return (result, timeline.listed, rebuilt)
    }

    /// The editor of `document` and its backend, when the editor has `folio.items/1`.
    func itemsBackend(_ document: Document, associations: [String: String], override: String?) throws -> (EditorManifest, any EditorBackend) {
        let chosen = try chooseEditor(for: document, associations: associations, override: override)
        guard chosen.extensions.contains(FolioExtensionID.items) else { throw ItemError.unsupported(editor: chosen.id) }
        return (chosen, try backend(chosen.id))
    }

    /// The items of the primary file in version `commit` (an empty document when it has none).
    func listItems(_ backend: any EditorBackend, document: Document, at commit: ObjectID) throws -> [EditorItem] {
        let bytes = try primaryBytes(document, at: commit)
        guard let items = try backend.items(of: bytes, previous: nil) else { throw ItemError.unsupported(editor: backend.editorID) }
        return items
    }

    func primaryBytes(_ document: Document, at commit: ObjectID) throws -> Data {
        do { return try document.read(path: document.metadata.primaryFile, at: commit.hex) } catch FolioError.fileNotFound { return Data() }
    }

    /// What the cache was made by: editor, plugin build (its library's size and times) and primary file.
    private func cacheIdentity(editor: EditorManifest, path: String) -> String {
        guard let plugin = editors.first(where: { $0.editor.id == editor.id })?.plugin else { return "\(editor.id)|?|\(path)" }
        var info = stat()
        let stamp = stat(plugin.library.path, &info) == 0 ? "\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)|\(info.st_ino)" : "?"
        return "\(editor.id)|\(plugin.manifest.id)@\(plugin.manifest.version)|\(stamp)|\(path)"
    }

    private static func change(_ step: ItemTimeline.Step, in document: Document) throws -> ItemChange {
        let commit = try document.repository.commit(step.commit)
        let note = step.note
        let kind: ItemChange.Kind = note.previous == nil ? .added : note.moved && note.changed ? .movedAndChanged : note.moved ? .moved : .changed
        return ItemChange(commit: commit.id.hex, shortID: commit.id.short, time: commit.author.time, author: commit.author.name, message: commit.summary,
                          kind: kind, key: note.key, previousKey: note.previousKey, summary: note.summary, previousSummary: note.previousSummary)
    }
}

extension EditorRegistry {
    /// The items of versions `old` and `new` as the editor lists them (`folio.items/1`), the new ones matched against
    /// the old; nil when the document's editor has no item list.
    public func itemLists(document: Document, from old: ObjectID, to new: ObjectID, associations: [String: String] = [:],
                          editor override: String? = nil) throws -> (old: [EditorItem], new: [EditorItem])? {
        guard let (_, backend) = try? itemsBackend(document, associations: associations, override: override) else { return nil }
        let before = try primaryBytes(document, at: old), after = try primaryBytes(document, at: new)
        guard let oldItems = try backend.items(of: before, previous: nil), let newItems = try backend.items(of: after, previous: before) else { return nil }
        return (oldItems, newItems)
    }
}
