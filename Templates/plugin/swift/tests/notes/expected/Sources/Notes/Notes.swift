import FolioPluginKit

/// Notes: a Folio editor for com.example.notes documents, a list of lines (one item per line).
/// `add TEXT` appends a line, `remove N` removes line N (the one under the cursor in the editor).
/// Items (`folio.items/1`): each line is an item, so Folio can list the history of one line and bring one back.
/// Folio's plugin guide, docs/PLUGINS.md, explains the protocol and the rules.
struct NotesEditor: FolioEditor {
    let spec = EditorSpec(
        id: "notes", name: "Notes", contentTypes: ["com.example.notes"],
        declaredTypes: [TypeSpec("com.example.notes", conformsTo: ["public.plain-text"], description: "A Notes document")],
        commands: [
            CommandSpec("add", title: "Add line", shortcut: "a", usage: "add TEXT"),
            CommandSpec("remove", title: "Remove line", shortcut: "d", usage: "remove N", needsSelection: true),
        ])

    var extensions: Set<String> { [FolioExtension.items] }

    func open(_ bytes: [UInt8]) throws -> [String] {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw EditorFailure.invalidDocument("the file is not UTF-8 text") }
        return text.split(separator: "\n").map(String.init)
    }

    func serialize(_ lines: [String]) throws -> [UInt8] {
        Array(lines.map { $0 + "\n" }.joined().utf8)
    }

    func apply(_ command: String, arguments: CommandArguments, to lines: [String], selection: Selection) throws -> ([String], String) {
        var lines = lines
        switch command {
        case "add":
            try arguments.expect(1)
            let text = try arguments.text(0, "TEXT")
            guard !text.isEmpty, !text.contains("\n") else { throw EditorFailure.invalidArgument("TEXT must be one non-empty line (usage: add TEXT)") }
            lines.append(text)
            return (lines, "added '\(ViewText.fit(text, width: 40))'")
        case "remove":
            try arguments.expect(1)
            let index = try arguments.item(0, "N", count: lines.count)
            let removed = lines.remove(at: index)
            return (lines, "removed '\(ViewText.fit(removed, width: 40))'")
        default:
            throw EditorFailure(.unknownCommand, "unknown command '\(command)'")
        }
    }

    /// A header line, then "> 2 text" for the cursor's item and "  2 text" for the others (Folio finds items by number).
    func render(_ lines: [String], width: Int, height: Int, selection: Selection) -> [String] {
        let items = lines.enumerated().map { index, line in (index + 1 == selection.cursor ? "> " : "  ") + "\(index + 1) \(line)" }
        return ViewText.window(["Notes (\(lines.count) lines)"] + items, width: width, height: height,
                               focus: selection.cursor, scroll: selection.scroll)
    }

    /// Each line is an item, numbered as the view shows it (`folio log DOC --item N`, `folio restore DOC REV --item N`).
    func items(of lines: [String]) throws -> [ItemInfo] {
        lines.enumerated().map { ItemInfo(key: String($0.offset + 1), fingerprint: ItemInfo.fingerprint([$0.element]), summary: ViewText.fit($0.element, width: 60)) }
    }

    /// The same line in two versions: equal text, the k-th with the k-th; a changed line in the same place is that line.
    func matchItems(from old: [String], to new: [String]) throws -> [Int?] {
        ItemMatcher.match(old: old, new: new)
    }

    /// Puts lines back: one still there is replaced, one gone is inserted at its old number (or at the end).
    func takeItems(_ takes: [ItemTake], from: [String], into: [String]) throws -> ([String], String) {
        var lines = into
        for take in takes { if let target = take.into { lines[target] = from[take.from] } }
        for take in takes.filter({ $0.into == nil }).sorted(by: { $0.from < $1.from }) { lines.insert(from[take.from], at: min(take.from, lines.count)) }
        return (lines, takes.count == 1 ? "brought back '\(ViewText.fit(from[takes[0].from], width: 40))'" : "brought back \(takes.count) lines")
    }
}

/// The one exported symbol: the plugin's descriptor, built once by FolioPluginKit.
@_cdecl("folio_plugin_entry")
public func folioPluginEntry() -> UnsafeRawPointer? {
    FolioPluginExport.descriptor { FolioPlugin(id: "com.example.plugins.notes", name: "Notes", version: "0.1.0", editors: [NotesEditor()]) }
}
