import FolioPluginKit
import Foundation

/// A checklist: a title and items that are checked or not.
struct Checklist: Equatable {
    struct Item: Equatable {
        var title: String
        var checked: Bool
    }
    var title: String
    var items: [Item]
}

/// The Checklist editor: `{"title": "...", "items": [{"title": "Milk", "checked": false}]}`.
struct ChecklistEditor: FolioEditor {
    let spec = EditorSpec(
        id: "checklist", name: "Checklist", contentTypes: ["org.folio.checklist"],
        declaredTypes: [TypeSpec("org.folio.checklist", conformsTo: ["public.json"], extensions: ["checklist"], description: "A checklist")],
        priority: .default,
        commands: [
            CommandSpec("add", title: "Add item", shortcut: "a", usage: "add TITLE"),
            CommandSpec("rename", title: "Rename item", shortcut: "r", usage: "rename N TITLE", needsSelection: true),
            CommandSpec("toggle", title: "Check or uncheck item", shortcut: "space", usage: "toggle N", needsSelection: true),
            CommandSpec("delete", title: "Delete item", shortcut: "d", usage: "delete N", needsSelection: true),
            CommandSpec("move", title: "Move item", shortcut: "m", usage: "move N TO", needsSelection: true),
            CommandSpec("check-all", title: "Check all items", shortcut: "ctrl+a", usage: "check-all"),
            CommandSpec("uncheck-all", title: "Uncheck all items", shortcut: "ctrl+u", usage: "uncheck-all"),
        ])

    var extensions: Set<String> { [FolioExtension.semanticDiff, FolioExtension.semanticMerge] }

    func open(_ bytes: [UInt8]) throws -> Checklist {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return Checklist(title: "", items: []) }
        struct RawItem: Decodable { var title: String; var checked: Bool? }
        struct Raw: Decodable { var title: String?; var items: [RawItem]? }
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, context) {
            throw EditorFailure.invalidDocument("missing '\(key.stringValue)' at \(Self.path(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw EditorFailure.invalidDocument("wrong type at \(Self.path(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw EditorFailure.invalidDocument("missing value at \(Self.path(context.codingPath))")
        } catch {
            throw EditorFailure.invalidDocument("not a valid checklist: not valid JSON")
        }
        var list = Checklist(title: raw.title ?? "", items: [])
        list.items = (raw.items ?? []).map { Checklist.Item(title: $0.title, checked: $0.checked ?? false) }
        return list
    }

    func serialize(_ list: Checklist) throws -> [UInt8] {
        var out = "{\n  \"title\": \(JSONText.quote(list.title)),\n  \"items\": ["
        if list.items.isEmpty {
            out += "]\n}\n"
        } else {
            out += "\n"
            for (index, item) in list.items.enumerated() {
                out += "    {\"title\": \(JSONText.quote(item.title)), \"checked\": \(item.checked)}"
                out += index == list.items.count - 1 ? "\n" : ",\n"
            }
            out += "  ]\n}\n"
        }
        return Array(out.utf8)
    }

    func apply(_ command: String, arguments: CommandArguments, to list: Checklist, selection: Selection) throws -> (Checklist, String) {
        var list = list
        switch command {
        case "add":
            try arguments.expect(1)
            let title = try nonEmpty(arguments.text(0, "TITLE"))
            list.items.append(.init(title: title, checked: false))
            return (list, "added '\(title)'")
        case "rename":
            try arguments.expect(2)
            let index = try arguments.item(0, "N", count: list.items.count)
            let title = try nonEmpty(arguments.text(1, "TITLE"))
            let old = list.items[index].title
            list.items[index].title = title
            return (list, "renamed '\(old)' to '\(title)'")
        case "toggle":
            try arguments.expect(1)
            let index = try arguments.item(0, "N", count: list.items.count)
            list.items[index].checked.toggle()
            return (list, "\(list.items[index].checked ? "checked" : "unchecked") '\(list.items[index].title)'")
        case "delete":
            try arguments.expect(1)
            let index = try arguments.item(0, "N", count: list.items.count)
            let removed = list.items.remove(at: index)
            return (list, "deleted '\(removed.title)'")
        case "move":
            try arguments.expect(2)
            let index = try arguments.item(0, "N", count: list.items.count)
            let target = try arguments.item(1, "TO", count: list.items.count)
            let item = list.items.remove(at: index)
            list.items.insert(item, at: target)
            return (list, "moved '\(item.title)' to \(target + 1)")
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
        var lines: [String] = []
        lines.reserveCapacity(list.items.count)
        for (index, item) in list.items.enumerated() {
            let number = String(index + 1)
            let marker = selection.cursor == index + 1 ? ">" : " "
            lines.append("\(marker)\(String(repeating: " ", count: digits - number.count))\(number) [\(item.checked ? "x" : " ")] \(item.title)")
        }
        if lines.isEmpty { lines = ["  (no items: add TITLE)"] }
        let body = ViewText.window(lines, width: width, height: height - 1,
                                   focus: selection.cursor > 0 ? selection.cursor - 1 : nil, scroll: selection.scroll)
        return [ViewText.fit(header, width: width)] + body
    }

    func semanticDiff(from old: Checklist, to new: Checklist) throws -> [String] {
        ChecklistDiff.describe(from: old, to: new)
    }

    func semanticMerge(base: Checklist, ours: Checklist, theirs: Checklist) throws -> MergeOutcome<Checklist> {
        ChecklistMerge.merge(base: base, ours: ours, theirs: theirs)
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { $0.intValue.map { "item \($0 + 1)" } ?? $0.stringValue }.joined(separator: ", ")
        return text.isEmpty ? "the top level" : text
    }

    private func nonEmpty(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw EditorFailure.invalidArgument("TITLE must not be empty") }
        guard !trimmed.contains(where: \.isNewline) else { throw EditorFailure.invalidArgument("TITLE must be one line") }
        return trimmed
    }
}

/// Minimal JSON text helpers.
enum JSONText {
    /// `text` as a JSON string literal.
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

@_cdecl("folio_plugin_entry")
public func folioPluginEntry() -> UnsafeRawPointer? {
    FolioPluginExport.descriptor {
        FolioPlugin(id: "org.folio.plugins.checklist", name: "Checklist", version: "1.0.0", editors: [ChecklistEditor()])
    }
}
