import FolioPluginKit

/// Three-way merge of checklists by item id (`IdentifiedList.merge`): a field (title, checked, or one a newer plugin
/// wrote) changed on one side survives; the same field changed differently on both sides, and an item deleted on one
/// side and changed on the other, are conflicts naming the item; runs added at one place stay together; moves are by
/// id. The list's own title and fields merge the same way. A side written without ids (by a Folio before them) takes
/// the base's ids by today's guess first (`ChecklistMatch.relabeled`).
enum ChecklistMerge {
    static func merge(base: Checklist, ours: Checklist, theirs: Checklist) -> MergeOutcome<Checklist> {
        let ours = ChecklistMatch.relabeled(ours, from: base), theirs = ChecklistMatch.relabeled(theirs, from: base)
        let top = IdentifiedList.mergeFields(base: base.topFields, ours: ours.topFields, theirs: theirs.topFields)
        var conflicts = top.clashes.map { clash in
            IdentifiedList.Conflict.field(element: "the list", field: clash.name, ours: clash.ours, theirs: clash.theirs).description
        }
        let items = IdentifiedList.merge(base: base.records, ours: ours.records, theirs: theirs.records) { record in
            "'" + (Checklist.Item(record: record)?.title ?? record.id) + "'"
        } describe: { base, side in
            Checklist.describeChange(from: base, to: side)
        }
        switch items {
        case let .conflicts(lines): conflicts += lines
        case let .merged(records) where conflicts.isEmpty:
            var list = Checklist(title: "", items: [])
            list.topFields = top.fields
            list.items = records.compactMap(Checklist.Item.init(record:))
            guard list.items.count == records.count else { return .conflicts(["the merge made an item that is not a checklist item; nothing was merged"]) }
            return .merged(list)
        case .merged: break
        }
        return .conflicts(conflicts)
    }
}

extension Checklist {
    /// The list's own fields as JSON text: its title, then those a newer plugin wrote.
    var topFields: [PluginJSON.RawMember] {
        get { [PluginJSON.RawMember(key: "title", value: PluginJSON.quote(title))] + extra }
        set {
            title = newValue.first { $0.key == "title" }.flatMap { Self.string($0.value) } ?? ""
            extra = newValue.filter { $0.key != "title" }
        }
    }

    /// The items as records for `IdentifiedList`: title, checked, and the fields a newer plugin wrote.
    var records: [IdentifiedRecord] {
        items.map { item in
            IdentifiedRecord(id: item.id, fields: [
                PluginJSON.RawMember(key: "title", value: PluginJSON.quote(item.title)),
                PluginJSON.RawMember(key: "checked", value: item.checked ? "true" : "false"),
            ] + item.extra)
        }
    }

    /// What a side did to an item, for a conflict line: "renamed to 'Oat milk'", "checked", "changed its colour".
    static func describeChange(from base: [PluginJSON.RawMember]?, to side: [PluginJSON.RawMember]) -> String {
        func value(_ fields: [PluginJSON.RawMember]?, _ key: String) -> String? { fields?.first { $0.key == key }?.value }
        var keys = side.map(\.key)
        for field in base ?? [] where !keys.contains(field.key) { keys.append(field.key) }
        let parts = keys.compactMap { key -> String? in
            let now = value(side, key)
            guard now != value(base, key) else { return nil }
            switch key {
            case "title": return now.flatMap(string).map { "renamed to '\($0)'" } ?? "removed its title"
            case "checked": return now == "true" ? "checked" : "unchecked"
            default: return now == nil ? "removed its \(key)" : "changed its \(key)"
            }
        }
        return parts.isEmpty ? "changed" : parts.joined(separator: " and ")
    }

    static func string(_ json: String) -> String? {
        guard case let .string(text)? = try? PluginJSON.parse(Array(json.utf8)) else { return nil }
        return text
    }
}

extension Checklist.Item {
    /// The item a merged record holds; nil when its title is not a string or its checked state not a boolean.
    init?(record: IdentifiedRecord) {
        guard let title = record["title"].flatMap(Checklist.string) else { return nil }
        let checked: Bool
        switch record["checked"] {
        case "true"?: checked = true
        case "false"?, nil: checked = false
        default: return nil
        }
        let extra = record.fields.filter { $0.key != "title" && $0.key != "checked" }
        self.init(id: record.id, title: title, checked: checked, extra: extra, idStored: true)
    }
}
