import FoundationEssentials
import FolioBasics
import Glibc
import FolioTerminal

/// The history browser's timeline: the filter, the jump to a date or version, the list's scroll, what is being
/// loaded for (End, a date, a filter), the status line and the change being made (a restore, an undo). Kept in
/// `HistoryState.timeline`; the behaviour is in `HistoryState+Timeline.swift`.
package struct HistoryTimeline: Equatable, Sendable {
    /// The filter as it is typed (`/`); nil when not typing (a filter kept with ⏎ stays in `filter`).
    package var filterField: TextField?
    /// The filter applied to the list.
    package var filter = HistoryFilter()
    /// The jump field (`g`) while it is open, and why its text was refused.
    package var jumpField: TextField?
    package var jumpProblem: String?
    /// The positions in `entries` of the versions the filter lets through, for the first `matchedCount` entries.
    package var matches: [Int] = []
    package var matchedCount = 0
    /// The first visible version shown at the top of the list (an index into the visible versions).
    package var top = 0
    /// What more pages are being loaded for, if anything.
    package var goal: HistoryGoal?
    /// A one-line status shown instead of the key hints until the next key ("Restored @5 as @12 — u to undo").
    package var status: String?
    /// How many versions the history holds (from the provider), which numbers them: the newest is @total.
    package var total: Int?
    /// The time zone days are counted in (the user's; tests fix it) and today's day in it (set by the run loop).
    package var timeZone: ClockZone = .local
    package var today: Int?
    /// The change in progress from this screen, reported when the reloaded list arrives.
    package var change: HistoryChange?
    package init() {}

    /// Whether a field takes the keys.
    package var isTyping: Bool { filterField != nil || jumpField != nil }
}

/// What more pages of the history are being loaded for.
package enum HistoryGoal: Equatable, Sendable {
    /// End: the oldest version.
    case end
    /// A date: the newest version made on or before this day.
    case day(Int)
    /// `@N`: the Nth version.
    case version(Int)
}

/// A change made from the history browser, remembered until the reloaded list shows its result.
package enum HistoryChange: Equatable, Sendable {
    /// Restoring the version with this id, shown as `label` ("@5").
    case restore(commitID: String, label: String)
    case undo
    case redo
    /// The document moved on from elsewhere (a version arrived): the version selected before (nil: the newest) stays
    /// selected when the reloaded first page holds it, else the newest is.
    case arrived(keeping: String?)
}

/// Which versions the list shows: every word of the filter (case ignored) must appear in the version's message or
/// one of its tags; `tag:WORD` looks in tags only, and `tag:` alone keeps the named versions; `item:KEY` kept with ⏎
/// shows the versions that changed that item (the item's history, as `H` in the editor opens it).
package struct HistoryFilter: Equatable, Sendable {
    package private(set) var text = ""
    private var terms: [String] = []
    package init(_ text: String = "") {
        self.text = text
        terms = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    package var isEmpty: Bool { terms.isEmpty }

    /// The item an `item:KEY` term names (`3`, `1.2`: as the editor's view numbers it), nil when there is none.
    package var item: String? {
        terms.lazy.filter { $0.hasPrefix("item:") }.map { String($0.dropFirst(5)) }
            .first { !$0.isEmpty && $0.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) } }
    }

    /// Whether `entry` is shown.
    package func matches(_ entry: HistoryEntry) -> Bool {
        guard !terms.isEmpty else { return true }
        let message = entry.message.lowercased()
        let tags = entry.tags.map { $0.lowercased() }
        return terms.allSatisfy { term in
            if term.hasPrefix("tag:") {
                let word = term.dropFirst(4)
                return word.isEmpty ? !tags.isEmpty : tags.contains { $0.contains(word) }
            }
            // `item:KEY` narrows by item on ⏎: the list becomes that item's history (`item`), not a text match.
            if term.hasPrefix("item:") { return true }
            return message.contains(term) || tags.contains { $0.contains(term) }
        }
    }
}

/// Days as the timeline counts them: whole days since 1970-01-01 in a time zone, labelled without a locale
/// ("Mon 30 Nov 2026"), so the list reads the same on every machine given the same `TZ`.
package enum HistoryDay {
    /// The day `date` falls on in `timeZone`.
    package static func day(of date: Date, in timeZone: ClockZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromUTC(at: date))
        guard local.isFinite, abs(local) < 1e15 else { return 0 }
        return Int((local / 86_400).rounded(.down))
    }

    /// "HH:mm" of `date` in `timeZone`.
    package static func clock(of date: Date, in timeZone: ClockZone) -> String {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromUTC(at: date))
        guard local.isFinite, abs(local) < 1e15 else { return "--:--" }
        let seconds = Int(local.rounded(.down)) - day(of: date, in: timeZone) * 86_400
        let hours = seconds / 3600, minutes = seconds % 3600 / 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Mon 30 Nov 2026".
    package static func label(_ day: Int) -> String {
        let (year, month, dayOfMonth) = civil(day)
        return "\(weekdays[((day % 7) + 7) % 7]) \(dayOfMonth) \(months[month - 1]) \(year)"
    }

    /// "Today", "Yesterday", else the date.
    package static func heading(_ day: Int, today: Int?) -> String {
        if day == today { return "Today" }
        if let today, day == today - 1 { return "Yesterday" }
        return label(day)
    }

    /// The day of a date in the proleptic Gregorian calendar (`CivilTime.days`).
    package static func day(year: Int, month: Int, day: Int) -> Int {
        CivilTime.days(year: year, month: month, day: day)
    }

    /// The year, month (1–12) and day of month of `day` (`CivilTime.civil`).
    package static func civil(_ day: Int) -> (year: Int, month: Int, day: Int) {
        CivilTime.civil(day)
    }
}

/// Where `g` jumps: a date (the newest version made on or before it) or a version number.
package enum HistoryJump: Equatable, Sendable {
    case day(Int)
    case version(Int)

    /// What the jump field accepts, as its hint says it.
    package static let accepted = "YYYY-MM-DD · today · yesterday · 3 days ago · 2 weeks ago · 1 month ago · @N"

    /// Reads the jump field: `2026-11-30`, `today`, `yesterday`, `N day(s)/week(s)/month(s)/year(s) ago`, or `@N`
    /// (case and extra spaces ignored). Throws the one line to show for anything else.
    package static func parse(_ text: String, today: Int) throws(HistoryJumpProblem) -> HistoryJump {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        if words.count == 1, words[0].hasPrefix("@") {
            guard let n = Int(words[0].dropFirst()), n >= 1 else { throw HistoryJumpProblem(text: text, why: "versions are numbered from @1") }
            return .version(n)
        }
        if words == ["today"] { return .day(today) }
        if words == ["yesterday"] { return .day(today - 1) }
        if words.count == 3, words[2] == "ago", let n = Int(words[0]), (0...100_000).contains(n) {
            let (year, month, day) = HistoryDay.civil(today)
            switch words[1] {
            case "day", "days": return .day(today - n)
            case "week", "weeks": return .day(today - 7 * n)
            case "month", "months": return .day(monthsBack(n, year: year, month: month, day: day))
            case "year", "years": return .day(monthsBack(12 * n, year: year, month: month, day: day))
            default: break
            }
        }
        if words.count == 1, let day = isoDay(words[0]) { return .day(day) }
        throw HistoryJumpProblem(text: text, why: "write a date as " + accepted)
    }

    /// `YYYY-MM-DD` as a day, nil when it is not one (a month or day out of range included).
    static func isoDay(_ word: String) -> Int? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), day >= 1 else { return nil }
        guard day <= daysIn(year: year, month: month) else { return nil }
        return HistoryDay.day(year: year, month: month, day: day)
    }

    static func daysIn(year: Int, month: Int) -> Int {
        HistoryDay.day(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1) - HistoryDay.day(year: year, month: month, day: 1)
    }

    /// The same day of the month `n` months before (the month's last day when it is shorter).
    static func monthsBack(_ n: Int, year: Int, month: Int, day: Int) -> Int {
        let index = year * 12 + (month - 1) - n
        let (y, m) = (index >= 0 ? index / 12 : (index - 11) / 12, ((index % 12) + 12) % 12 + 1)
        return HistoryDay.day(year: y, month: m, day: min(day, daysIn(year: y, month: m)))
    }
}

/// Text the jump field cannot read, and why (one line).
package struct HistoryJumpProblem: Error, Equatable, CustomStringConvertible {
    package var text: String
    package var why: String
    package var description: String { "can't read “\(text)”: \(why)" }
}
