import FoundationEssentials
import FolioBasics
import Glibc

/// A version that arrived from elsewhere (a collaborator's change merged by sync, another window, another process):
/// who made it and what changed, as the message log shows it, and how each item changed, for the brief marks the
/// editor draws on them. Read off the UI thread by the head poll (`DocumentSession.arrival(from:to:)`).
package struct DocumentArrival: Equatable, Sendable {
    /// The version the window showed before, and the one that arrived.
    package var from: String
    package var to: String
    /// The authors of the versions that arrived (merges aside), first seen first.
    package var authors: [String]
    /// What changed, in the editor's words (its semantic diff, as the history browser shows it); the versions'
    /// summaries when the editor has none.
    package var description: [String]
    /// How each item changed, by the item's key in the new version ("3", "1.2"); nil when the editor lists no items.
    package var marks: ItemMarks?

    package init(from: String, to: String, authors: [String], description: [String], marks: ItemMarks? = nil) {
        self.from = from; self.to = to; self.authors = authors; self.description = description; self.marks = marks
    }

    /// How many lines of the description the log line names before "and N more".
    static let describedLines = 3

    /// The message log's line: "Ana: added 'Tea'; checked 'Milk'", who first; "a new version" when nothing says what.
    package var logLine: String {
        let who = authors.isEmpty ? "someone" : authors.joined(separator: ", ")
        let lines = description.map { $0.trimming(.whitespaces) }.filter { !$0.isEmpty }
        var what = lines.prefix(Self.describedLines).joined(separator: "; ")
        if lines.count > Self.describedLines { what += "; and \(lines.count - Self.describedLines) more" }
        return "\(who): " + (what.isEmpty ? "a new version" : what)
    }
}

/// The marks an arrival leaves on the items it touched, until `until` (the editor then draws them no more).
package struct ArrivalMarks: Equatable, Sendable {
    /// By the item's key: added, changed or moved.
    package var items: [String: RowChange]
    package var until: Date

    /// How long an arrival's marks show.
    package static let duration: TimeInterval = 5

    package init(items: [String: RowChange], until: Date) { self.items = items; self.until = until }

    /// The mark on the item drawn on `line` at `now`, nil when it has none or the marks have expired.
    package func mark(_ line: String, at now: Date) -> RowChange? {
        guard now < until, let key = ItemMarks.key(line) else { return nil }
        return items[key]
    }
}
