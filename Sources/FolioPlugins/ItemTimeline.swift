import FolioCore
import FolioGit
import FoundationEssentials
import Glibc

/// Follows one item back through a document's versions with the editor's `folio.items/1` lists, computing the
/// links between versions it lacks (in one pass along first parents, oldest first, so each version is listed once)
/// and keeping them in `ItemHistoryCache`.
///
/// At a merge the item is followed into the parent it came from unchanged, as `git log` simplifies history: a merge
/// that took the item from the remote's side lists the remote's versions that changed it, not the merge.
final class ItemTimeline {
    /// The item as it was in one version that changed it.
    struct Step {
        var commit: ObjectID
        var note: ItemLinks.Note
    }

    /// The links found in the cache do not fit the versions (damage the checksum could not see): start again.
    struct StaleCache: Error {}

    /// Stands for "no parent": the first version is linked against an empty document.
    static let noParent = ObjectID(hex: String(repeating: "0", count: 40))!

    let document: Document
    let backend: any EditorBackend
    let path: String
    var cache: ItemHistoryCache
    /// Commits read in this run (their trees), so a computation reads each once.
    private var trees: [ObjectID: ObjectID] = [:]
    /// The last version listed (its blob and items): the next version's parent in a pass along first parents.
    private var lastListed: (blob: ObjectID?, items: [EditorItem])?
    private var lastContent: (blob: ObjectID, data: Data)?
    /// How many versions were listed by the editor in this run.
    private(set) var listed = 0

    init(document: Document, backend: any EditorBackend, path: String, cache: ItemHistoryCache) {
        self.document = document
        self.backend = backend
        self.path = path
        self.cache = cache
    }

    /// The versions that changed item `index` of version `start`, newest first, ending with the one that added it.
    func steps(from start: ObjectID, index: Int, count: Int) throws -> [Step] {
        var steps: [Step] = []
        var commit = start, item = index
        if let entry = cache.entries[start], let links = entry.links.first ?? nil, !links.same, links.count != count { throw StaleCache() }
        while true {
            let entry = try entry(commit)
            let first = try links(commit, parent: 0)
            guard let link = first.link(item) else { throw StaleCache() }
            var follow = (parent: 0, previous: link.previous, note: link.note)
            if link.note != nil, entry.parents.count > 1 {
                for parent in 1..<entry.parents.count {
                    guard let other = try links(commit, parent: parent).link(item) else { throw StaleCache() }
                    if other.note == nil, let previous = other.previous { follow = (parent, previous, nil); break }
                }
            }
            if let note = follow.note { steps.append(Step(commit: commit, note: note)) }
            guard let previous = follow.previous, entry.parents[follow.parent] != Self.noParent else { break }
            commit = entry.parents[follow.parent]
            item = previous
        }
        return steps
    }

    /// For each of the `count` items of `head`, its index in `ancestor` (nil when it was added since), following the
    /// items back along first parents; nil when `ancestor` is not on `head`'s first-parent chain.
    func indices(from head: ObjectID, count: Int, in ancestor: ObjectID) throws -> [Int?]? {
        var current: [Int?] = Array(0..<count)
        var commit = head
        while commit != ancestor {
            let entry = try entry(commit)
            guard entry.parents[0] != Self.noParent else { return nil }
            let links = try links(commit, parent: 0)
            current = try current.map { index in
                guard let index else { return nil }
                guard let link = links.link(index) else { throw StaleCache() }
                return link.previous
            }
            commit = entry.parents[0]
        }
        return current
    }

    /// The cache entry of `commit` (its parents read from the repository when it has none yet).
    private func entry(_ commit: ObjectID) throws -> ItemHistoryCache.Entry {
        if let entry = cache.entries[commit] { return entry }
        let info = try document.repository.commit(commit)
        trees[commit] = info.tree
        let parents = info.parents.isEmpty ? [Self.noParent] : info.parents
        let entry = ItemHistoryCache.Entry(parents: parents, links: Array(repeating: nil, count: parents.count))
        cache.entries[commit] = entry
        cache.changed = true
        return entry
    }

    /// The links of `commit` to its `parent`-th parent; for the first parent, every missing link down the first-parent
    /// chain is computed in one pass first.
    private func links(_ commit: ObjectID, parent: Int) throws -> ItemLinks {
        if let links = try entry(commit).links[parent] { return links }
        if parent == 0 {
            var chain: [ObjectID] = []
            var cursor = commit
            while true {
                let entry = try entry(cursor)
                guard entry.links[0] == nil else { break }
                chain.append(cursor)
                guard entry.parents[0] != Self.noParent else { break }
                cursor = entry.parents[0]
            }
            for version in chain.reversed() { try compute(version, parent: 0) }
        } else {
            try compute(commit, parent: parent)
        }
        guard let links = cache.entries[commit]?.links[parent] else { throw StaleCache() }
        return links
    }

    private func compute(_ commit: ObjectID, parent index: Int) throws {
        guard var entry = cache.entries[commit] else { throw StaleCache() }
        let parent = entry.parents[index]
        let blob = try self.blob(of: commit), parentBlob = parent == Self.noParent ? nil : try self.blob(of: parent)
        let links: ItemLinks
        if blob == parentBlob && parent != Self.noParent {
            links = .identical
        } else {
            let parentBytes = try content(parentBlob), bytes = try content(blob)
            guard let items = try backend.items(of: bytes, previous: parentBytes) else { throw ItemError.unsupported(editor: backend.editorID) }
            listed += 1
            let parentItems: [EditorItem]
            if let last = lastListed, last.blob == parentBlob {
                parentItems = last.items
            } else {
                guard let listedItems = try backend.items(of: parentBytes, previous: nil) else { throw ItemError.unsupported(editor: backend.editorID) }
                listed += 1
                parentItems = listedItems
            }
            links = try ItemLinks.make(items, parent: parentItems, editor: backend.editorID)
            lastListed = (blob, items)
        }
        entry.links[index] = links
        cache.entries[commit] = entry
        cache.changed = true
    }

    /// The blob of the primary file in `commit`, nil when that version has no such file.
    private func blob(of commit: ObjectID) throws -> ObjectID? {
        let tree: ObjectID
        if let known = trees[commit] { tree = known } else {
            tree = try document.repository.commit(commit).tree
            trees[commit] = tree
        }
        guard let entry = try document.repository.entry(atPath: path, inTree: tree), entry.kind == .blob else { return nil }
        return entry.id
    }

    /// The bytes of a blob (empty for none); the last one read is kept, as a pass reads each version's as the next
    /// one's parent.
    private func content(_ blob: ObjectID?) throws -> Data {
        guard let blob else { return Data() }
        if let last = lastContent, last.blob == blob { return last.data }
        let data = try document.repository.readBlob(blob)
        lastContent = (blob, data)
        return data
    }
}
