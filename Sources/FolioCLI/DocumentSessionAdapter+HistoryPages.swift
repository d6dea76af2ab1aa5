import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioLaunch

extension DocumentSessionAdapter {
    /// A page of the history browser's list. The cursor names the version the list began at and how many versions
    /// it has passed (`START:POSITION`), so later pages come from the same history even after a change here or in
    /// another window; the walk is kept between pages, so the next one goes on from where the last stopped instead
    /// of walking again past everything listed (10,000 versions in pages of 50: 200 walks from the top before).
    func page(after cursor: String?, limit: Int) throws -> HistoryPage {
        try locked {
            let position = try pagesPositioned(at: HistoryCursor(cursor))
            let entries = try position.pages.next(max(1, limit))
            let mapped = entries.map { entry in
                FolioLaunch.HistoryEntry(id: entry.id, message: entry.summary, author: entry.author,
                                         date: Self.dateText(entry.time), tags: entry.tags, time: entry.time)
            }
            let next = position.pages.isFinished ? nil : HistoryCursor(start: position.pages.start, position: position.pages.position).text
            return HistoryPage(entries: mapped, next: next, total: position.total)
        }
    }

    /// The kept walk when it stands where `cursor` points, else a new one from the cursor's version, moved there.
    private func pagesPositioned(at cursor: HistoryCursor?) throws -> (pages: HistoryPages, total: Int) {
        if let kept = historyWalk, let cursor, kept.pages.start == cursor.start, kept.pages.position == cursor.position { return kept }
        let pages = try document.historyPages(from: cursor?.start)
        try pages.skip(cursor?.position ?? 0)
        let total = try historyWalk.flatMap { $0.pages.start == pages.start ? $0.total : nil } ?? document.versionCount(from: pages.start)
        historyWalk = (pages, total)
        return (pages, total)
    }
}

/// Where the next page of the history browser's list starts: the version the list began at, and how many versions
/// before it were listed. Made here and only read back here; text that does not parse starts from the newest.
struct HistoryCursor: Equatable {
    var start: String
    var position: Int

    init(start: String, position: Int) { self.start = start; self.position = position }

    init?(_ text: String?) {
        guard let text, let colon = text.lastIndex(of: ":"), let position = Int(text[text.index(after: colon)...]), position >= 0 else { return nil }
        let start = String(text[..<colon])
        guard start.count == 40, start.allSatisfy(\.isHexDigit) else { return nil }
        self.init(start: start, position: position)
    }

    var text: String { "\(start):\(position)" }
}
