import FolioCore

/// One list of a document as the replica model sees it (a checklist's items, a drawing's shapes, a story's acts or its
/// scenes): items by id in the document's order, each with its fields as text, merged the way issue 32 says a merge
/// must mean what both people did. Written apart from the plugins' own merges, which it checks.
package struct ModelList: Equatable, Sendable {
    package struct Item: Equatable, Sendable {
        package var id: String
        /// Each field's value as text (the model compares them only for equality).
        package var fields: [String: String]
        /// What keeps runs together: items one side added in a row are a run only within one group (a story's scenes
        /// within their act); nil for one group.
        package var group: String?

        package init(id: String, fields: [String: String], group: String? = nil) {
            self.id = id
            self.fields = fields
            self.group = group
        }
    }
    package var items: [Item]

    package init(items: [Item]) { self.items = items }

    package var ids: [String] { items.map(\.id) }

    package subscript(id: String) -> Item? { items.first { $0.id == id } }

    /// What a merge of `ours` and `theirs` from `base` must give, item by item.
    package struct Expectation: Sendable {
        /// The ids the merge must hold, with the fields each must have.
        package var survivors: [String: [String: String]] = [:]
        /// Items the two sides changed incompatibly (a field changed differently, or deleted against changed).
        package var conflicting: Set<String> = []
    }

    package static func expect(base: ModelList, ours: ModelList, theirs: ModelList) -> Expectation {
        var out = Expectation()
        for id in Set(base.ids).union(ours.ids).union(theirs.ids) {
            switch (base[id], ours[id], theirs[id]) {
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
            case let (nil, o?, t?):
                // Added on both sides (it reached each by another way than their merge base): alike, or a conflict.
                if o.fields != t.fields { out.conflicting.insert(id) }
                out.survivors[id] = o.fields
            case let (nil, o?, nil): out.survivors[id] = o.fields
            case let (nil, nil, t?): out.survivors[id] = t.fields
            case (_?, nil, nil), (nil, nil, nil): break
            }
        }
        return out
    }

    /// Why `result` is not a faithful merge (nil when it is): the items and fields the reference expects, the order of
    /// items all three versions kept in one order, and each run of items one side added together kept together.
    package static func problem(result: ModelList, base: ModelList, ours: ModelList, theirs: ModelList) -> String? {
        let expected = expect(base: base, ours: ours, theirs: theirs)
        if Set(result.ids).count != result.ids.count { return "an id is there twice: \(result.ids)" }
        if Set(result.ids) != Set(expected.survivors.keys) {
            return "holds \(Set(result.ids).subtracting(expected.survivors.keys).sorted()) it should not, lacks \(Set(expected.survivors.keys).subtracting(result.ids).sorted())"
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
        let shared = Set(common)
        func before(_ list: ModelList) -> Set<String> { Set(list.ids.filter(shared.contains).prefix { $0 != id }) }
        return before(base) == before(side)
    }

    /// The maximal runs of consecutive items of `side` that are in `new` and in one group.
    private static func runs(_ side: ModelList, new: Set<String>) -> [[String]] {
        var out: [[String]] = [], current: [String] = [], group: String?
        func flush() {
            if !current.isEmpty { out.append(current) }
            current = []
        }
        for item in side.items {
            guard new.contains(item.id) else { flush(); continue }
            if !current.isEmpty, group != item.group { flush() }
            current.append(item.id)
            group = item.group
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}

/// A document version as the model sees it: its lists by name (a story has "acts" and "scenes").
package struct ModelDocument: Equatable, Sendable {
    package var lists: [String: ModelList]

    package init(lists: [String: ModelList]) { self.lists = lists }

    package subscript(list: String) -> ModelList { lists[list] ?? ModelList(items: []) }

    /// Every id in every list.
    package var allIDs: Set<String> { Set(lists.values.flatMap(\.ids)) }
}

extension SeededRandom {
    /// A number in 0..<`bound` (`bound` > 0).
    package mutating func int(below bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    /// One of `choices` (not empty).
    package mutating func pick<T>(_ choices: [T]) -> T { choices[int(below: choices.count)] }
}
