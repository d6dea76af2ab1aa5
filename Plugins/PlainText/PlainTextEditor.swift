import FolioPluginKit

/// Text as lines, remembering whether the file ended with a newline so that it round-trips.
struct TextLines: Equatable {
    var lines: [String]
    var endsWithNewline: Bool

    init(_ text: String) {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        endsWithNewline = text.isEmpty || text.hasSuffix("\n")
        if text.isEmpty { parts = [] } else if endsWithNewline { parts.removeLast() }
        lines = parts
    }

    var text: String {
        lines.isEmpty ? "" : lines.joined(separator: "\n") + (endsWithNewline ? "\n" : "")
    }
}

/// The plain-text editor: the default for public.plain-text, and so the fallback for everything conforming to it.
struct PlainTextEditor: FolioEditor {
    let spec = EditorSpec(
        id: "plain-text", name: "Plain Text", contentTypes: ["public.plain-text"], priority: .default,
        commands: [
            CommandSpec("append", title: "Append line", shortcut: "o", usage: "append TEXT"),
            CommandSpec("insert", title: "Insert line", shortcut: "O", usage: "insert LINE TEXT", needsSelection: true),
            CommandSpec("delete-line", title: "Delete line", shortcut: "d", usage: "delete-line LINE", needsSelection: true),
            CommandSpec("replace", title: "Replace text", shortcut: "ctrl+r", usage: "replace OLD NEW"),
        ])

    var extensions: Set<String> { [FolioExtension.items] }

    func open(_ bytes: [UInt8]) throws -> TextLines {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw EditorFailure.invalidDocument("the file is not UTF-8 text")
        }
        return TextLines(text)
    }

    func serialize(_ document: TextLines) throws -> [UInt8] { Array(document.text.utf8) }

    func apply(_ command: String, arguments: CommandArguments, to document: TextLines, selection: Selection) throws -> (TextLines, String) {
        var document = document
        switch command {
        case "append":
            try arguments.expect(1)
            let added = TextLines(try arguments.text(0, "TEXT")).lines
            let first = document.lines.count + 1
            document.lines.append(contentsOf: added.isEmpty ? [""] : added)
            return (document, added.count > 1 ? "appended lines \(first)–\(document.lines.count)" : "appended line \(first)")
        case "insert":
            try arguments.expect(2)
            // A range inserts before its first line; one past the last line appends.
            let end = document.lines.count + 1
            let line = try (try? arguments.int(0, "LINE", in: end...end)) ?? arguments.items(0, "LINE", count: document.lines.count).lowerBound + 1
            let added = TextLines(try arguments.text(1, "TEXT")).lines
            document.lines.insert(contentsOf: added.isEmpty ? [""] : added, at: line - 1)
            return (document, "inserted line \(line)")
        case "delete-line":
            try arguments.expect(1)
            let range = try arguments.items(0, "LINE", count: document.lines.count)
            let removed = document.lines[range]
            document.lines.removeSubrange(range)
            if range.count > 1 { return (document, "deleted lines \(range.lowerBound + 1)–\(range.upperBound + 1)") }
            return (document, "deleted line \(range.lowerBound + 1) ('\(ViewText.fit(removed.first ?? "", width: 40))')")
        case "replace":
            try arguments.expect(2)
            let old = try arguments.text(0, "OLD"), new = try arguments.text(1, "NEW")
            guard !old.isEmpty else { throw EditorFailure.invalidArgument("OLD must not be empty") }
            let text = document.text
            let count = text.ranges(of: old).count
            guard count > 0 else { throw EditorFailure.invalidArgument("'\(old)' does not occur in the text") }
            let wasEmpty = document.lines.isEmpty
            document = TextLines(text.replacing(old, with: new))
            if wasEmpty { document.endsWithNewline = true }
            return (document, "replaced \(count) occurrence\(count == 1 ? "" : "s") of '\(old)' with '\(new)'")
        default:
            throw EditorFailure(.unknownCommand, "unknown command '\(command)'")
        }
    }

    func render(_ document: TextLines, width: Int, height: Int, selection: Selection) -> [String] {
        let digits = max(3, String(document.lines.count).count)
        let lines = document.lines.enumerated().map { index, line -> String in
            let number = String(index + 1)
            return (selection.cursor == index + 1 ? ">" : " ") + String(repeating: " ", count: digits - number.count) + number + "  " + line
        }
        return ViewText.window(lines.isEmpty ? ["  (empty: append TEXT)"] : lines, width: width, height: height,
                               focus: selection.cursor > 0 ? selection.cursor - 1 : nil, scroll: selection.scroll)
    }
}

@_cdecl("folio_plugin_entry")
public func folioPluginEntry() -> UnsafeRawPointer? {
    FolioPluginExport.descriptor {
        FolioPlugin(id: "org.folio.plugins.plain-text", name: "Plain Text", version: "1.0.0", editors: [PlainTextEditor()])
    }
}
