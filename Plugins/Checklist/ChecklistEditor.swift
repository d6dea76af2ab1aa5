import FolioPluginKit

/// A checklist: a title and items that are checked or not, each with an id (`ItemIdentity`) that every command keeps.
/// Fields a newer Checklist plugin wrote (on the list or on an item) are kept as the exact text of their values.
struct Checklist: Equatable {
    struct Item: Equatable {
        /// The item's id: as the document stored it, else derived from the version read (`Checklist.identified`), or
        /// fresh for an item a command added.
        var id: String
        var title: String
        var checked: Bool
        /// The item's other fields, in the order read.
        var extra: [PluginJSON.RawMember] = []
        /// Whether `id` was read from the document (false: derived for a document written before ids, or not yet written).
        var idStored = false

        init(id: String = "", title: String, checked: Bool, extra: [PluginJSON.RawMember] = [], idStored: Bool = false) {
            self.id = id
            self.title = title
            self.checked = checked
            self.extra = extra
            self.idStored = idStored
        }
    }
    var title: String
    var items: [Item]
    /// The list's fields other than "title" and "items", in the order read.
    var extra: [PluginJSON.RawMember] = []
}

/// The Checklist editor: `{"title": "...", "items": [{"id": "k3mxq8bz2rtw", "title": "Milk", "checked": false}]}`.
struct ChecklistEditor: FolioEditor {
    let spec = EditorSpec(
        id: "checklist", name: "Checklist", contentTypes: ["org.folio.checklist"],
        declaredTypes: [TypeSpec("org.folio.checklist", conformsTo: ["public.json"], extensions: ["checklist"], description: "A checklist")],
        priority: .default,
        // `N` is one item (rename: a range selection is refused before the title is asked); `N:range` is one item or
        // a range `A-B` (the selection), acted on as one change.
        commands: [
            CommandSpec("add", title: "Add item", shortcut: "a", usage: "add TITLE"),
            CommandSpec("rename", title: "Rename item", shortcut: "r", usage: "rename N TITLE", needsSelection: true),
            CommandSpec("toggle", title: "Check or uncheck item", shortcut: "space", usage: "toggle N:range", needsSelection: true),
            CommandSpec("delete", title: "Delete item", shortcut: "d", usage: "delete N:range", needsSelection: true),
            CommandSpec("move", title: "Move item", shortcut: "m", usage: "move N:range TO:int+", needsSelection: true),
            CommandSpec("check-all", title: "Check all items", shortcut: "ctrl+a", usage: "check-all"),
            CommandSpec("uncheck-all", title: "Uncheck all items", shortcut: "ctrl+u", usage: "uncheck-all"),
        ])

    var extensions: Set<String> { [FolioExtension.semanticDiff, FolioExtension.semanticMerge, FolioExtension.items, FolioExtension.argumentValues] }

    /// `folio.argument-values/1`: rename's form starts from the item's whole title (the view may cut it); the item
    /// number is the host's.
    func argumentValues(for command: String, in list: Checklist, selection: Selection) throws -> [String?]? {
        guard command == "rename" else { return nil }
        guard list.items.indices.contains(selection.cursor - 1) else { return nil }
        return [nil, list.items[selection.cursor - 1].title]
    }

    func open(_ bytes: [UInt8]) throws -> Checklist {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return Checklist(title: "", items: []) }
        // The common case, a checklist with just titles and checked flags, is read by a small scanner; anything
        // else (other keys, odd shapes, errors to explain) is read as JSON and checked field by field.
        if let fast = ChecklistScanner.scan(bytes) { return fast.identified }
        guard let json = try? PluginJSON.parse(bytes, trailingCommas: true) else { throw EditorFailure.invalidDocument("not a valid checklist: not valid JSON") }
        return try ChecklistReader.read(json, bytes: bytes).identified
    }

    func serialize(_ list: Checklist) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + list.items.count * 72)
        out += Array("{\n  \"title\": ".utf8)
        JSONText.append(list.title, to: &out)
        out += Array(",\n  \"items\": [".utf8)
        if list.items.isEmpty {
            out += Array("]".utf8)
        } else {
            out.append(0x0A)
            let open = Array("    {\"id\": ".utf8), title = Array(", \"title\": ".utf8), checked = Array(", \"checked\": ".utf8)
            for (index, item) in list.items.enumerated() {
                out += open
                JSONText.append(item.id, to: &out)
                out += title
                JSONText.append(item.title, to: &out)
                out += checked
                out += item.checked ? Array("true".utf8) : Array("false".utf8)
                for field in item.extra { JSONText.append(member: field, to: &out) }
                out.append(0x7D)
                if index != list.items.count - 1 { out.append(0x2C) }
                out.append(0x0A)
            }
            out += Array("  ]".utf8)
        }
        for field in list.extra {
            out += Array(",\n  ".utf8)
            JSONText.append(field.key, to: &out)
            out += Array(": ".utf8)
            out += Array(field.value.utf8)
        }
        out += Array("\n}\n".utf8)
        return out
    }

    func apply(_ command: String, arguments: CommandArguments, to list: Checklist, selection: Selection) throws -> (Checklist, String) {
        var list = list
        switch command {
        case "add":
            try arguments.expect(1)
            let title = try nonEmpty(arguments.text(0, "TITLE"))
            list.items.append(.init(id: ItemIdentity.fresh(), title: title, checked: false))
            return (list, "added '\(title)'")
        case "rename":
            try arguments.expect(2)
            let index = try arguments.singleItem(0, "N", count: list.items.count)
            let title = try nonEmpty(arguments.text(1, "TITLE"))
            let old = list.items[index].title
            list.items[index].title = title
            return (list, "renamed '\(old)' to '\(title)'")
        case "toggle":
            try arguments.expect(1)
            // A range is checked when any of it is unchecked, else unchecked: one state for all, as one change.
            let range = try arguments.items(0, "N", count: list.items.count)
            let value = range.count == 1 ? !list.items[range.lowerBound].checked : list.items[range].contains { !$0.checked }
            for index in range { list.items[index].checked = value }
            return (list, "\(value ? "checked" : "unchecked") \(Self.names(list.items[range]))")
        case "delete":
            try arguments.expect(1)
            let range = try arguments.items(0, "N", count: list.items.count)
            let removed = list.items[range]
            list.items.removeSubrange(range)
            return (list, "deleted \(Self.names(removed))")
        case "move":
            try arguments.expect(2)
            let range = try arguments.items(0, "N", count: list.items.count)
            let target = try arguments.item(1, "TO", count: list.items.count)
            let moving = Array(list.items[range])
            list.items.removeSubrange(range)
            let position = min(target, list.items.count)
            list.items.insert(contentsOf: moving, at: position)
            return (list, "moved \(Self.names(moving[...])) to \(position + 1)")
        case "check-all", "uncheck-all":
            try arguments.expect(0)
            let value = command == "check-all"
            let changed = list.items.reduce(0) { $0 + ($1.checked == value ? 0 : 1) }
            for index in list.items.indices { list.items[index].checked = value }
            return (list, "\(value ? "checked" : "unchecked") all items (\(changed) changed)")
        default:
            throw EditorFailure(.unknownCommand, "unknown command '\(command)'")
        }
    }

    func render(_ list: Checklist, width: Int, height: Int, selection: Selection) -> [String] {
        let done = list.items.reduce(0) { $0 + ($1.checked ? 1 : 0) }
        let header = (list.title.isEmpty ? "Checklist" : list.title) + "  (\(done)/\(list.items.count) done)"
        guard height > 1 else { return [ViewText.fit(header, width: width)] }
        let digits = String(max(1, list.items.count)).count
        guard !list.items.isEmpty else { return [ViewText.fit(header, width: width), ViewText.fit("  (no items: add TITLE)", width: width)] }
        // Build only the lines that fit: a 10,000-item list draws in the time of a 30-item one.
        let visible = ViewText.visibleRange(count: list.items.count, height: height - 1,
                                            focus: selection.cursor > 0 ? selection.cursor - 1 : nil, scroll: selection.scroll)
        let body = visible.map { index -> String in
            let item = list.items[index]
            let number = String(index + 1)
            let marker = selection.cursor == index + 1 ? ">" : " "
            return ViewText.fit("\(marker)\(String(repeating: " ", count: digits - number.count))\(number) [\(item.checked ? "x" : " ")] \(item.title)", width: width)
        }
        return [ViewText.fit(header, width: width)] + body
    }

    func semanticDiff(from old: Checklist, to new: Checklist) throws -> [String] {
        ChecklistDiff.describe(from: old, to: new)
    }

    func semanticMerge(base: Checklist, ours: Checklist, theirs: Checklist) throws -> MergeOutcome<Checklist> {
        ChecklistMerge.merge(base: base, ours: ours, theirs: theirs)
    }

    /// Items named for a description: "'Milk'", "'Milk', 'Eggs'", "3 items ('Milk' … 'Eggs')".
    static func names(_ items: ArraySlice<Checklist.Item>) -> String {
        guard let first = items.first, let last = items.last else { return "no items" }
        switch items.count {
        case 1: return "'\(first.title)'"
        case 2: return "'\(first.title)', '\(last.title)'"
        default: return "\(items.count) items ('\(first.title)' … '\(last.title)')"
        }
    }

    private func nonEmpty(_ text: String) throws -> String {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { throw EditorFailure.invalidArgument("TITLE must not be empty") }
        guard !trimmed.contains(where: \.isNewline) else { throw EditorFailure.invalidArgument("TITLE must be one line") }
        return trimmed
    }
}

/// Minimal JSON text helpers.
enum JSONText {
    /// Appends `text` as a JSON string literal to UTF-8 bytes.
    static func append(_ text: String, to out: inout [UInt8]) {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out.append(0x22)
            out += text.utf8
            out.append(0x22)
        } else {
            out += PluginJSON.quote(text).utf8
        }
    }

    /// Appends `, "key": value` (the value's text as kept) to UTF-8 bytes.
    static func append(member: PluginJSON.RawMember, to out: inout [UInt8]) {
        out += Array(", ".utf8)
        append(member.key, to: &out)
        out += Array(": ".utf8)
        out += Array(member.value.utf8)
    }
}

@_cdecl("folio_plugin_entry")
public func folioPluginEntry() -> UnsafeRawPointer? {
    FolioPluginExport.descriptor {
        FolioPlugin(id: "org.folio.plugins.checklist", name: "Checklist", version: "1.0.0", editors: [ChecklistEditor()])
    }
}

/// Reads the checklist shape Folio writes — `{"title": "…", "items": [{"id": "…", "title": "…", "checked": true}, …]}`
/// (ids optional) with any whitespace and key order — straight from the bytes; nil for anything else, which ChecklistReader then reads.
enum ChecklistScanner {
    static func scan(_ bytes: [UInt8]) -> Checklist? {
        var i = 0
        func skip() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 } }
        func expect(_ byte: UInt8) -> Bool { skip(); guard i < bytes.count, bytes[i] == byte else { return false }; i += 1; return true }
        func string() -> String? {
            skip()
            guard i < bytes.count, bytes[i] == 0x22 else { return nil }
            i += 1
            let start = i
            while i < bytes.count, bytes[i] != 0x22 {
                if bytes[i] == 0x5C || bytes[i] < 0x20 { return nil }  // escapes: leave them to ChecklistReader
                i += 1
            }
            guard i < bytes.count else { return nil }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            i += 1
            return text
        }
        func bool() -> Bool? {
            skip()
            if bytes[i...].starts(with: [0x74, 0x72, 0x75, 0x65]) { i += 4; return true }
            if bytes[i...].starts(with: [0x66, 0x61, 0x6C, 0x73, 0x65]) { i += 5; return false }
            return nil
        }
        var title: String?
        var items: [Checklist.Item]?
        guard expect(0x7B) else { return nil }
        skip()
        if i < bytes.count, bytes[i] == 0x7D { i += 1 } else {
            repeat {
                guard let key = string(), expect(0x3A) else { return nil }
                switch key {
                case "title" where title == nil:
                    guard let value = string() else { return nil }
                    title = value
                case "items" where items == nil:
                    guard expect(0x5B) else { return nil }
                    var list: [Checklist.Item] = []
                    skip()
                    if i < bytes.count, bytes[i] == 0x5D { i += 1 } else {
                        repeat {
                            guard expect(0x7B) else { return nil }
                            var itemTitle: String?, checked: Bool?, id: String?
                            repeat {
                                guard let itemKey = string(), expect(0x3A) else { return nil }
                                switch itemKey {
                                case "title" where itemTitle == nil: itemTitle = string(); if itemTitle == nil { return nil }
                                case "checked" where checked == nil: checked = bool(); if checked == nil { return nil }
                                case "id" where id == nil: id = string(); if id == nil { return nil }
                                default: return nil
                                }
                            } while expect(0x2C)
                            guard expect(0x7D), let itemTitle else { return nil }
                            list.append(Checklist.Item(id: id ?? "", title: itemTitle, checked: checked ?? false, idStored: id != nil))
                        } while expect(0x2C)
                        guard expect(0x5D) else { return nil }
                    }
                    items = list
                default:
                    return nil
                }
            } while expect(0x2C)
            guard expect(0x7D) else { return nil }
        }
        skip()
        guard i == bytes.count else { return nil }
        return Checklist(title: title ?? "", items: items ?? [])
    }
}
