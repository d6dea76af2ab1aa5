import FolioPluginKit

/// Describes the change between two checklists item by item, items matched by id (`ChecklistMatch`): a changed title
/// is a rename, a changed checked state a check, and the items outside the longest run that kept their order moved.
enum ChecklistDiff {
    static func describe(from old: Checklist, to new: Checklist) -> [String] {
        var lines: [String] = []
        if old.title != new.title { lines.append("renamed the list from '\(old.title)' to '\(new.title)'") }
        let newToOld = ChecklistMatch.match(old: old, new: new)
        let kept = Set(newToOld.compactMap { $0 })
        for (index, item) in old.items.enumerated() where !kept.contains(index) { lines.append("deleted '\(item.title)'") }
        // Items that kept their relative order form the longest increasing run of new positions taken in old order;
        // on a tie the earlier items stay (reverse and negate so the search favours them).
        var oldToNew = [Int?](repeating: nil, count: old.items.count)
        for (index, from) in newToOld.enumerated() { if let from { oldToNew[from] = index } }
        let stay = Set(ItemMatcher.longestIncreasingSubsequence(oldToNew.compactMap { $0 }.reversed().map { -$0 }).map { -$0 })
        // Renames and additions first, then moves and checks, each in the new order.
        for (index, item) in new.items.enumerated() {
            guard let from = newToOld[index] else {
                lines.append("added '\(item.title)'" + (item.checked ? " (checked)" : "") + (index == new.items.count - 1 ? "" : " at \(index + 1)"))
                continue
            }
            let was = old.items[from]
            guard was.title != item.title else { continue }
            lines.append("renamed '\(was.title)' to '\(item.title)'")
            if was.checked != item.checked { lines.append("\(item.checked ? "checked" : "unchecked") '\(item.title)'") }
        }
        for (index, item) in new.items.enumerated() {
            guard let from = newToOld[index] else { continue }
            let was = old.items[from]
            if !stay.contains(index) { lines.append("moved '\(item.title)' to \(index + 1)") }
            if was.checked != item.checked, was.title == item.title { lines.append("\(item.checked ? "checked" : "unchecked") '\(item.title)'") }
            if was.extra != item.extra { lines.append("changed other fields of '\(item.title)'") }
        }
        if old.extra != new.extra { lines.append("changed other fields of the list") }
        return lines
    }
}
