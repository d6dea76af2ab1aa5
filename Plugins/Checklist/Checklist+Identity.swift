import FolioPluginKit

/// Item identity in a checklist: every item has an id (`"id"` in the JSON). A document written before ids existed,
/// or an item whose id is missing, invalid or taken by an earlier item, gets one derived from its title and its
/// occurrence among items of that title (`ItemIdentity.assign`), so every machine reading that version gets the same
/// ids and two clones that migrate independently still agree.
extension Checklist {
    /// The list with an id on every item: each item's own when valid and unique, else a derived one.
    var identified: Checklist {
        let ids = ItemIdentity.assign(items.map { $0.idStored ? $0.id : nil }, fields: items.map { [$0.title] })
        var list = self
        for index in list.items.indices {
            list.items[index].idStored = list.items[index].idStored && list.items[index].id == ids[index]
            list.items[index].id = ids[index]
        }
        return list
    }

    /// Whether every item's id was read from the document.
    var idsAllStored: Bool { items.allSatisfy(\.idStored) }
    /// Whether no item's id was read from the document (a list written before ids, or an empty one).
    var idsNoneStored: Bool { !items.contains(where: \.idStored) }

    /// An id no item of the list has: `id` when free, else one derived from it (the same on every machine).
    func unusedID(_ id: String) -> String {
        ItemIdentity.unused(id, among: Set(items.map(\.id)), salt: "copy")
    }
}

/// Which item of one version is which item of another.
enum ChecklistMatch {
    /// For each item of `new`, the index of the same item in `old`, or nil when it is new: by id, and for items whose
    /// id one of the two versions did not store (written before ids), by today's guess (title and occurrence, then a
    /// rename in the same slot, `ItemMatcher`).
    static func match(old: Checklist, new: Checklist) -> [Int?] {
        let guess = { ItemMatcher.match(old: old.items.map(\.title), new: new.items.map(\.title)) }
        if old.idsNoneStored && new.idsNoneStored && (!old.items.isEmpty || !new.items.isEmpty) { return guess() }
        var oldIndex: [String: Int] = [:]
        for (index, item) in old.items.enumerated() where oldIndex[item.id] == nil { oldIndex[item.id] = index }
        var result = new.items.map { oldIndex[$0.id] }
        if old.idsAllStored && new.idsAllStored { return result }
        var used = Set(result.compactMap { $0 })
        for (index, candidate) in guess().enumerated() where result[index] == nil {
            if let candidate, used.insert(candidate).inserted { result[index] = candidate }
        }
        return result
    }

    /// `side` with the ids of `base`'s items on those of its items whose ids it did not store, matched by today's
    /// guess, so that a version written by a Folio before ids merges by id with one written after. Only base ids the
    /// side does not hold already are given out; the other loose items keep their derived ids, made unique.
    static func relabeled(_ side: Checklist, from base: Checklist) -> Checklist {
        guard !side.idsAllStored else { return side }
        var list = side
        var held = Set(side.items.filter(\.idStored).map(\.id))
        let guess = ItemMatcher.match(old: base.items.map(\.title), new: side.items.map(\.title))
        for index in list.items.indices where !list.items[index].idStored {
            if let b = guess[index], !held.contains(base.items[b].id) {
                list.items[index].id = base.items[b].id
            } else {
                list.items[index].id = ItemIdentity.unused(list.items[index].id, among: held, salt: "relabel")
            }
            held.insert(list.items[index].id)
        }
        return list
    }
}
