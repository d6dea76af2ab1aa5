import FolioAlgorithms
import FoundationEssentials
import Glibc
import FolioCore

/// How each item changed between two versions according to the editor's own item list (`folio.items/1`: identity and
/// a content fingerprint per item), which is exact where matching drawn rows by their text can only guess.
package struct ItemMarks: Equatable, Sendable {
    /// By the item's key in the new version: added, changed or moved (absent: unchanged).
    package var new: [String: RowChange] = [:]
    /// The keys of old items the new version no longer has.
    package var removed: Set<String> = []

    package init(new: [String: RowChange] = [:], removed: Set<String> = []) {
        self.new = new
        self.removed = removed
    }

    /// Marks from the two lists: an item with no earlier match is added, one whose fingerprint differs is changed, one
    /// that left the longest run of items keeping their order is moved; old items nothing matches are removed.
    package static func make(old: [(key: String, fingerprint: String)], new: [(key: String, previous: String?, fingerprint: String)]) -> ItemMarks {
        var position: [String: Int] = [:]
        for (index, item) in old.enumerated() { position[item.key] = index }
        let matched = new.filter { $0.previous.flatMap { position[$0] } != nil }
        let kept = Set(IncreasingRun.positions(matched.compactMap { $0.previous.flatMap { position[$0] } }).map { matched[$0].key })
        var marks = ItemMarks()
        var used: Set<String> = []
        for item in new {
            guard let previous = item.previous, let index = position[previous] else { marks.new[item.key] = .added; continue }
            used.insert(previous)
            if old[index].fingerprint != item.fingerprint { marks.new[item.key] = .changed } else if !kept.contains(item.key) { marks.new[item.key] = .moved }
        }
        marks.removed = Set(old.map(\.key)).subtracting(used)
        return marks
    }

    /// Puts the marks on rows aligned by text: a row whose new side is an item takes that item's mark (an unchanged
    /// item clears a mark only where both sides show the same text); a row only in the old version takes `removed`
    /// when its item is gone. Rows that are no items (headings, blank lines) keep theirs.
    func apply(to rows: inout [AlignedRow], old: [String], new: [String]) {
        for index in rows.indices {
            let row = rows[index]
            if let n = row.new, let key = Self.key(new[n]) {
                if let mark = self.new[key] { rows[index].change = mark } else if let o = row.old, old[o] == new[n] { rows[index].change = nil }
            } else if row.new == nil, let o = row.old, let key = Self.key(old[o]), removed.contains(key) {
                rows[index].change = .removed
            }
        }
    }

    /// A drawn row's item key ("3", "1.2"), nil for a row that is no item.
    static func key(_ line: String) -> String? {
        ViewLines.itemPath(line).map { $0.map(String.init).joined(separator: ".") }
    }
}
