/// One element of an ordered list with an identity, for `IdentifiedList.merge`: its id and its fields, each as the
/// JSON text of its value (known and unknown fields alike: a field is compared by its text, never interpreted).
public struct IdentifiedRecord: Sendable, Equatable {
    /// The element's id (`ItemIdentity`).
    public var id: String
    /// The fields in the order the element writes them; a name appears once.
    public var fields: [PluginJSON.RawMember]

    /// Creates a record.
    public init(id: String, fields: [PluginJSON.RawMember]) {
        self.id = id
        self.fields = fields
    }

    /// The JSON text of field `name`, nil when the element has none.
    public subscript(name: String) -> String? {
        fields.first { $0.key == name }?.value
    }
}

/// Three-way merge of ordered lists of identified elements (`IdentifiedRecord`): what both people did, item by item.
///
/// - A field changed on one side and not on the other survives; the same field changed differently on both sides is a
///   conflict, whatever else changed. Fields are compared as JSON text, so fields an editor does not know survive.
/// - An element deleted on one side and changed on the other is a conflict; deleted on one side and left alone (or
///   only moved) on the other, it is gone.
/// - Order: elements neither side moved keep their order; an element one side moved, or added, goes after the element
///   that precedes it on that side (among those the other side did not move), so a run one side inserted stays
///   together. Two runs at one place are ordered by their first id, so either side merging gives the same list. An
///   element both sides moved to different places goes where one of them put it (the same either way round): a place
///   is not a field, and a conflict over it could not be settled item by item.
/// - The result is checked against base, ours and theirs before it is answered (`check`); a result that fails the
///   check is answered as a conflict, never as a merge.
public enum IdentifiedList {
    /// One reason a merge cannot be made.
    public enum Conflict: Sendable, Equatable, CustomStringConvertible {
        /// Both sides changed `field` of the element, differently (nil: removed).
        case field(element: String, field: String, ours: String?, theirs: String?)
        /// One side deleted the element, the other changed it.
        case deletedAndChanged(element: String, deletedByUs: Bool)
        /// Both sides moved the element, to different places.
        case moved(element: String)
        /// A side lists two elements with one id.
        case repeatedID(id: String)
        /// The merge failed its own check (`check`); nothing is merged.
        case failedCheck(String)
        /// A line the editor worded itself (`merge`'s `describe`).
        case described(String)

        /// One line: "'Milk': title changed to "Oat milk" by us and to "Soy milk" by them".
        public var description: String {
            switch self {
            case let .field(element, field, ours, theirs):
                return "\(element): \(field) \(Self.change(ours)) by us and \(Self.change(theirs)) by them"
            case let .deletedAndChanged(element, deletedByUs):
                return deletedByUs ? "\(element): deleted by us, changed by them" : "\(element): changed by us, deleted by them"
            case let .moved(element):
                return "\(element): moved to different places by us and by them"
            case let .repeatedID(id):
                return "two items share the id '\(id)'"
            case let .failedCheck(why):
                return "the merge failed its check (\(why)); nothing was merged"
            case let .described(line):
                return line
            }
        }

        private static func change(_ value: String?) -> String {
            guard let value else { return "removed" }
            let shown = value.count > 60 ? String(value.prefix(57)) + "…" : value
            return "changed to \(shown)"
        }
    }

    /// What one side did to an element, in the editor's words ("renamed to 'Oat milk'", "checked"): from its fields in
    /// the base (nil: the element is new) to its fields on that side. For a clash over one field, both hold only it.
    public typealias ChangeWording = (_ base: [PluginJSON.RawMember]?, _ side: [PluginJSON.RawMember]) -> String

    /// Merges `ours` and `theirs`, two descendants of `base`. `label` names an element in a conflict line ("'Milk'");
    /// `describe`, when given, words what each side did ("'Milk': renamed to 'Oat milk' by us, deleted by them"),
    /// else the lines are generic ("'Milk': title changed to "Oat milk" by us and changed to "Soy milk" by them").
    public static func merge(base: [IdentifiedRecord], ours: [IdentifiedRecord], theirs: [IdentifiedRecord],
                             label: (IdentifiedRecord) -> String, describe: ChangeWording? = nil) -> MergeOutcome<[IdentifiedRecord]> {
        for side in [base, ours, theirs] {
            if let repeated = firstRepeatedID(side) { return .conflicts([Conflict.repeatedID(id: repeated).description]) }
        }
        let b = table(base), o = table(ours), t = table(theirs)
        var conflicts: [Conflict] = []
        var merged: [String: IdentifiedRecord] = [:]
        func clash(_ record: IdentifiedRecord, _ base: IdentifiedRecord?, _ found: [(name: String, ours: String?, theirs: String?)]) {
            for item in found {
                guard let describe else {
                    conflicts.append(.field(element: label(record), field: item.name, ours: item.ours, theirs: item.theirs))
                    continue
                }
                func only(_ value: String?) -> [PluginJSON.RawMember] { value.map { [PluginJSON.RawMember(key: item.name, value: $0)] } ?? [] }
                let was = base.map { _ in only(base?[item.name]) }
                conflicts.append(.described("\(label(record)): \(describe(was, only(item.ours))) by us, \(describe(was, only(item.theirs))) by them"))
            }
        }
        func deleted(_ record: IdentifiedRecord, _ base: IdentifiedRecord, byUs: Bool) {
            guard let describe else { return conflicts.append(.deletedAndChanged(element: label(record), deletedByUs: byUs)) }
            let change = describe(base.fields, record.fields)
            conflicts.append(.described("\(label(record)): " + (byUs ? "deleted by us, \(change) by them" : "\(change) by us, deleted by them")))
        }
        for id in orderedUnion(ours, theirs, base) {
            switch (b[id], o[id], t[id]) {
            case let (base?, ours?, theirs?):
                let (fields, clashes) = mergeFields(base: base.fields, ours: ours.fields, theirs: theirs.fields)
                clash(ours, base, clashes)
                merged[id] = IdentifiedRecord(id: id, fields: fields)
            case let (base?, nil, theirs?):
                if theirs.fields != base.fields { deleted(theirs, base, byUs: true) }
            case let (base?, ours?, nil):
                if ours.fields != base.fields { deleted(ours, base, byUs: false) }
            case let (nil, ours?, theirs?):
                let (fields, clashes) = mergeFields(base: nil, ours: ours.fields, theirs: theirs.fields)
                clash(ours, nil, clashes)
                merged[id] = IdentifiedRecord(id: id, fields: fields)
            case let (nil, ours?, nil): merged[id] = ours
            case let (nil, nil, theirs?): merged[id] = theirs
            case (_?, nil, nil), (nil, nil, nil): break
            }
        }
        let plan = ListOrder(base: base.map(\.id), ours: ours.map(\.id), theirs: theirs.map(\.id), survivors: Set(merged.keys))
        guard conflicts.isEmpty else { return .conflicts(conflicts.map(\.description)) }
        let result = plan.order().compactMap { merged[$0] }
        if let failure = check(result, base: base, ours: ours, theirs: theirs, stable: plan.stableOrder) {
            return .conflicts([Conflict.failedCheck(failure).description])
        }
        return .merged(result)
    }

    /// A field-by-field merge: one side's change survives; both sides' different changes are a clash. Fields keep
    /// ours' order, then theirs' new ones. `base` nil: both sides added the element.
    public static func mergeFields(base: [PluginJSON.RawMember]?, ours: [PluginJSON.RawMember], theirs: [PluginJSON.RawMember])
        -> (fields: [PluginJSON.RawMember], clashes: [(name: String, ours: String?, theirs: String?)]) {
        func value(_ fields: [PluginJSON.RawMember]?, _ name: String) -> String? { fields?.first { $0.key == name }?.value }
        var names = ours.map(\.key)
        for field in theirs where !names.contains(field.key) { names.append(field.key) }
        for field in base ?? [] where !names.contains(field.key) { names.append(field.key) }
        var fields: [PluginJSON.RawMember] = []
        var clashes: [(name: String, ours: String?, theirs: String?)] = []
        for name in names {
            let b = value(base, name), o = value(ours, name), t = value(theirs, name)
            let chosen: String?
            if o == t { chosen = o } else if o == b { chosen = t } else if t == b { chosen = o } else {
                clashes.append((name, o, t))
                chosen = o
            }
            if let chosen { fields.append(PluginJSON.RawMember(key: name, value: chosen)) }
        }
        return (fields, clashes)
    }

    /// Why `result` is not a faithful merge of `base`, `ours` and `theirs`, or nil when it is: ids are unique; it
    /// holds exactly the elements both sides kept and those either added; each field's text is ours' or theirs';
    /// elements neither side moved keep their base order.
    static func check(_ result: [IdentifiedRecord], base: [IdentifiedRecord], ours: [IdentifiedRecord], theirs: [IdentifiedRecord],
                      stable: [String]) -> String? {
        if let repeated = firstRepeatedID(result) { return "the id '\(repeated)' is there twice" }
        let b = Set(base.map(\.id)), o = table(ours), t = table(theirs)
        var expected = Set<String>()
        for id in Set(o.keys).union(t.keys) {
            let inOurs = o[id] != nil, inTheirs = t[id] != nil
            if (inOurs && inTheirs) || !b.contains(id) { expected.insert(id) }
        }
        let got = Set(result.map(\.id))
        if got != expected { return "it holds \(got.count) items where \(expected.count) were kept or added" }
        for record in result {
            for field in record.fields where o[record.id]?[field.key] != field.value && t[record.id]?[field.key] != field.value {
                return "a field of '\(record.id)' is neither side's"
            }
        }
        let position = Dictionary(uniqueKeysWithValues: result.enumerated().map { ($1.id, $0) })
        let placed = stable.compactMap { position[$0] }
        if placed != placed.sorted() { return "items neither side moved changed their order" }
        return nil
    }

    static func table(_ records: [IdentifiedRecord]) -> [String: IdentifiedRecord] {
        var out: [String: IdentifiedRecord] = [:]
        for record in records where out[record.id] == nil { out[record.id] = record }
        return out
    }

    static func firstRepeatedID(_ records: [IdentifiedRecord]) -> String? {
        var seen = Set<String>()
        return records.first { !seen.insert($0.id).inserted }?.id
    }

    private static func orderedUnion(_ lists: [IdentifiedRecord]...) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for list in lists { for record in list where seen.insert(record.id).inserted { out.append(record.id) } }
        return out
    }
}

/// Where each element of a merged list goes (`IdentifiedList.merge`): the elements neither side moved, in base order,
/// and after each of them the runs either side put there.
struct ListOrder {
    /// Survivors in base, ours and theirs that neither side moved, in base order.
    private(set) var stableOrder: [String] = []
    /// Elements both sides moved, to different places (each goes where one side put it, the same either way round).
    private(set) var movedBothWays: [String] = []
    private var children: [String: [[String]]] = [:]  // anchor ("" for the start) → one run per side
    private let start = ""

    init(base: [String], ours: [String], theirs: [String], survivors: Set<String>) {
        let inOurs = Set(ours), inTheirs = Set(theirs), inBase = Set(base)
        let common = base.filter { inOurs.contains($0) && inTheirs.contains($0) && survivors.contains($0) }
        let position = Dictionary(common.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let movedByUs = Self.moved(ours, position)
        let movedByThem = Self.moved(theirs, position)
        stableOrder = common.filter { !movedByUs.contains($0) && !movedByThem.contains($0) }
        let stable = Set(stableOrder)
        var ourFloating = movedByUs.union(ours.filter { !inBase.contains($0) && survivors.contains($0) })
        var theirFloating = movedByThem.union(theirs.filter { !inBase.contains($0) && !inOurs.contains($0) && survivors.contains($0) })
        let both = movedByUs.intersection(movedByThem)
        let ourOwn = ourFloating.subtracting(both), theirOwn = theirFloating.subtracting(both)
        let theirIndex = Dictionary(theirs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // An element both sides moved goes where one side put it: the side whose place for it comes after the
        // smaller anchor id (the start first), so that either side merging gives the same list.
        var ourFloatingPlaced = ourFloating.subtracting(both)
        var theirFloatingPlaced = theirFloating.subtracting(both)
        for (index, id) in ours.enumerated() where both.contains(id) {
            let mine = Self.anchor(before: index, in: ours, stable: stable, own: ourOwn, survivors: survivors) ?? start
            let their = theirIndex[id].flatMap {
                Self.anchor(before: $0, in: theirs, stable: stable, own: theirOwn, survivors: survivors)
            } ?? start
            if mine != their { movedBothWays.append(id) }
            if their < mine { theirFloatingPlaced.insert(id) } else { ourFloatingPlaced.insert(id) }
        }
        ourFloating = ourFloatingPlaced
        theirFloating = theirFloatingPlaced
        place(ours, floating: ourFloating, stable: stable, survivors: survivors)
        place(theirs, floating: theirFloating, stable: stable, survivors: survivors)
    }

    /// The merged order of every survivor.
    func order() -> [String] {
        var out: [String] = []
        expand(start, into: &out)
        for id in stableOrder {
            out.append(id)
            expand(id, into: &out)
        }
        return out
    }

    /// `anchor`'s runs, each followed by what hangs after its elements (depth first, without recursion).
    private func expand(_ anchor: String, into out: inout [String]) {
        var stack: [String] = ordered(anchor).reversed()
        while let id = stack.popLast() {
            out.append(id)
            stack += ordered(id).reversed()
        }
    }

    /// The elements placed right after `anchor`: each side's run, the runs ordered by their first id.
    private func ordered(_ anchor: String) -> [String] {
        guard let runs = children[anchor] else { return [] }
        return runs.sorted { ($0.first ?? "") < ($1.first ?? "") }.flatMap { $0 }
    }

    private mutating func place(_ side: [String], floating: Set<String>, stable: Set<String>, survivors: Set<String>) {
        var runs: [String: [String]] = [:]
        var anchors: [String] = []
        for (index, id) in side.enumerated() where floating.contains(id) {
            let anchor = Self.anchor(before: index, in: side, stable: stable, own: floating, survivors: survivors) ?? start
            if runs[anchor] == nil { anchors.append(anchor) }
            runs[anchor, default: []].append(id)
        }
        for anchor in anchors { children[anchor, default: []].append(runs[anchor] ?? []) }
    }

    /// The nearest element before `side[index]` that stays (stable) or moves with this side (`own`).
    private static func anchor(before index: Int, in side: [String], stable: Set<String>, own: Set<String>, survivors: Set<String>) -> String? {
        var index = index
        while index > side.startIndex {
            index -= 1
            let candidate = side[index]
            if survivors.contains(candidate), stable.contains(candidate) || own.contains(candidate) { return candidate }
        }
        return nil
    }

    /// The common elements `side` moved: those outside the longest run that kept base order (earlier ones stay on a tie).
    private static func moved(_ side: [String], _ position: [String: Int]) -> Set<String> {
        let positions = side.compactMap { position[$0] }
        let stay = Set(ItemMatcher.longestIncreasingSubsequence(positions.reversed().map { -$0 }).map { -$0 })
        return Set(side.filter { id in position[id].map { !stay.contains($0) } ?? false })
    }
}
