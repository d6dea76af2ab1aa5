import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

extension Template {
    /// What answers' defaults see besides the earlier answers, for a document at `destination`: `folder_name` (its
    /// folder's name without an extension) and `current_year` (the local calendar year `now`).
    public static func defaultsContext(for destination: URL, now: Date = Date()) -> [String: JSONValue] {
        ["folder_name": .string(destination.deletingPathExtension().lastPathComponent), "current_year": .string(localYear(now))]
    }

    /// The year of `date` in the local time zone, from the C library (Foundation's Calendar loads ICU's calendar data
    /// first, about half a millisecond of every `folio new`).
    static func localYear(_ date: Date) -> String {
        var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) ?? 0
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return String(CivilTime(date)?.year ?? 1970) }
        return String(Int(parts.tm_year) + 1900)
    }
}
