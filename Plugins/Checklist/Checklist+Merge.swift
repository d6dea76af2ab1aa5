import FolioPluginKit

/// Three-way merge of checklists, item by item (items matched by title).
enum ChecklistMerge {
    static func merge(base: Checklist, ours: Checklist, theirs: Checklist) -> MergeOutcome<Checklist> {
        var conflicts: [String] = []
        var title = ours.title
        if ours.title == base.title { title = theirs.title }
        else if theirs.title != base.title && theirs.title != ours.title {
            conflicts.append("title: ours '\(ours.title)', theirs '\(theirs.title)'")
        }

        let baseKeys = ItemKey.keys(base.items), ourKeys = ItemKey.keys(ours.items), theirKeys = ItemKey.keys(theirs.items)
        func table(_ keys: [ItemKey], _ items: [Checklist.Item]) -> [ItemKey: Checklist.Item] {
            var result: [ItemKey: Checklist.Item] = [:]
            for (key, item) in zip(keys, items) { result[key] = item }
            return result
        }
        let baseItems = table(baseKeys, base.items), ourItems = table(ourKeys, ours.items), theirItems = table(theirKeys, theirs.items)
        conflicts += renameConflicts(baseKeys, ourKeys, theirKeys)

        // Which items survive, and with which checked state.
        var merged: [ItemKey: Checklist.Item] = [:]
        for key in Set(baseKeys).union(ourKeys).union(theirKeys) {
            let b = baseItems[key], o = ourItems[key], t = theirItems[key]
            switch (b, o, t) {
            case let (b?, o?, t?):
                merged[key] = Checklist.Item(title: key.title, checked: o.checked != b.checked ? o.checked : t.checked)
            case let (b?, nil, t?):
                if t.checked != b.checked { conflicts.append("'\(key.title)': deleted by us, \(t.checked ? "checked" : "unchecked") by them") }
            case let (b?, o?, nil):
                if o.checked != b.checked { conflicts.append("'\(key.title)': \(o.checked ? "checked" : "unchecked") by us, deleted by them") }
            case (_?, nil, nil):
                break
            case let (nil, o?, t?):
                if o.checked != t.checked { conflicts.append("'\(key.title)': added by both, checked by only one") }
                merged[key] = o
            case let (nil, o?, nil): merged[key] = o
            case let (nil, nil, t?): merged[key] = t
            case (nil, nil, nil): break
            }
        }
        if !conflicts.isEmpty { return .conflicts(conflicts) }

        // Order: the side that reordered common items wins; the other side's additions follow their predecessor.
        let common = Set(baseKeys).intersection(ourKeys).intersection(theirKeys)
        let baseOrder = baseKeys.filter(common.contains)
        let ourOrder = ourKeys.filter(common.contains)
        let theirOrder = theirKeys.filter(common.contains)
        var skeleton: [ItemKey]
        var other: [ItemKey]
        if ourOrder == baseOrder {
            skeleton = theirKeys; other = ourKeys
        } else if theirOrder == baseOrder || theirOrder == ourOrder {
            skeleton = ourKeys; other = theirKeys
        } else {
            return .conflicts(["order: both sides moved items differently"])
        }
        var order = skeleton.filter { merged[$0] != nil }
        var placed = Set(order)
        for (index, key) in other.enumerated() where merged[key] != nil && !placed.contains(key) {
            // Insert after the nearest earlier item of `other` that is already placed.
            var position = 0
            var look = index - 1
            while look >= 0 {
                if let at = order.firstIndex(of: other[look]) { position = at + 1; break }
                look -= 1
            }
            order.insert(key, at: position)
            placed.insert(key)
        }
        return .merged(Checklist(title: title, items: order.compactMap { merged[$0] }))
    }

    /// A side that replaced exactly one item by one new item in its place renamed it (items are matched by title):
    /// the other side deleting or renaming that item otherwise conflicts with it.
    static func renameConflicts(_ base: [ItemKey], _ ours: [ItemKey], _ theirs: [ItemKey]) -> [String] {
        func rename(_ side: [ItemKey]) -> (old: ItemKey, new: ItemKey)? {
            let removed = base.filter { !side.contains($0) }, added = side.filter { !base.contains($0) }
            guard removed.count == 1, added.count == 1, base.firstIndex(of: removed[0]) == side.firstIndex(of: added[0]) else { return nil }
            return (removed[0], added[0])
        }
        var conflicts: [String] = []
        if let ourRename = rename(ours), !theirs.contains(ourRename.old), !theirs.contains(ourRename.new) {
            let their = rename(theirs).flatMap { $0.old == ourRename.old ? "renamed to '\($0.new.title)'" : nil } ?? "deleted"
            conflicts.append("'\(ourRename.old.title)': renamed to '\(ourRename.new.title)' by us, \(their) by them")
        } else if let theirRename = rename(theirs), !ours.contains(theirRename.old), !ours.contains(theirRename.new) {
            conflicts.append("'\(theirRename.old.title)': deleted by us, renamed to '\(theirRename.new.title)' by them")
        }
        return conflicts
    }
}
