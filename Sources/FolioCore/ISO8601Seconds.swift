import FoundationEssentials
import FolioBasics

/// Dates in the form Folio's own JSON files use, `2026-12-01T07:00:00Z`, as JSONEncoder's `.iso8601` wrote them
/// (through FolioBasics' `Timestamps`: Foundation's formatters need ICU).
enum ISO8601Seconds {
    /// `2026-12-01T07:00:00Z`: UTC, whole seconds (the fraction dropped, as JSONEncoder's `.iso8601` does).
    static func format(_ date: Date) -> String { Timestamps.iso8601(date) }

    /// A date written by `format`, or any other strict ISO 8601 form (fractional seconds, an offset); nil otherwise.
    static func parse(_ text: String) -> Date? { Timestamps.parseISO8601(text) }
}
