import FolioPluginKit

/// Items are matched by title (the k-th "Milk" in one version with the k-th "Milk" in the other).
struct ItemKey: Hashable {
    let title: String
    let occurrence: Int

    static func keys(_ items: [Checklist.Item]) -> [ItemKey] {
        var seen: [String: Int] = [:]
        return items.map { item in
            let occurrence = seen[item.title, default: 0]
            seen[item.title] = occurrence + 1
            return ItemKey(title: item.title, occurrence: occurrence)
        }
    }
}

/// Describes the change between two checklists item by item.
enum ChecklistDiff {
    static func describe(from old: Checklist, to new: Checklist) -> [String] {
        var lines: [String] = []
        if old.title != new.title { lines.append("renamed the list from '\(old.title)' to '\(new.title)'") }
        let oldKeys = ItemKey.keys(old.items)
        let newKeys = ItemKey.keys(new.items)
        var newIndex: [ItemKey: Int] = [:]
        for (index, key) in newKeys.enumerated() { newIndex[key] = index }
        var oldToNew = [Int?](repeating: nil, count: oldKeys.count)
        var newMatched = [Bool](repeating: false, count: newKeys.count)
        for (index, key) in oldKeys.enumerated() {
            if let j = newIndex[key] { oldToNew[index] = j; newMatched[j] = true }
        }
        // Items that kept their relative order form the longest increasing run of new positions; the rest moved.
        let common = oldToNew.compactMap { $0 }
        // On a tie, keep earlier items in place (reverse and negate so the search favours them).
        let stay = Set(ItemMatcher.longestIncreasingSubsequence(common.reversed().map { -$0 }).map { -$0 })

        // Unmatched items in the same slot (after the same matched item) are renames.
        var removedBySlot: [Int: [Int]] = [:]
        var anchor = -1
        for (index, match) in oldToNew.enumerated() {
            if let match { if stay.contains(match) { anchor = match } } else { removedBySlot[anchor, default: []].append(index) }
        }
        var renamedFrom: [Int: Int] = [:]  // new index → old index
        var added = [Bool](repeating: false, count: newKeys.count)
        anchor = -1
        var slotUse: [Int: Int] = [:]
        for index in newKeys.indices {
            if newMatched[index] {
                // Items that kept their order anchor the slots (by their new index).
                if stay.contains(index) { anchor = index }
                continue
            }
            let use = slotUse[anchor, default: 0]
            if let candidates = removedBySlot[anchor], use < candidates.count {
                renamedFrom[index] = candidates[use]
                slotUse[anchor] = use + 1
            } else {
                added[index] = true
            }
        }
        var consumed = Set(renamedFrom.values)

        for (index, match) in oldToNew.enumerated() where match == nil && !consumed.contains(index) {
            lines.append("deleted '\(old.items[index].title)'")
            consumed.insert(index)
        }
        for index in new.items.indices {
            let item = new.items[index]
            if let from = renamedFrom[index] {
                lines.append("renamed '\(old.items[from].title)' to '\(item.title)'")
                if old.items[from].checked != item.checked { lines.append("\(item.checked ? "checked" : "unchecked") '\(item.title)'") }
            } else if added[index] {
                lines.append("added '\(item.title)'" + (item.checked ? " (checked)" : "") + (index == new.items.count - 1 ? "" : " at \(index + 1)"))
            }
        }
        var newToOld = [Int?](repeating: nil, count: newKeys.count)
        for (oldPosition, match) in oldToNew.enumerated() { if let match { newToOld[match] = oldPosition } }
        for (match, oldPosition) in newToOld.enumerated() {
            guard let oldPosition else { continue }
            let item = new.items[match]
            if !stay.contains(match) { lines.append("moved '\(item.title)' to \(match + 1)") }
            if old.items[oldPosition].checked != item.checked { lines.append("\(item.checked ? "checked" : "unchecked") '\(item.title)'") }
        }
        return lines
    }
}
