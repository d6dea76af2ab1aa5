import Foundation
import FolioCore
import XCTest

/// The reference model of a checklist merge for the replica test (`ChecklistReplicaModelTests`): items by id, each
/// with its fields as JSON text, merged the way issue 32 says a merge must mean what both people did, written apart
/// from the plugin's own merge (which it checks).
struct ModelList: Equatable {
    struct Item: Equatable {
        var id: String
        var fields: [String: String]  // "title", "checked" as JSON text
    }
    var items: [Item]

    var ids: [String] { items.map(\.id) }

    subscript(id: String) -> Item? { items.first { $0.id == id } }

    /// The list in `bytes` (a checklist as Folio writes it); nil when it is not one, or an item has no id.
    init?(_ bytes: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else { return nil }
        var items: [Item] = []
        for case let entry as [String: Any] in object["items"] as? [Any] ?? [] {
            guard let id = entry["id"] as? String, let title = entry["title"] as? String else { return nil }
            let checked = (entry["checked"] as? Bool) ?? false
            items.append(Item(id: id, fields: ["title": title, "checked": checked ? "true" : "false"]))
        }
        self.items = items
    }

    /// What a merge of `ours` and `theirs` from `base` must give, item by item.
    struct Expectation {
        /// The ids the merge must hold, with the fields each must have.
        var survivors: [String: [String: String]] = [:]
        /// Items the two sides changed incompatibly (a field changed differently, or deleted against changed).
        var conflicting: Set<String> = []
    }

    static func expect(base: ModelList, ours: ModelList, theirs: ModelList) -> Expectation {
        var out = Expectation()
        for id in Set(base.ids).union(ours.ids).union(theirs.ids) {
            let b = base[id], o = ours[id], t = theirs[id]
            switch (b, o, t) {
            case let (b?, o?, t?):
                var fields: [String: String] = [:]
                for name in Set(b.fields.keys).union(o.fields.keys).union(t.fields.keys) {
                    let bv = b.fields[name], ov = o.fields[name], tv = t.fields[name]
                    if ov == tv || tv == bv { fields[name] = ov } else if ov == bv { fields[name] = tv } else { out.conflicting.insert(id) }
                }
                out.survivors[id] = fields
            case let (b?, nil, t?):
                if t.fields != b.fields { out.conflicting.insert(id) }
            case let (b?, o?, nil):
                if o.fields != b.fields { out.conflicting.insert(id) }
            case let (nil, o?, _): out.survivors[id] = o.fields
            case let (nil, nil, t?): out.survivors[id] = t.fields
            case (_?, nil, nil), (nil, nil, nil): break
            }
        }
        return out
    }

    /// Why `result` is not a faithful merge (nil when it is): the items and fields the reference expects, the order of
    /// items all three versions kept in one order, and each run of items one side added together kept together.
    static func problem(result: ModelList, base: ModelList, ours: ModelList, theirs: ModelList) -> String? {
        let expected = expect(base: base, ours: ours, theirs: theirs)
        if Set(result.ids).count != result.ids.count { return "an id is there twice: \(result.ids)" }
        if Set(result.ids) != Set(expected.survivors.keys) {
            return "holds \(Set(result.ids).subtracting(expected.survivors.keys)) it should not, lacks \(Set(expected.survivors.keys).subtracting(result.ids))"
        }
        for item in result.items where item.fields != expected.survivors[item.id] {
            return "item \(item.id) has \(item.fields), expected \(expected.survivors[item.id] ?? [:])"
        }
        let position = Dictionary(uniqueKeysWithValues: result.ids.enumerated().map { ($1, $0) })
        let common = base.ids.filter { position[$0] != nil && ours[$0] != nil && theirs[$0] != nil }
        // Items neither side moved (each keeps its order against every other common item on both sides) keep it.
        let unmoved = common.filter { keptOrder($0, among: common, base: base, side: ours) && keptOrder($0, among: common, base: base, side: theirs) }
        for (i, a) in unmoved.enumerated() {
            for b in unmoved[(i + 1)...] where position[a, default: 0] > position[b, default: 0] {
                return "\(a) and \(b), which neither side moved, changed their order"
            }
        }
        for side in [ours, theirs] {
            for run in runs(side, new: Set(side.ids).subtracting(base.ids)) where run.count > 1 {
                let places = run.compactMap { position[$0] }
                if places.count == run.count, places != Array(places[0]..<places[0] + places.count) { return "the run \(run) was split" }
            }
        }
        return nil
    }

    /// Whether `id` is before and after the same items of `common` on `side` as in `base`.
    private static func keptOrder(_ id: String, among common: [String], base: ModelList, side: ModelList) -> Bool {
        func before(_ list: ModelList) -> Set<String> {
            let ids = list.ids.filter(Set(common).contains)
            return Set(ids.prefix { $0 != id })
        }
        return before(base) == before(side)
    }

    /// The maximal runs of consecutive ids of `side` that are in `new`.
    private static func runs(_ side: ModelList, new: Set<String>) -> [[String]] {
        var out: [[String]] = [], current: [String] = []
        for id in side.ids {
            if new.contains(id) { current.append(id) } else if !current.isEmpty { out.append(current); current = [] }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}

extension SeededRandom {
    /// A number in 0..<`bound` (`bound` > 0).
    mutating func int(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
