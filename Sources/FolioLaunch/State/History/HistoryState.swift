import FoundationEssentials
import FolioBasics
import Glibc
import FolioTerminal

/// A diff as the history browser shows it: its lines and whether the editor described it or git did.
package struct HistoryDiff: Equatable, Sendable {
    /// Who described the change.
    package enum Kind: Equatable, Sendable {
        /// The editor's semantic diff ("renamed scene 'Dusk' to 'Dawn'").
        case semantic
        /// The text diff of the document's files, with why there is no semantic one when known.
        case text(note: String?)
    }
    package var lines: [String]
    package var kind: Kind
    package init(lines: [String], kind: Kind) { self.lines = lines; self.kind = kind }
}

/// The history browser: commits loaded so far (newest first), the cursor for more, the selection and its diff.
/// The diff pane always belongs to `diffSubject`; when that is not what the selection asks for (`wanted`), the
/// screen shows "loading…" rather than another commit's diff.
package struct HistoryState: Equatable, Sendable {
    /// Which pane the movement keys act on.
    package enum Pane: Equatable, Sendable { case list, diff }
    /// What a diff describes: one commit (against its parent) or the change between two commits.
    package enum DiffSubject: Equatable, Sendable {
        case commit(String)
        case compare(String, String)
    }

    package var entries: [HistoryEntry] = []
    package var next: String?
    package var exhausted = false
    package var loading = true
    package var selection = 0
    /// The lines of the diff shown, which belong to `diffSubject`.
    package var diff: [String] = []
    /// Who described `diff` (nil until a diff arrives).
    package var diffKind: HistoryDiff.Kind?
    /// The commit (or pair) `diff` describes; nil before the first diff arrives.
    package var diffSubject: DiffSubject?
    /// The diff asked for last; an answer for anything else is stale and dropped.
    package var wanted: DiffSubject?
    /// Why the wanted diff could not be made, shown in the diff pane.
    package var diffError: String?
    package var compareMark: String?
    package var error: String?
    /// The first diff row shown (rows are wrapped lines when `wrap` is on).
    package var diffScroll = 0
    /// The first column shown of each diff line when lines are not wrapped.
    package var diffColumn = 0
    /// Whether long diff lines wrap (else they scroll sideways with ←/→).
    package var wrap = false
    package var focus: Pane = .list
    /// The terminal size the browser is drawn at (set by the run loop): it decides the split and page sizes.
    package var viewWidth = 80
    package var viewHeight = 24
    /// Days, filter, jump, scroll and status of the list (`HistoryState+Timeline.swift`).
    package var timeline = HistoryTimeline()
    /// The versions rendered (`v`), shown instead of the diff when `preview.shown`.
    package var preview = HistoryPreview()
    /// Set when the browser lists the versions that changed one item (`AppState+ItemHistory.swift`).
    package var item: ItemHistoryFocus?
    package init() {}

    /// The id of the selected commit, if any (none while the filter hides every version).
    package var selectedID: String? {
        guard entries.indices.contains(selection), timeline.filter.isEmpty || selectedPosition(in: visible) != nil else { return nil }
        return entries[selection].id
    }
    /// Whether the diff shown belongs to what was asked for last.
    package var diffIsCurrent: Bool { wanted != nil && diffSubject == wanted }
    /// Whether the diff fills the screen (narrow terminals, once Enter or Tab opened it).
    package var diffFullScreen: Bool { !layout.split && focus == .diff }
    var layout: HistoryLayout { HistoryLayout(width: viewWidth, height: viewHeight) }

    /// Asks for the selected commit's diff unless it is already shown or asked for; the effect to run, if any.
    /// The old diff stays only as long as it is the one wanted: the pane shows "loading…" meanwhile.
    mutating func followSelection() -> AppEffect? {
        guard let id = selectedID else { return nil }
        return want(.commit(id))
    }

    mutating func want(_ subject: DiffSubject) -> AppEffect? {
        guard wanted != subject else { return nil }
        wanted = subject
        diffError = nil
        diffScroll = 0
        diffColumn = 0
        switch subject {
        case let .commit(id): return .loadDiff(commitID: id)
        case let .compare(a, b): return .compare(a, b)
        }
    }

    /// Takes a diff that arrived for `subject`; one for anything but the diff wanted last is dropped.
    /// Returns whether it was taken.
    @discardableResult
    package mutating func receive(_ diff: HistoryDiff, for subject: DiffSubject) -> Bool {
        guard subject == wanted else { return false }
        self.diff = Self.capped(diff.lines)
        diffKind = diff.kind
        diffSubject = subject
        diffError = nil
        clampScroll()
        return true
    }

    /// The most diff lines the browser keeps: enough for any change a person reads here, and it bounds the work of
    /// every frame and key (wrapping, the widest line); the rest is one line pointing at `folio diff`.
    package static let maximumDiffLines = 20_000

    static func capped(_ lines: [String]) -> [String] {
        guard lines.count > maximumDiffLines else { return lines }
        return Array(lines.prefix(maximumDiffLines)) + ["… \(lines.count - maximumDiffLines) more lines (the whole diff: folio diff)"]
    }

    /// The diff rows from `first` on, at most `count`: only those are expanded (and wrapped when `wrap` is on, which
    /// needs the rows before them too).
    package func diffRows(width: Int, from first: Int, count: Int) -> [String] {
        guard !wrap else { return Array(diffRows(width: width).dropFirst(first).prefix(count)) }
        return diff.dropFirst(first).prefix(count).map { $0.replacing("\t", with: "    ") }
    }

    /// Takes a failure to make the diff for `subject` (dropped when stale).
    @discardableResult
    package mutating func receiveFailure(_ text: String, for subject: DiffSubject) -> Bool {
        guard subject == wanted else { return false }
        diffError = text
        return true
    }

    /// Takes a page of older commits; the first page asks for the selected commit's diff.
    package mutating func receive(_ page: HistoryPage) -> AppEffect? {
        entries += page.entries
        next = page.next
        exhausted = page.next == nil
        loading = false
        return wanted == nil ? followSelection() : nil
    }

    /// Shows a tag made here on its commit at once (the list is not reloaded for it).
    package mutating func tagged(_ commitID: String, name: String) {
        for index in entries.indices where entries[index].id == commitID && !entries[index].tags.contains(name) {
            entries[index].tags.append(name)
            refreshMatches(from: index)
        }
    }

    /// The diff's rows as drawn: lines with tabs expanded, wrapped to the pane when `wrap` is on.
    package func diffRows(width: Int) -> [String] {
        let lines = diff.map { $0.replacing("\t", with: "    ") }
        guard wrap else { return lines }
        return lines.flatMap { HistoryLayout.wrapCells($0, width: width) }
    }

    /// Scrolls the diff pane by `rows` (clamped to the diff).
    mutating func scrollDiff(by rows: Int) {
        if preview.shown { scrollPreview(by: rows); return }
        diffScroll = max(0, diffScroll + rows)
        clampScroll()
    }

    mutating func scrollDiffSideways(by columns: Int) {
        guard !wrap else { return }
        let widest = diff.map { DisplayWidth.width(of: $0.replacing("\t", with: "    ")) }.max() ?? 0
        diffColumn = min(max(0, diffColumn + columns), max(0, widest - layout.diffWidth(fullScreen: diffFullScreen)))
    }

    mutating func clampScroll() {
        let rows = wrap ? diffRows(width: layout.diffWidth(fullScreen: diffFullScreen)).count : diff.count
        diffScroll = min(diffScroll, max(0, rows - layout.diffRows))
        if preview.shown { clampPreviewScroll() }
    }
}

/// Where the history browser draws: list and diff side by side when both fit, else one at a time.
struct HistoryLayout: Equatable {
    var width: Int
    var height: Int
    /// The narrowest terminal that shows the list and the diff side by side.
    static let splitWidth = 70
    var split: Bool { width >= Self.splitWidth }
    var listWidth: Int { split ? width / 2 : width }
    func diffX(fullScreen: Bool) -> Int { fullScreen ? 1 : listWidth + 2 }
    func diffWidth(fullScreen: Bool) -> Int { max(1, width - diffX(fullScreen: fullScreen) - 1) }
    /// Rows for diff lines: below the chrome, the commit's two header lines and the diff kind line.
    var diffRows: Int { max(1, height - 1 - 4) }
    /// Page size for PgUp/PgDn in the diff.
    var diffPage: Int { max(1, diffRows - 1) }

    /// `text` cut into rows of at most `width` cells, never splitting a cluster (a cluster wider than the row
    /// gets a row of its own).
    static func wrapCells(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var rows: [String] = []
        var row = "", used = 0
        for part in DisplayWidth.clusters(text) {
            if used + part.width > width, !row.isEmpty { rows.append(row); row = ""; used = 0 }
            row += part.grapheme
            used += part.width
        }
        rows.append(row)
        return rows
    }

    /// Prose (an error, a reason) in rows of at most `width` cells, broken between words; a word longer than a row
    /// is cut across rows, so nothing is lost.
    static func wrapWords(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var rows: [String] = []
        var row = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = row.isEmpty ? word : row + " " + word
            if DisplayWidth.width(of: candidate) <= width { row = candidate; continue }
            if !row.isEmpty { rows.append(row) }
            let pieces = wrapCells(word, width: width)
            rows += pieces.dropLast()
            row = pieces.last ?? ""
        }
        rows.append(row)
        return rows
    }

    /// `text` without its first `columns` cells (a wide cluster cut in half becomes a space).
    static func dropCells(_ text: String, _ columns: Int) -> String {
        guard columns > 0 else { return text }
        var skipped = 0, out = ""
        for part in DisplayWidth.clusters(text) {
            if skipped >= columns { out += part.grapheme; continue }
            skipped += part.width
            if skipped > columns { out += String(repeating: " ", count: skipped - columns) }
        }
        return out
    }
}
