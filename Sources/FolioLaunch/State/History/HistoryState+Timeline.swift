import FoundationEssentials
import Glibc
import FolioTerminal

/// A row of the history list: a day's heading or a version (its index in `entries`).
package enum HistoryRow: Equatable, Sendable {
    case day(Int)
    case entry(Int)
}

extension HistoryState {
    /// Versions asked for at a time while the list is scrolled: enough for a screen or two.
    static let scrollPage = 50
    /// Versions asked for at a time while looking for something (End, a date, a filter): few round trips through
    /// the run loop on a long history, each page still quick (a 10,000-version history in five).
    static let searchPage = 2000

    // MARK: What the list shows

    /// The indices in `entries` of the versions the filter lets through, newest first.
    package var visible: [Int] {
        guard timeline.matchedCount < entries.count else { return timeline.matches }
        return timeline.matches + (timeline.matchedCount..<entries.count).filter { timeline.filter.matches(entries[$0]) }
    }

    /// Brings the filter's matches up to date with the entries loaded (from `start` on, after a filter change).
    mutating func refreshMatches(from start: Int? = nil) {
        if let start {
            timeline.matches.removeAll { $0 >= start }
            timeline.matchedCount = min(timeline.matchedCount, start)
        }
        guard timeline.matchedCount < entries.count else { return }
        timeline.matches += (timeline.matchedCount..<entries.count).filter { timeline.filter.matches(entries[$0]) }
        timeline.matchedCount = entries.count
    }

    /// The day `entries[index]` was made on, nil when its time is unknown.
    func day(ofEntry index: Int) -> Int? {
        entries[index].time.map { HistoryDay.day(of: $0, in: timeline.timeZone) }
    }

    /// The version's number (`@N`, 1 = the first), when the history's length is known.
    package func number(ofEntry index: Int) -> Int? {
        guard let total = timeline.total, index < total else { return nil }
        return total - index
    }

    /// How the version at `index` is named to the user: "@5", else its short id.
    func label(ofEntry index: Int) -> String {
        number(ofEntry: index).map { "@\($0)" } ?? entries[index].shortID
    }

    /// The rows shown from visible position `top`, at most `room`: the top version's day first (so the day is
    /// always on screen), then a heading wherever the day changes. A heading never ends the list.
    func rows(from top: Int, room: Int, visible: [Int]) -> [HistoryRow] {
        var rows: [HistoryRow] = []
        var previous: Int?
        var position = max(0, top)
        while rows.count < room, position < visible.count {
            let index = visible[position]
            if let day = day(ofEntry: index), position == top || day != previous {
                if rows.count + 1 >= room { break }
                rows.append(.day(day))
            }
            previous = day(ofEntry: index)
            rows.append(.entry(index))
            position += 1
        }
        return rows
    }

    /// The rows the list has for versions and days (below the filter line; above "loading…" while a page loads).
    var listRoom: Int {
        max(1, viewHeight - 2 - (timeline.filterField != nil || !timeline.filter.isEmpty ? 1 : 0) - (loading ? 1 : 0))
    }

    /// The visible position of the selection, nil when the filter hides it.
    func selectedPosition(in visible: [Int]) -> Int? {
        var low = 0, high = visible.count
        while low < high {
            let mid = (low + high) / 2
            if visible[mid] < selection { low = mid + 1 } else { high = mid }
        }
        return low < visible.count && visible[low] == selection ? low : nil
    }

    /// The first position to draw from so that position `position` is on screen, starting from `top`.
    func top(showing position: Int, from top: Int, room: Int, visible: [Int]) -> Int {
        if position < top { return position }
        var top = max(top, position - room + 1)
        while top < position, !rows(from: top, room: room, visible: visible).contains(.entry(visible[position])) { top += 1 }
        return top
    }

    /// The last top that still fills the list: the oldest version on its last row, or above "— first commit —"
    /// once the whole history is loaded.
    func lastTop(room: Int, visible: [Int]) -> Int {
        visible.indices.last.map { topEnding(at: $0, room: exhausted ? max(1, room - 1) : room, visible: visible) } ?? 0
    }

    /// The first top from which the version at `position` is still on screen (it is then on the list's last rows).
    func topEnding(at position: Int, room: Int, visible: [Int]) -> Int {
        var top = position
        while top > 0, rows(from: top - 1, room: room, visible: visible).contains(.entry(visible[position])) { top -= 1 }
        return top
    }

    // MARK: Moving

    /// Selects the visible version at `position` (clamped), keeps it on screen and asks for its diff.
    mutating func select(position: Int, visible: [Int], effects: inout [AppEffect]) {
        guard !visible.isEmpty else { return }
        let position = min(max(0, position), visible.count - 1)
        selection = visible[position]
        timeline.top = top(showing: position, from: timeline.top, room: listRoom, visible: visible)
        if let effect = followSelection() { effects.append(effect) }
    }

    /// ↑↓ j/k, Home/End and PgUp/PgDn on the list. PgDn scrolls so that the last version shown is the first, PgUp
    /// so that the first is the last (never past either end), and the selection moves a page with it, so PgDn then
    /// PgUp comes back.
    /// End and a page past what is loaded ask for more first.
    mutating func moveInList(_ key: Key, effects: inout [AppEffect]) {
        let visible = visible
        let position = selectedPosition(in: visible) ?? 0
        let room = listRoom
        let top = min(timeline.top, max(0, visible.count - 1))
        timeline.goal = nil
        switch key {
        case .up, .character("k"): select(position: position - 1, visible: visible, effects: &effects)
        case .down, .character("j"): select(position: position + 1, visible: visible, effects: &effects)
        case .home:
            timeline.top = 0
            select(position: 0, visible: visible, effects: &effects)
        case .end:
            guard exhausted else { timeline.goal = .end; break }
            timeline.top = lastTop(room: room, visible: visible)
            select(position: visible.count - 1, visible: visible, effects: &effects)
        case .pageUp:
            guard top > 0 else { select(position: 0, visible: visible, effects: &effects); break }
            let step = max(1, top - topEnding(at: top, room: room, visible: visible))
            timeline.top = max(0, top - step)
            select(position: position - step, visible: visible, effects: &effects)
        case .pageDown:
            let lastShown = rows(from: top, room: room, visible: visible).reversed().lazy.compactMap { row -> Int? in
                if case let .entry(index) = row { return index } else { return nil }
            }.first.flatMap { visible.firstIndex(of: $0) } ?? top
            let step = max(1, lastShown - top)
            timeline.top = max(top, min(top + step, lastTop(room: room, visible: visible)))
            select(position: position + step, visible: visible, effects: &effects)
        default: return
        }
        if let effect = moreIfNeeded() { effects.append(effect) }
    }

    /// Asks for the next page when something needs it: a goal, a filter still searching, or the selection near the
    /// end of what is loaded.
    mutating func moreIfNeeded() -> AppEffect? {
        guard !exhausted, !loading, !entries.isEmpty else { return nil }
        let searching = timeline.goal != nil || !timeline.filter.isEmpty
        let visible = visible
        let nearEnd = (selectedPosition(in: visible) ?? 0) >= visible.count - 3
        guard searching || nearEnd else { return nil }
        loading = true
        return .loadHistoryPage(after: next, limit: searching ? Self.searchPage : Self.scrollPage)
    }

    // MARK: Pages arriving

    /// Takes a page (`receive`), then picks up what it was loaded for: the result of a restore or undo on the
    /// first page, the version a goal looks for, the first match of a filter; and asks for more while needed.
    package mutating func arrived(_ page: HistoryPage) -> [AppEffect] {
        var effects: [AppEffect] = []
        let first = entries.isEmpty
        if let total = page.total { timeline.total = total }
        if first, let change = timeline.change { selection = reportChange(change, page: page) }
        if let effect = receive(page) { effects.append(effect) }
        refreshMatches()
        let visible = visible
        if selectedPosition(in: visible) == nil, !visible.isEmpty, timeline.goal == nil {
            select(position: 0, visible: visible, effects: &effects)
        }
        reachGoal(visible: visible, effects: &effects)
        if let effect = moreIfNeeded() { effects.append(effect) }
        return effects
    }

    /// Selects what the goal looks for once it is loaded (or the history is), with a status line saying what was found.
    mutating func reachGoal(visible: [Int], effects: inout [AppEffect]) {
        guard let goal = timeline.goal else { return }
        switch goal {
        case .end:
            guard exhausted else { return }
            timeline.top = lastTop(room: listRoom, visible: visible)
            select(position: visible.count - 1, visible: visible, effects: &effects)
        case let .day(target):
            if let position = visible.firstIndex(where: { day(ofEntry: $0).map { $0 <= target } ?? false }) {
                let found = day(ofEntry: visible[position]) ?? target
                timeline.status = found == target ? "\(HistoryDay.label(target)): the last version that day"
                    : "No version on \(HistoryDay.label(target)); the one before it, \(HistoryDay.label(found))"
                select(position: position, visible: visible, effects: &effects)
            } else if exhausted {
                timeline.status = visible.isEmpty ? "No version to show" : "Nothing on or before \(HistoryDay.label(target)); the first version"
                select(position: visible.count - 1, visible: visible, effects: &effects)
            } else { return }
        case let .version(n):
            guard let total = timeline.total else { return }
            guard n <= total else { timeline.status = "There is no @\(n): the newest version is @\(total)"; break }
            let index = total - n
            guard index < entries.count else { return }
            if !visible.contains(index) {
                timeline.filter = HistoryFilter()
                timeline.filterField = nil
                refreshMatches(from: 0)
                timeline.status = "@\(n) (the filter was cleared to show it)"
            }
            select(position: self.visible.firstIndex(of: index) ?? 0, visible: self.visible, effects: &effects)
        }
        timeline.goal = nil
    }

    /// The row the first page of a reloaded list selects after `change`, and the status line saying what happened.
    mutating func reportChange(_ change: HistoryChange, page: HistoryPage) -> Int {
        timeline.change = nil
        let newest = page.entries.first
        let now = page.total.map { "@\($0)" } ?? newest?.shortID ?? ""
        switch change {
        case let .restore(commitID, label):
            let mark = "Restore to \(commitID.prefix(7))"
            guard let index = page.entries.firstIndex(where: { $0.message.hasPrefix(mark) }) else {
                timeline.status = "Restored \(label) — u to undo"
                return 0
            }
            let number = page.total.map { "@\($0 - index)" } ?? page.entries[index].shortID
            timeline.status = "Restored \(label) as \(number) — u to undo"
            return index
        case .undo:
            timeline.status = "Undone: “\(newest.map { Self.undoneSummary($0.message, prefix: "Undo: ") } ?? "")”, as \(now) — ^Y to redo"
        case .redo:
            timeline.status = "Redone: “\(newest.map { Self.undoneSummary($0.message, prefix: "Redo: ") } ?? "")”, as \(now) — u to undo"
        case let .arrived(kept):
            return kept.flatMap { id in page.entries.firstIndex { $0.id == id } } ?? 0
        }
        return 0
    }

    static func undoneSummary(_ message: String, prefix: String) -> String {
        message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }

    /// A fresh list for after a change made here (restore, undo, redo): the terminal size, time zone and the change
    /// to report are kept; everything else is read again.
    package func reloaded() -> HistoryState {
        var fresh = HistoryState()
        fresh.viewWidth = viewWidth
        fresh.viewHeight = viewHeight
        fresh.timeline.timeZone = timeline.timeZone
        fresh.timeline.today = timeline.today
        fresh.timeline.change = timeline.change
        return fresh
    }

    // MARK: Filter and jump

    /// Applies the filter as typed: the list shows its matches, the newest selected; more pages load while it searches.
    mutating func setFilter(_ text: String, effects: inout [AppEffect]) {
        guard text != timeline.filter.text else { return }
        timeline.filter = HistoryFilter(text)
        refreshMatches(from: 0)
        timeline.top = 0
        let visible = visible
        if !visible.isEmpty { select(position: 0, visible: visible, effects: &effects) }
        if let effect = moreIfNeeded() { effects.append(effect) }
    }

    /// Jumps as the jump field says (or leaves the field open with why it cannot).
    mutating func jump(_ text: String, effects: inout [AppEffect]) {
        let today = timeline.today ?? HistoryDay.day(of: Date(), in: timeline.timeZone)
        do {
            switch try HistoryJump.parse(text, today: today) {
            case let .day(day): timeline.goal = .day(day)
            case let .version(n): timeline.goal = .version(n)
            }
        } catch {
            timeline.jumpProblem = error.description
            return
        }
        timeline.jumpField = nil
        timeline.jumpProblem = nil
        reachGoal(visible: visible, effects: &effects)
        if let effect = moreIfNeeded() { effects.append(effect) }
    }

    /// The filter line: "12 of 340 versions", with how far the search has got while it goes on.
    var filterCount: String {
        let shown = visible.count
        let total = timeline.total ?? entries.count
        let noun = total == 1 ? "version" : "versions"
        guard !exhausted, entries.count < total else { return "\(shown) of \(total) \(noun)" }
        return "\(shown) of \(total) \(noun) · searched \(entries.count)…"
    }
}

extension HistoryState {
    /// Whether the history browser reads its list again after `effect` succeeds: a restore, an undo or a redo made
    /// here change the newest version, which the reloaded list selects and reports.
    package static func reloadsAfter(_ effect: AppEffect) -> Bool {
        switch effect {
        case .restore: return true
        case let .runEditorCommand(id, _, _, _): return id == "folio.undo" || id == "folio.redo"
        default: return false
        }
    }
}

extension AppState {
    /// Whether the history browser waits for a page (the run loop then looks for it more often).
    package var historyIsLoading: Bool {
        if case let .history(history, _) = screen { return history.loading }
        return false
    }
}
