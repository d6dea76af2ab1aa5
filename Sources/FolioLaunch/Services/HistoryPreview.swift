import FoundationEssentials
import Glibc
import FolioTerminal

/// Draws versions of a document as its editor does, for the history browser's rendered preview.
package protocol HistoryPreviewProvider: Sendable {
    /// Version `old` and version `new` (nil: the current one) as the document's editor draws them, each at most
    /// `width` cells wide and whole (every row, to be scrolled here), compared row by row. `isStale` says when the
    /// answer is no longer wanted: the work stops between editor calls.
    func comparison(from old: String, to new: String?, width: Int, isStale: @escaping @Sendable () -> Bool) async throws -> VersionComparison
}

/// The history browser's rendered preview: `v` shows the selected version as its editor draws it beside the
/// current one (or the two versions `c … c` chose), instead of the diff.
package struct HistoryPreview: Equatable, Sendable {
    /// Which version a terminal too narrow for both shows.
    package enum Side: Equatable, Sendable { case old, new }
    /// What is drawn: two versions (`new` nil: the current one) at a render width.
    package struct Subject: Equatable, Hashable, Sendable {
        package var old: String
        package var new: String?
        package var width: Int
        package init(old: String, new: String?, width: Int) { self.old = old; self.new = new; self.width = width }
    }

    /// Whether the pane shows the versions rendered rather than the diff.
    package var shown = false
    package var side: Side = .old
    /// The comparison shown, which belongs to `subject`.
    package var comparison: VersionComparison?
    package var subject: Subject?
    /// The subject asked for last; an answer for anything else is stale and dropped.
    package var wanted: Subject?
    package var error: String?
    /// The first content row shown (both versions scroll together).
    package var scroll = 0
    package init() {}

    /// Whether what is shown is what was asked for last (else the pane says "loading…").
    package var isCurrent: Bool { wanted != nil && subject == wanted && comparison != nil }
}

extension HistoryLayout {
    /// The narrowest terminal that shows the old and the current version side by side.
    static let sideBySideWidth = 120
    var sideBySide: Bool { width >= Self.sideBySideWidth }
    /// The list's width while the preview is shown: a quarter of a wide terminal, so the two versions get the rest.
    var previewListWidth: Int { sideBySide ? max(30, width / 4) : listWidth }
    func previewX(fullScreen: Bool) -> Int { fullScreen ? 1 : previewListWidth + 2 }
    func previewWidth(fullScreen: Bool) -> Int { max(1, width - previewX(fullScreen: fullScreen) - 1) }
    /// The columns of the two versions (side by side) or of the one shown: where each starts and how wide it is.
    func previewColumns(fullScreen: Bool) -> [(x: Int, width: Int)] {
        let x = previewX(fullScreen: fullScreen), total = previewWidth(fullScreen: fullScreen)
        guard sideBySide else { return [(x, total)] }
        let left = max(1, (total - 2) / 2)
        return [(x, left), (x + left + 2, max(1, total - left - 2))]
    }
    /// The width an editor draws a version at: its column less the two-cell mark gutter.
    func previewRenderWidth(fullScreen: Bool) -> Int { max(1, (previewColumns(fullScreen: fullScreen).first?.width ?? 1) - 2) }
    /// Rows for content: below the chrome, the version's two header lines and the column titles.
    var previewRows: Int { max(1, height - 1 - 4) }
}

extension HistoryState {
    /// The subject the preview should show now: the two compared versions after `c … c`, else the selection and the
    /// current version; at the width the layout gives.
    var previewSubject: HistoryPreview.Subject? {
        let width = layout.previewRenderWidth(fullScreen: !layout.split)
        if case let .compare(a, b)? = wanted { return HistoryPreview.Subject(old: a, new: b, width: width) }
        return selectedID.map { HistoryPreview.Subject(old: $0, new: nil, width: width) }
    }

    /// Asks for the preview the state calls for, unless it is shown already or asked for; the effect to run, if any.
    /// What is on screen for another subject is replaced by "loading…" meanwhile, never shown under this header.
    package mutating func followPreview() -> AppEffect? {
        guard preview.shown, let subject = previewSubject, preview.wanted != subject else { return nil }
        if preview.wanted.map({ $0.old != subject.old || $0.new != subject.new }) ?? true { preview.scroll = 0 }
        preview.wanted = subject
        preview.error = nil
        return .loadPreview(subject)
    }

    /// `v`: between the diff and the versions rendered.
    mutating func togglePreview() {
        preview.shown.toggle()
        clampScroll()
    }

    /// `o`, below 120 columns: between the old version and the current one.
    mutating func switchPreviewSide() {
        guard preview.shown, !layout.sideBySide else { return }
        preview.side = preview.side == .old ? .new : .old
        clampPreviewScroll()
    }

    /// Takes a comparison that arrived for `subject`; one for anything but the subject wanted last is dropped.
    @discardableResult
    package mutating func receivePreview(_ comparison: VersionComparison, for subject: HistoryPreview.Subject) -> Bool {
        guard subject == preview.wanted else { return false }
        preview.comparison = comparison
        preview.subject = subject
        preview.error = nil
        clampPreviewScroll()
        return true
    }

    /// Takes a failure to draw `subject` (dropped when stale).
    @discardableResult
    package mutating func receivePreviewFailure(_ text: String, for subject: HistoryPreview.Subject) -> Bool {
        guard subject == preview.wanted else { return false }
        preview.error = text
        return true
    }

    /// The preview's content rows at `width` (side by side: aligned rows; else the shown version's rows), then the
    /// changed text word by word.
    func previewContent(width: Int) -> [PreviewRow] {
        guard let comparison = preview.comparison else { return [] }
        var rows: [PreviewRow]
        if layout.sideBySide {
            rows = comparison.rows.map { .pair(old: $0.old.map { comparison.old[$0] }, new: $0.new.map { comparison.new[$0] }, change: $0.change) }
        } else {
            rows = comparison.rows(of: preview.side).map { preview.side == .old ? .pair(old: $0.line, new: nil, change: $0.change) : .pair(old: nil, new: $0.line, change: $0.change) }
        }
        for change in comparison.textChanges {
            rows.append(.text([]))
            rows.append(.text([WordRun(.same, "── text of " + change.item + " ──")]))
            rows += PreviewRow.wrap(change.words, width: width).map(PreviewRow.text)
        }
        if !comparison.summary.isEmpty {
            rows.append(.text([]))
            rows.append(.text([WordRun(.same, "── the editor's description ──")]))
            rows += comparison.summary.flatMap { HistoryLayout.wrapWords($0, width: width) }.map { .text([WordRun(.same, $0)]) }
        }
        return rows
    }

    mutating func scrollPreview(by rows: Int) {
        preview.scroll = max(0, preview.scroll + rows)
        clampPreviewScroll()
    }

    mutating func clampPreviewScroll() {
        let width = layout.previewWidth(fullScreen: diffFullScreen)
        preview.scroll = min(preview.scroll, max(0, previewContent(width: width).count - layout.previewRows))
    }
}

/// One row of the preview pane: the two versions' rows side by side (one of them alone below 120 columns), or a row
/// of the word-level diff across the pane.
enum PreviewRow: Equatable {
    case pair(old: String?, new: String?, change: RowChange?)
    case text([WordRun])

    /// The runs laid out in rows of at most `width` cells, broken between words; removed runs read `[-…-]` and
    /// added ones `{+…+}`, so both the old and the new words are readable without colour.
    static func wrap(_ runs: [WordRun], width: Int) -> [[WordRun]] {
        var rows: [[WordRun]] = [[]]
        var used = 0
        for run in runs {
            let words = run.text.split(separator: " ").map(String.init)
            for (index, word) in words.enumerated() {
                var piece = word
                if run.kind == .removed { piece = (index == 0 ? "[-" : "") + piece + (index == words.count - 1 ? "-]" : "") }
                if run.kind == .added { piece = (index == 0 ? "{+" : "") + piece + (index == words.count - 1 ? "+}" : "") }
                // A word wider than the pane is cut across rows, so none of it is lost.
                for part in HistoryLayout.wrapCells(piece, width: max(1, width)) {
                    let cells = DisplayWidth.width(of: part) + (used > 0 ? 1 : 0)
                    if used > 0, used + cells > width { rows.append([]); used = 0 }
                    let text = (used > 0 ? " " : "") + part
                    append(WordRun(run.kind, text), to: &rows[rows.count - 1])
                    used += DisplayWidth.width(of: text)
                }
            }
        }
        return rows
    }

    private static func append(_ run: WordRun, to row: inout [WordRun]) {
        if let last = row.last, last.kind == run.kind { row[row.count - 1].text += run.text } else { row.append(run) }
    }
}
