import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTerminal

/// Why a document opens in the generic document view instead of an editor.
package enum GenericViewReason: Equatable, Sendable {
    /// No installed editor handles the content type.
    case noEditor(contentType: String)
    /// The editor for the content type is installed but turned off.
    case editorDisabled(String)
    /// The editor's build crashed or hung too often and is not loaded.
    case editorQuarantined(String)
    /// The editor the settings associate with the content type is not installed.
    case editorMissing(String)

    /// The status line's explanation.
    package var text: String {
        switch self {
        case let .noEditor(type): return "no editor for \(type)"
        case let .editorDisabled(id): return "editor '\(id)' is disabled"
        case let .editorQuarantined(id): return "editor '\(id)' is quarantined after crashes"
        case let .editorMissing(id): return "editor '\(id)' is not installed"
        }
    }
}

/// A file of the document as the generic view lists it.
package struct GenericFileEntry: Equatable, Sendable {
    package enum Kind: Equatable, Sendable { case file, executable, link, submodule }
    /// The path inside the document, '/'-separated, as stored (shown sanitized).
    package var path: String
    package var size: Int
    package var kind: Kind
    package init(path: String, size: Int, kind: Kind = .file) { self.path = path; self.size = size; self.kind = kind }
}

/// One row of the file tree: a folder or a file, indented by depth.
package struct GenericTreeRow: Equatable, Sendable {
    /// The file's path, or the folder's path without a trailing "/".
    package var path: String
    /// The last path component, sanitized for the terminal.
    package var name: String
    package var depth: Int
    package var isFolder: Bool
    /// The file's size, or the sum of the folder's files.
    package var size: Int
    package var kind: GenericFileEntry.Kind
}

/// A file's content as the read-only view shows it.
package struct GenericFileView: Equatable, Sendable {
    package var path: String
    /// Lines sanitized for the terminal: tabs expanded, control characters shown as ^X; for a binary file, a hex dump.
    package var lines: [String]
    package var binary: Bool
    package var size: Int
    /// Why the content is not shown (too large, unreadable), if it is not.
    package var note: String?
    /// The first line shown and the first column shown (long lines scroll sideways).
    package var scroll = 0
    package var column = 0

    /// The most bytes read for the view; bigger files are named, not shown.
    package static let displayLimit = 8 << 20
    /// The bytes of a binary file shown as a hex dump.
    static let hexDumpLimit = 4096

    /// At least the widest line's width in cells (its UTF-8 length, which never counts fewer cells than it
    /// takes), worked out once: how far the view scrolls sideways.
    package let widestBound: Int

    package init(path: String, lines: [String], binary: Bool, size: Int, note: String? = nil) {
        self.path = path; self.lines = lines; self.binary = binary; self.size = size; self.note = note
        widestBound = lines.map(\.utf8.count).max() ?? 0
    }

    /// The view of `data`: text when it has no NUL byte in its first 8000 bytes (git's test), else a hex dump.
    package init(path: String, data: Data) {
        let binary = data.prefix(8000).contains(0)
        let lines = binary ? Self.hexDump(data.prefix(Self.hexDumpLimit)) : Self.textLines(data)
        self.init(path: path, lines: lines, binary: binary, size: data.count)
    }

    static func textLines(_ data: Data) -> [String] {
        // "\r\n" is one Character in Swift: both it and "\n" end a line; a lone "\r" is shown as ^M.
        var lines = String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { GenericText.sanitize($0, expandTabs: true) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    static func hexDump(_ data: Data) -> [String] {
        let bytes = Array(data)
        return stride(from: 0, to: bytes.count, by: 16).map { offset in
            let row = bytes[offset..<min(offset + 16, bytes.count)]
            let hex = row.map { NumberText.hex($0, width: 2) }.joined(separator: " ")
            let ascii = String(row.map { (32...126).contains($0) ? Character(Unicode.Scalar($0)) : "." })
            return NumberText.hex(offset, width: 8) + "  " + hex + String(repeating: " ", count: max(0, 48 - hex.count)) + " " + ascii
        }
    }
}

/// Text from the document made safe to draw: no escape or control character reaches the terminal.
package enum GenericText {
    /// `text` with control and bidi characters as their visible escapes (`TerminalText.visible`: `\e`, `\x07`,
    /// `\u{9B}`, `\u{2028}`), and tabs as spaces to the next multiple of 8 (or `\t` when `expandTabs` is off, as
    /// in file names).
    package static func sanitize(_ text: some StringProtocol, expandTabs: Bool = false) -> String {
        guard expandTabs, text.contains("\t") else { return TerminalText.visible(text) }
        var out = ""
        var column = 0
        for (index, part) in text.split(separator: "\t", omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                let spaces = 8 - column % 8
                out += String(repeating: " ", count: spaces); column += spaces
            }
            let shown = TerminalText.visible(part)
            out += shown
            column += DisplayWidth.width(of: shown)
        }
        return out
    }

    /// A size for people: "812 B", "4.2 KB", "1.5 MB".
    package static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95, unit < units.count - 1 { value /= 1000; unit += 1 }
        return NumberText.fixed(value, digits: 1) + " " + units[unit]
    }
}

/// The generic document view: the document's files as a tree with sizes, a `/` filter, a read-only view of the
/// selected file, and `e` to change it in the user's own editor (one commit on return).
package struct GenericViewState: Equatable, Sendable {
    package enum Focus: Equatable, Sendable { case tree, file }

    package var path: String
    package var title: String
    package var contentType: ContentType
    package var reason: GenericViewReason
    package var commitID: String = ""
    package var commitMessage: String = ""
    /// The newest version's files.
    package var entries: [GenericFileEntry] = [] { didSet { refreshRows() } }
    /// Why the files could not be listed, if they could not.
    package var loadError: String?
    /// The filter; `filtering` while it is being typed after `/`.
    package var filter = "" { didSet { if filter != oldValue { refreshRows() } } }
    package var filtering = false
    /// Folders shown closed.
    package var collapsed: Set<String> = [] { didSet { if collapsed != oldValue { refreshRows() } } }
    /// The tree's rows after the filter: folders first, then files, each by name; a filter shows every folder that
    /// holds a match, open. Kept up to date as the entries, the filter and the closed folders change (a key or a
    /// frame never rebuilds the tree).
    package private(set) var rows: [GenericTreeRow] = []
    /// The selected row and the first row shown.
    package var selection = 0
    package var scroll = 0
    /// The selected file's content (a preview beside the tree when wide, full-screen when focused).
    package var file: GenericFileView?
    package var focus: Focus = .tree
    /// A one-line message (the result of an edit, a hint), cleared by the next key.
    package var message: StatusLine?
    /// The rows the list and the file view have (set by the run loop from the terminal size), for paging.
    package var viewRows = 20

    package init(path: String, title: String, contentType: ContentType, reason: GenericViewReason) {
        self.path = path; self.title = title; self.contentType = contentType; self.reason = reason
    }

    private mutating func refreshRows() {
        let needle = filter.lowercased()
        let matching = needle.isEmpty ? entries : entries.filter { $0.path.lowercased().contains(needle) }
        rows = GenericTree.rows(matching, collapsed: needle.isEmpty ? collapsed : [])
    }

    /// The selected row, if any.
    package var selectedRow: GenericTreeRow? {
        let rows = rows
        return rows.indices.contains(selection) ? rows[selection] : nil
    }

    /// The file `e` edits: the file shown when it has focus, else the selected row when it is a file (not a link).
    package var fileToEdit: String? {
        if focus == .file, let file { return file.path }
        guard let row = selectedRow, !row.isFolder, row.kind == .file || row.kind == .executable else { return nil }
        return row.path
    }

    /// Takes a new listing (the first, or after a change), keeping the selection on the same path when it is still there.
    package mutating func replacingEntries(_ entries: [GenericFileEntry], commitID: String, commitMessage: String) {
        let selected = selectedRow?.path
        self.entries = entries
        self.commitID = commitID
        self.commitMessage = commitMessage
        loadError = nil
        let rows = rows
        if let selected, let index = rows.firstIndex(where: { $0.path == selected }) { selection = index }
        selection = min(selection, max(0, rows.count - 1))
        if let file, !entries.contains(where: { $0.path == file.path }) { self.file = nil; focus = .tree }
    }
}

/// Building the tree rows from a flat list of paths.
enum GenericTree {
    private final class Node {
        var folders: [String: Node] = [:]
        var files: [GenericFileEntry] = []
        var size = 0
    }

    static func rows(_ entries: [GenericFileEntry], collapsed: Set<String>) -> [GenericTreeRow] {
        let root = Node()
        for entry in entries {
            var node = root
            node.size += entry.size
            let parts = entry.path.split(separator: "/").map(String.init)
            for part in parts.dropLast() {
                let next = node.folders[part] ?? Node()
                node.folders[part] = next
                node = next
                node.size += entry.size
            }
            node.files.append(entry)
        }
        var rows: [GenericTreeRow] = []
        func emit(_ node: Node, prefix: String, depth: Int) {
            for name in Self.sortedByName(Array(node.folders.keys), key: { $0 }) {
                guard let folder = node.folders[name] else { continue }
                let path = prefix + name
                rows.append(GenericTreeRow(path: path, name: GenericText.sanitize(name), depth: depth, isFolder: true, size: folder.size, kind: .file))
                if !collapsed.contains(path) { emit(folder, prefix: path + "/", depth: depth + 1) }
            }
            for file in Self.sortedByName(node.files, key: \.path) {
                let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
                rows.append(GenericTreeRow(path: file.path, name: GenericText.sanitize(name), depth: depth, isFolder: false, size: file.size, kind: file.kind))
            }
        }
        emit(root, prefix: "", depth: 0)
        return rows
    }

    /// Case-insensitive name order, ties broken by bytes (each key lowercased once).
    static func sortedByName<T>(_ items: [T], key: (T) -> String) -> [T] {
        items.map { (item: $0, name: key($0), lower: key($0).lowercased()) }
            .sorted { $0.lower != $1.lower ? $0.lower < $1.lower : $0.name < $1.name }
            .map(\.item)
    }
}
