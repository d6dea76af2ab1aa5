import FolioAlgorithms
import FoundationEssentials
import Glibc
import FolioCore

/// How the items of one version relate to those of one of its parents, kept small: items unchanged and in place are
/// runs of consecutive indices (`runs`); only items new, changed or moved have a note with their keys and summaries.
/// Made from the editor's `folio.items/1` lists (`ItemLinks.make`) and kept in `ItemHistoryCache`.
struct ItemLinks: Equatable, Sendable {
    /// Items `start..<start+length` are items `previous..<previous+length` of the parent, unchanged and not moved.
    struct Run: Equatable, Sendable {
        var start: Int
        var previous: Int
        var length: Int
    }
    /// An item new, changed or moved in this version.
    struct Note: Equatable, Sendable {
        var index: Int
        /// Its index in the parent, nil when it is new.
        var previous: Int?
        var changed: Bool
        var moved: Bool
        var key: String
        var previousKey: String?
        var summary: String
        var previousSummary: String?
    }

    /// The version's primary file is the parent's (same blob): every item is itself.
    var same = false
    var count = 0
    var runs: [Run] = []
    /// Sorted by index.
    var notes: [Note] = []

    static let identical = ItemLinks(same: true)

    /// What one item is in the parent: its index there (nil: new) and its note when it changed or moved.
    /// Nil when `index` is not an item of this version.
    func link(_ index: Int) -> (previous: Int?, note: Note?)? {
        if same { return (index, nil) }
        guard index >= 0, index < count else { return nil }
        if let found = Self.search(notes, index, \.index) { return (found.previous, found) }
        if let run = Self.search(runs, index, { $0.start }, length: \.length) { return (run.previous + index - run.start, nil) }
        return nil
    }

    private static func search<T>(_ list: [T], _ index: Int, _ start: KeyPath<T, Int>) -> T? {
        search(list, index, { $0[keyPath: start] }, length: nil)
    }

    /// The element whose range (start, and `length` or 1) holds `index`, by binary search over a sorted list.
    private static func search<T>(_ list: [T], _ index: Int, _ start: (T) -> Int, length: KeyPath<T, Int>?) -> T? {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            let first = start(list[mid]), size = length.map { list[mid][keyPath: $0] } ?? 1
            if index < first { high = mid } else if index >= first + size { low = mid + 1 } else { return list[mid] }
        }
        return nil
    }

    /// The links of `items` (listed against the parent) to `parentItems`; throws when the editor matched an item to a
    /// key the parent does not have.
    static func make(_ items: [EditorItem], parent parentItems: [EditorItem], editor: String) throws -> ItemLinks {
        var parentIndex: [String: Int] = [:]
        parentIndex.reserveCapacity(parentItems.count)
        for (index, item) in parentItems.enumerated() { parentIndex[item.key] = index }
        let previous: [Int?] = try items.map { item in
            guard let key = item.previous else { return nil }
            guard let index = parentIndex[key] else {
                throw EditorOperationError(editor: editor, operation: "list items", kind: .internal,
                                           message: "item '\(item.key)' is matched with '\(key)', which the earlier version does not have")
            }
            return index
        }
        // Items that kept their relative order are the longest increasing run of parent indices; the others moved.
        let stay = Set(longestIncreasingSubsequence(previous.compactMap { $0 }))
        var links = ItemLinks(count: items.count)
        for (index, item) in items.enumerated() {
            let before = previous[index].map { parentItems[$0] }
            let moved = previous[index].map { !stay.contains($0) } ?? false
            let changed = before.map { $0.fingerprint != item.fingerprint } ?? false
            if let p = previous[index], !moved, !changed {
                if let last = links.runs.last, last.start + last.length == index, last.previous + last.length == p {
                    links.runs[links.runs.count - 1].length += 1
                } else {
                    links.runs.append(Run(start: index, previous: p, length: 1))
                }
                continue
            }
            links.notes.append(Note(index: index, previous: previous[index], changed: changed, moved: moved, key: item.key, previousKey: before?.key,
                                    summary: item.summary, previousSummary: before?.summary))
        }
        return links
    }

    /// The values of the longest strictly increasing subsequence; ties keep the earliest.
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
        IncreasingRun.positions(values).map { values[$0] }
    }
}
