import FolioCore
import FolioGit
import FoundationEssentials
import Glibc

/// The result of bringing one item back: the commit (nil when the item already was as in that version), its
/// message and the editor's description.
public struct ItemRestoreOutcome: Sendable {
    public let commit: CommitInfo?
    public let message: String
    public let description: String
}

extension EditorRegistry {
    /// Puts `item` (as the editor's view numbers it in version `rev`) back as it was in `rev`, leaving every other item
    /// as it is now, as one commit "Restore item ITEM from ID: DESCRIPTION". An item that still exists (the editor
    /// matches it from `rev` to now, as its semantic diff does) is replaced where it is; one removed since comes back at
    /// its old position or the nearest valid one. The editor's result is checked before anything is written: every
    /// other item must be there unchanged and the item must be as in `rev`, else nothing is written.
    @discardableResult
    public func restoreItem(document: Document, item: String, from rev: String, associations: [String: String] = [:],
                            editor override: String? = nil) throws -> ItemRestoreOutcome {
        let (chosen, backend) = try itemsBackend(document, associations: associations, override: override)
        let source = try document.resolve(rev)
        let from = try primaryBytes(document, at: source)
        let fromItems = try listItems(backend, document: document, at: source)
        guard let wanted = fromItems.first(where: { $0.key == item }) else {
            throw ItemError.noSuchItem(item: item, version: source.short, count: fromItems.count)
        }
        let headID = try document.head().id
        let head = try primaryBytes(document, at: headID)
        let traced = try sameItem(wanted, of: fromItems, in: source, now: headID, document: document, editor: chosen, backend: backend)
        let first = try take(wanted, from: from, fromKeys: Set(fromItems.map(\.key)), into: head, target: traced, backend: backend)
        let message = "Restore item \(item) from \(source.short): \(first.description)"
        let commit = try document.update(document.metadata.primaryFile, message: message) { current in
            let current = current ?? Data()
            return current == head ? first.bytes : try take(wanted, from: from, fromKeys: Set(fromItems.map(\.key)), into: current, backend: backend).bytes
        }
        return ItemRestoreOutcome(commit: commit, message: message, description: first.description)
    }

    /// Where `wanted` (an item of version `source`) is in version `now`, followed through the versions between when
    /// `source` is on `now`'s first-parent chain: `.some(key)` (nil inside: it is gone); `nil` when it cannot be followed
    /// that way (then the editor matches the two versions directly).
    private func sameItem(_ wanted: EditorItem, of fromItems: [EditorItem], in source: ObjectID, now: ObjectID, document: Document,
                          editor: EditorManifest, backend: any EditorBackend) throws -> String?? {
        guard source != now, try document.repository.isAncestor(source, of: now), let index = fromItems.firstIndex(of: wanted) else { return nil }
        let nowItems = try listItems(backend, document: document, at: now)
        let (mapped, _, _) = try withTimeline(document, editor: editor, backend: backend) { timeline in
            try timeline.indices(from: now, count: nowItems.count, in: source)
        }
        guard let mapped else { return nil }
        return .some(mapped.firstIndex(of: index).map { nowItems[$0].key })
    }

    /// `into` with `wanted` (an item of `from`) taken back, checked: the other items of `into` unchanged, the item as
    /// in `from`. `target` is the same item's key in `into` when known (`.some(nil)`: gone), else the editor matches.
    private func take(_ wanted: EditorItem, from: Data, fromKeys: Set<String>, into: Data, target known: String?? = nil,
                      backend: any EditorBackend) throws -> (bytes: Data, description: String) {
        guard let intoItems = try backend.items(of: into, previous: from) else { throw ItemError.unsupported(editor: backend.editorID) }
        if let stray = intoItems.first(where: { $0.previous.map { !fromKeys.contains($0) } ?? false }) {
            throw EditorOperationError(editor: backend.editorID, operation: "list items", kind: .internal,
                                       message: "item '\(stray.key)' is matched with an item the earlier version does not have")
        }
        let target = known.map { key in key.flatMap { key in intoItems.first { $0.key == key } } } ?? intoItems.first { $0.previous == wanted.key }
        guard let (bytes, description) = try backend.takeItems(from: from, into: into, pairs: [(wanted.key, target?.key)]) else {
            throw ItemError.unsupported(editor: backend.editorID)
        }
        try check(bytes, into: intoItems, replacing: target, with: wanted, backend: backend)
        return (bytes, description)
    }

    /// Refuses a take that changed, lost or added anything but the one item.
    private func check(_ result: Data, into intoItems: [EditorItem], replacing target: EditorItem?, with wanted: EditorItem, backend: any EditorBackend) throws {
        guard let resultItems = try backend.items(of: result, previous: nil) else { throw ItemError.unsupported(editor: backend.editorID) }
        let refusal = ItemError.takeChangedOthers(editor: backend.editorID, item: wanted.key)
        guard resultItems.count == intoItems.count + (target == nil ? 1 : 0) else { throw refusal }
        var expected = intoItems.filter { $0.key != target?.key }.map(\.fingerprint)
        expected.append(wanted.fingerprint)
        var actual = resultItems.map(\.fingerprint)
        expected.sort()
        actual.sort()
        guard expected == actual else { throw refusal }
    }
}
