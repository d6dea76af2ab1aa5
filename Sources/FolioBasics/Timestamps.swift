import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A moment as a calendar shows it: Gregorian date and time of day at a fixed offset from UTC. Computed from epoch
/// seconds by arithmetic (no time-zone database, no ICU); the local offset comes from the C library (`TZ`).
public struct CivilTime: Equatable, Sendable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    /// Seconds east of UTC (`+01:00` is 3600).
    public var offset: Int

    /// The civil time of `seconds` since 1970 at `offset` seconds east of UTC; nil when the year would leave
    /// -9999...9999 or `offset` is a day or more.
    public init?(seconds: Int64, offset: Int = 0) {
        guard offset.magnitude < 86_400, seconds.magnitude < 400_000_000_000 else { return nil }
        let local = seconds + Int64(offset)
        let days = Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
        let timeOfDay = Int(local - Int64(days) * 86_400)
        (year, month, day) = Self.civil(days)
        guard (-9999...9999).contains(year) else { return nil }
        hour = timeOfDay / 3600; minute = timeOfDay % 3600 / 60; second = timeOfDay % 60
        self.offset = offset
    }

    /// The civil time of `date` (fractions of a second dropped, rounding down) at `offset` seconds east of UTC.
    public init?(_ date: Date, offset: Int = 0) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard let whole = Int64(exactly: seconds) else { return nil }
        self.init(seconds: whole, offset: offset)
    }

    /// The civil time of `date` in the local time zone (the C library's, from `TZ`).
    public static func local(_ date: Date) -> CivilTime? {
        CivilTime(date, offset: Timestamps.localOffset(at: date))
    }

    /// Seconds since 1970 of this civil time.
    public var epochSeconds: Int64 {
        Int64(Self.days(year: year, month: month, day: day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`). Integer arithmetic
    /// only: async-signal-safe.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

    /// The proleptic Gregorian date (month 1–12) of `days` since 1970-01-01 (Hinnant's `civil_from_days`). Integer
    /// arithmetic only: async-signal-safe.
    public static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * mp + 2) / 5 + 1)
    }

    /// Days in `month` of `year` (0 for a month outside 1...12).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        default: return 0
        }
    }
}

/// Timestamps as Folio writes and reads them, without Foundation's formatters (which need ICU and its 34 MB of data):
/// ISO 8601 (`2026-12-01T07:00:00Z`), the `yyyy-MM-dd HH:mm` of history lists, clock times.
public enum Timestamps {
    /// Seconds east of UTC of the local time zone at `date` (the C library's `localtime_r`, so `TZ` applies); 0 when
    /// the C library cannot tell.
    public static func localOffset(at date: Date) -> Int {
        guard let whole = Int64(exactly: date.timeIntervalSince1970.rounded(.down)), let seconds = time_t(exactly: whole) else { return 0 }
        var clock = seconds
        var parts = tm()
        guard localtime_r(&clock, &parts) != nil else { return 0 }
        return parts.tm_gmtoff.magnitude < 86_400 ? parts.tm_gmtoff : 0
    }

    /// `2026-12-01T07:00:00Z`: UTC, whole seconds (what JSONEncoder's `.iso8601` and `ISO8601DateFormatter` write).
    /// Dates outside the years 0...9999 are written as the nearest of those limits.
    public static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isNaN ? 0 : min(max(seconds, -62_167_219_200), 253_402_300_799)
        guard let time = CivilTime(Date(timeIntervalSince1970: clamped)) else { return "1970-01-01T00:00:00Z" }
        return Self.date(time) + "T" + clock(time) + "Z"
    }

    /// A strict ISO 8601 date and time, `YYYY-MM-DDTHH:MM:SS` with optional fractional seconds and `Z` or `±HH:MM`;
    /// nil for anything else (a day the month does not have, a 24th hour, trailing text).
    public static func parseISO8601(_ text: String) -> Date? {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.number(4), reader.skip("-"), let month = reader.number(2), reader.skip("-"), let day = reader.number(2),
              reader.skip("T") || reader.skip("t"), let hour = reader.number(2), reader.skip(":"), let minute = reader.number(2),
              reader.skip(":"), let second = reader.number(2),
              (1...12).contains(month), (1...CivilTime.daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            guard let (value, count) = reader.fraction(), count > 0 else { return nil }
            fraction = value
        }
        let offset: Int
        if reader.skip("Z") || reader.skip("z") {
            offset = 0
        } else if let sign = reader.sign(), let hours = reader.number(2), reader.skip(":"), let minutes = reader.number(2), hours < 24, minutes < 60 {
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd else { return nil }
        let time = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
        return Date(timeIntervalSince1970: Double(time.epochSeconds) + fraction)
    }

    /// `2026-12-01 07:00` in the local time zone (history lists).
    public static func localMinute(_ date: Date) -> String {
        guard let time = CivilTime.local(date) else { return "????-??-?? ??:??" }
        return self.date(time) + " " + two(time.hour) + ":" + two(time.minute)
    }

    /// `07:00:03` in the local time zone.
    public static func localClock(_ date: Date) -> String {
        guard let time = CivilTime.local(date) else { return "??:??:??" }
        return clock(time)
    }

    /// `20261201T070003Z`: UTC, digits only, for names (conflict refs, backup files).
    public static func compactUTC(_ date: Date) -> String {
        iso8601(date).filter { $0 != "-" && $0 != ":" }
    }

    /// `2026-12-01` of `time` (the year padded to four digits, a minus sign before years BC).
    public static func date(_ time: CivilTime) -> String {
        let year = time.year.magnitude
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return (time.year < 0 ? "-" : "") + yearText + "-" + two(time.month) + "-" + two(time.day)
    }

    /// `07:00:03` of `time`.
    public static func clock(_ time: CivilTime) -> String {
        two(time.hour) + ":" + two(time.minute) + ":" + two(time.second)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension CivilTime {
    /// A civil time from its parts, unchecked (the parser checks them first).
    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second; self.offset = offset
    }
}

/// Reads fixed-width ASCII digits and punctuation from the front of a byte array, never past its end.
private struct DigitReader {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// The next `count` bytes as a decimal number, when all are digits (count ≤ 4, so it cannot overflow).
    mutating func number(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + count)] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += count
        return value
    }

    /// Skips `character` when it is next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// +1 or -1 for a leading `+` or `-`, consumed.
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }

    /// The digits after a decimal point as a fraction, and how many there were.
    mutating func fraction() -> (Double, Int)? {
        var value = 0.0, scale = 0.1, count = 0
        while index < bytes.count, (48...57).contains(bytes[index]) {
            value += Double(bytes[index] - 48) * scale
            scale /= 10; count += 1; index += 1
        }
        return (value, count)
    }
}
