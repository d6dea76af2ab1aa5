import FolioPluginKit

/// The checklist's items (`folio.items/1`): each item is numbered as the view shows it, matched between versions by
/// id as the semantic diff matches them (`ChecklistMatch`), and taken back whole (title, checked state and the fields
/// a newer plugin wrote), keeping the id it has in the version it goes into.
extension ChecklistEditor {
    func items(of list: Checklist) throws -> [ItemInfo] {
        list.items.enumerated().map { index, item in
            let mark = item.checked ? "x" : " "
            return ItemInfo(key: String(index + 1), fingerprint: ItemInfo.fingerprint([mark, item.title] + item.extra.map { $0.key + ":" + $0.value }), summary: "[\(mark)] \(item.title)")
        }
    }

    func matchItems(from old: Checklist, to new: Checklist) throws -> [Int?] {
        ChecklistMatch.match(old: old, new: new)
    }

    /// An item still in `into` is replaced where it is; one gone comes back just below the nearest item above it in
    /// `from` that `into` still has (by id), so it keeps its place among its neighbours however many others either
    /// version lost (first when nothing was above it; at its old number, or the end, when none of those is left).
    func takeItems(_ takes: [ItemTake], from: Checklist, into: Checklist) throws -> (Checklist, String) {
        var list = into
        var lines: [String] = []
        for take in takes {
            guard let target = take.into else { continue }
            lines.append("put back '\(from.items[take.from].title)' as it was")
            let id = list.items[target].id
            list.items[target] = from.items[take.from]
            list.items[target].id = id
        }
        for take in takes.filter({ $0.into == nil }).sorted(by: { $0.from < $1.from }) {
            let position = Self.putBackPosition(take.from, from: from, into: list)
            var item = from.items[take.from]
            item.id = list.unusedID(item.id)
            list.items.insert(item, at: position)
            lines.append("brought back '\(from.items[take.from].title)' at \(position + 1)")
        }
        return (list, lines.isEmpty ? "took no items" : lines.count == 1 ? lines[0] : "took back \(lines.count) items (\(lines.joined(separator: "; ")))")
    }

    private static func putBackPosition(_ at: Int, from: Checklist, into: Checklist) -> Int {
        for above in stride(from: at - 1, through: 0, by: -1) {
            let id = from.items[above].id
            if let index = into.items.firstIndex(where: { $0.id == id }) { return index + 1 }
        }
        return at == 0 ? 0 : min(at, into.items.count)
    }
}
