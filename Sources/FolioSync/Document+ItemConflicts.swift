import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioPlugins

/// A kept conflict as it stands against the current version: what must be chosen to settle it (encoded, it is what
/// `folio conflicts PATH show REF --json` prints).
public struct ConflictDetails: Sendable, Equatable, Encodable {
    /// The kept version's ref (`refs/folio/conflicts/…`).
    public let ref: String
    /// The kept (remote) commit.
    public let commit: String
    /// Its first message line (remote text: show it as text).
    public let summary: String
    /// The document's primary file, whose conflicting items `items` lists.
    public let primaryFile: String
    /// The primary file's conflicting items, keyed as the common ancestor numbers them. Empty when its editor cannot
    /// settle it item by item (the primary file is then in `files`).
    public let items: [ItemConflict]
    /// Conflicting files settled whole (mine or theirs), keyed by path: files other than the primary one that no
    /// editor merges, and the primary file when its editor cannot list, take or merge its items.
    public let files: [String]

    /// Every key a settlement must choose for: the items, then the files.
    public var keys: [String] { items.map(\.key) + files }
}

/// One item both sides changed differently, with the editor's records of it on each side.
struct ConflictingItem {
    let base: EditorItem
    let mine: EditorItem?
    let theirs: EditorItem?
    var key: String { base.key }
}

/// The primary file's three versions and their items as the editor lists them (`mine`'s and `theirs`'s matched
/// against `base`).
struct PrimaryItems {
    let path: String
    let mode: UInt32
    let backend: any EditorBackend
    let base: Data, mine: Data, theirs: Data
    let baseItems: [EditorItem], mineItems: [EditorItem], theirsItems: [EditorItem]
    var conflicts: [ConflictingItem]

    /// The item of `mine` (or `theirs`) that was base item `key`, nil when that side removed it.
    func mine(of key: String) -> EditorItem? { mineItems.first { $0.previous == key } }
    func theirs(of key: String) -> EditorItem? { theirsItems.first { $0.previous == key } }
}

/// What settling a kept conflict involves against the current version: the tree merge, the files merged by an editor,
/// the primary file's item conflicts (when it is settled item by item) and the files settled whole.
struct ConflictPlan {
    let name: String
    let stamp: String
    let theirs: ObjectID
    let ours: ObjectID
    let merge: TreeMergeResult
    /// Conflicting files an editor merged by meaning.
    let merged: [TreeChange]
    let primary: PrimaryItems?
    let files: [MergeConflict]

    var keys: [String] { (primary?.conflicts.map(\.key) ?? []) + files.map(\.path) }
}

extension Document {
    /// The full name of kept conflict `ref` (`20250102T030405Z` or `refs/folio/conflicts/…`) and the commit it keeps.
    func keptConflict(_ ref: String) throws -> (name: String, commit: ObjectID) {
        let name = ref.hasPrefix("refs/") ? ref : Self.conflictRefPrefix + ref
        guard name.hasPrefix(Self.conflictRefPrefix), let theirs = try repository.referenceTarget(name) else {
            throw SyncError.unknownConflict(document: url.path, ref: ref)
        }
        return (name, theirs)
    }

    /// What must be chosen to settle kept conflict `ref` against the current version: the primary file's conflicting
    /// items as its editor lists them (`editors`: nil or an editor without `folio.items/1` and
    /// `folio.semantic-merge/1` settles it whole), and the other conflicting files, settled whole.
    public func conflictDetails(_ ref: String, editors: (any ItemMerging)?) throws -> ConflictDetails {
        let plan = try conflictPlan(ref, editors: editors)
        let items = try plan.primary.map { try itemConflicts(of: $0) } ?? []
        return ConflictDetails(ref: plan.name, commit: plan.theirs.hex, summary: try repository.commit(plan.theirs).summary,
                               primaryFile: metadata.primaryFile, items: items, files: plan.files.map(\.path))
    }

    /// The primary file's items that kept conflict `ref` changed differently on both sides (or changed on one and
    /// removed on the other), worded as the editor's semantic diff words each side's change; empty when its editor
    /// cannot settle it item by item.
    public func itemConflicts(_ ref: String, editors: (any ItemMerging)?) throws -> [ItemConflict] {
        try conflictDetails(ref, editors: editors).items
    }

    /// The plan for kept conflict `ref` against the current version.
    func conflictPlan(_ ref: String, editors: (any ItemMerging)?) throws -> ConflictPlan {
        let (name, theirs) = try keptConflict(ref)
        let stamp = String(name.dropFirst(Self.conflictRefPrefix.count))
        let ours = try head().id
        let merge = try mergeForSync(ours: ours, theirs: theirs, semanticMerger: editors)
        var merged: [TreeChange] = [], files: [MergeConflict] = []
        var primary: PrimaryItems?
        for conflict in merge.conflicts {
            if let bytes = try semanticMerge(conflict, merger: editors), let side = conflict.ours {
                merged.append(.upsert(path: side.path, blob: try repository.writeBlob(bytes), mode: side.mode))
            } else if conflict.path == metadata.primaryFile, let items = try primaryItems(conflict, editors: editors) {
                primary = items
            } else {
                files.append(conflict)
            }
        }
        return ConflictPlan(name: name, stamp: stamp, theirs: theirs, ours: ours, merge: merge, merged: merged, primary: primary, files: files)
    }

    /// The primary file's items on the three sides, when its editor can settle it item by item: it lists and takes
    /// items and merges by meaning, and taking "mine" for every conflicting item gives a clean merge (a conflict that
    /// is not about items, such as a list's title renamed two ways, leaves the file to be settled whole).
    private func primaryItems(_ conflict: MergeConflict, editors: (any ItemMerging)?) throws -> PrimaryItems? {
        guard let editors, let ours = conflict.ours, let theirs = conflict.theirs, ours.path == theirs.path,
              let backend = try editors.itemEditor(for: metadata.contentType) else { return nil }
        let base = try conflict.ancestor.map { try repository.readBlob($0.id) } ?? Data()
        let mine = try repository.readBlob(ours.id), theirsBytes = try repository.readBlob(theirs.id)
        guard let baseItems = try backend.items(of: base, previous: nil),
              let mineItems = try backend.items(of: mine, previous: base),
              let theirsItems = try backend.items(of: theirsBytes, previous: base) else { return nil }
        let baseKeys = Set(baseItems.map(\.key))
        if let stray = (mineItems + theirsItems).first(where: { $0.previous.map { !baseKeys.contains($0) } ?? false }) {
            throw EditorOperationError(editor: backend.editorID, operation: "list items", kind: .internal,
                                       message: "item '\(stray.key)' is matched with an item the earlier version does not have")
        }
        var items = PrimaryItems(path: ours.path, mode: ours.mode, backend: backend, base: base, mine: mine, theirs: theirsBytes,
                                 baseItems: baseItems, mineItems: mineItems, theirsItems: theirsItems, conflicts: [])
        items.conflicts = baseItems.compactMap { base -> ConflictingItem? in
            let m = items.mine(of: base.key), t = items.theirs(of: base.key)
            guard m?.fingerprint != base.fingerprint, t?.fingerprint != base.fingerprint, m?.fingerprint != t?.fingerprint else { return nil }
            return ConflictingItem(base: base, mine: m, theirs: t)
        }
        do {
            _ = try settledPrimary(items, choices: Dictionary(uniqueKeysWithValues: items.conflicts.map { ($0.key, ItemChoice.mine) }))
        } catch is SettleError {
            return nil
        }
        return items
    }

    /// Each conflicting item as the conflict screen and `folio conflicts` list it.
    private func itemConflicts(of items: PrimaryItems) throws -> [ItemConflict] {
        items.conflicts.map { conflict in
            ItemConflict(key: conflict.key, base: conflict.base.summary, mine: conflict.mine?.summary, theirs: conflict.theirs?.summary,
                         mineChange: change(conflict.base, to: conflict.mine, side: items.mine, in: items),
                         theirsChange: change(conflict.base, to: conflict.theirs, side: items.theirs, in: items))
        }
    }

    /// What one side did to `base`'s item, as the editor's semantic diff words it: the diff from the base to the base
    /// with only this item taken from that side (or, for a removal, from that side with only this item brought back
    /// to that side). Summaries (`[ ] Milk → [x] Milk`, `removed [ ] Milk`) when the editor has no words for it.
    private func change(_ base: EditorItem, to item: EditorItem?, side: Data, in items: PrimaryItems) -> String {
        let fallback = item.map { "\(base.summary) → \($0.summary)" } ?? "removed \(base.summary)"
        let backend = items.backend
        let words: String?
        if let item {
            let only = (try? backend.takeItems(from: side, into: items.base, pairs: [(item.key, base.key)])) ?? nil
            words = only.flatMap { (try? backend.diff(from: items.base, to: $0.bytes)) ?? nil }
        } else {
            let back = (try? backend.takeItems(from: items.base, into: side, pairs: [(base.key, nil)])) ?? nil
            words = back.flatMap { (try? backend.diff(from: $0.bytes, to: side)) ?? nil }
        }
        let lines = words?.split(separator: "\n").map { PluginText.description(String($0)) }.filter { !$0.isEmpty } ?? []
        return lines.isEmpty ? fallback : PluginText.description(lines.joined(separator: "; "))
    }
}
