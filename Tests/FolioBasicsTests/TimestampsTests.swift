import FolioBasics
import Foundation
import XCTest

/// Folio's own timestamps write and read what Foundation's ICU formatters wrote and read, and refuse what they
/// should refuse, without trapping on any input.
final class TimestampsTests: XCTestCase {
    private func foundationISO(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    func testISO8601TextIsWhatFoundationWrote() {
        // Given moments around 1970, a leap day, 2038's 32-bit limit, far futures and a spread of others
        var seconds: [Double] = [0, -1, 1, 951_782_400, 1_709_164_800, 2_147_483_647, 2_147_483_648, 4_102_444_800,
                                 253_402_300_799, -2_208_988_800, 1_764_572_400.75]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 { seconds.append(Double(Int64.random(in: -2_000_000_000...20_000_000_000, using: &generator))) }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            // When each is written / Then it reads as ISO8601DateFormatter wrote it
            XCTAssertEqual(Timestamps.iso8601(date), foundationISO(date), "\(value)")
        }
    }

    func testISO8601ReadsBackWhatItWrote() {
        // Given moments including negative ones and years past 2038
        for value: Int64 in [0, -86_401, 951_868_799, 2_147_483_648, 32_503_680_000, 253_402_300_799] {
            let text = Timestamps.iso8601(Date(timeIntervalSince1970: Double(value)))
            // When read back / Then it is the same moment
            XCTAssertEqual(Timestamps.parseISO8601(text)?.timeIntervalSince1970, Double(value), text)
        }
    }

    func testOffsetsAndFractionsAreReadAsFoundationReadThem() throws {
        // Given dates with positive and negative offsets and fractional seconds
        let cases = ["2026-12-01T07:00:00+01:00", "2026-12-01T07:00:00-05:30", "1969-12-31T23:00:00-01:00", "2024-02-29T12:00:00Z",
                     "2038-01-19T03:14:08Z", "2000-02-29T00:00:00+14:00"]
        for text in cases {
            // When read / Then the moment is Foundation's
            let expected = try XCTUnwrap(ISO8601DateFormatter().date(from: text), text)
            XCTAssertEqual(Timestamps.parseISO8601(text), expected, text)
        }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expected = try XCTUnwrap(fractional.date(from: "2026-11-29T17:39:16.250Z"))
        XCTAssertEqual(try XCTUnwrap(Timestamps.parseISO8601("2026-11-29T17:39:16.250Z")).timeIntervalSince1970,
                       expected.timeIntervalSince1970, accuracy: 0.0005)
    }

    func testInvalidDatesAreRefusedNotNormalized() {
        // Given text that is not a strict ISO 8601 date and time (days the month lacks, non-leap years, out-of-range
        // parts, truncation, trailing text, other digits)
        let invalid = ["", "2026", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
                       "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T23:60:00Z",
                       "2026-12-01T07:00:00", "2026-12-01T07:00:00Zjunk", "2026-12-01T07:00:00.Z", "2026-12-01T07:00:00+5:00",
                       "2026-12-01T07:00:00+24:00", "2026-12-01 07:00:00Z", "٢٠٢٦-12-01T07:00:00Z", "+2026-12-01T07:00:00Z",
                       String(repeating: "9", count: 10_000)]
        for text in invalid {
            // When read / Then there is no date (and no trap)
            XCTAssertNil(Timestamps.parseISO8601(text), text)
        }
        // And the leap days that exist are read
        XCTAssertNotNil(Timestamps.parseISO8601("2000-02-29T00:00:00Z"))
        XCTAssertNotNil(Timestamps.parseISO8601("2024-02-29T23:59:59Z"))
    }

    func testExtremeMomentsNeverTrap() {
        // Given moments no calendar holds
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300, Double(Int64.max), Double(Int64.min)] {
            let date = Date(timeIntervalSince1970: value)
            // When formatted / Then each gives text, and civil times refuse them
            XCTAssertFalse(Timestamps.iso8601(date).isEmpty)
            XCTAssertFalse(Timestamps.localMinute(date).isEmpty)
            XCTAssertFalse(Timestamps.localClock(date).isEmpty)
        }
        XCTAssertNil(CivilTime(seconds: .max))
        XCTAssertNil(CivilTime(seconds: .min))
        XCTAssertNil(CivilTime(seconds: 0, offset: 86_400))
    }

    func testNegativeOffsetsCrossDaysAndYears() throws {
        // Given New Year 1970 UTC seen five and a half hours west
        let time = try XCTUnwrap(CivilTime(seconds: 0, offset: -19_800))
        // Then it is the evening before, in 1969
        XCTAssertEqual([time.year, time.month, time.day, time.hour, time.minute], [1969, 12, 31, 18, 30])
        XCTAssertEqual(time.epochSeconds, 0)
    }

    func testLocalTimesAreWhatFoundationShowedInTheSameZone() throws {
        // Given the process in New York's zone (daylight saving on and off) and in Kolkata's
        let saved = ProcessInfo.processInfo.environment["TZ"]
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        for zone in ["America/New_York", "Asia/Kolkata", "UTC"] {
            setenv("TZ", zone, 1)
            tzset()
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = try XCTUnwrap(TimeZone(identifier: zone))
            for value: Double in [0.0, 1_710_054_000, 1_710_054_000 + 7200, 1_730_613_600, 2_147_483_648, 1_764_572_400] {
                let date = Date(timeIntervalSince1970: value)
                // When shown as history lists and clocks show them / Then as DateFormatter showed them
                formatter.dateFormat = "yyyy-MM-dd HH:mm"
                XCTAssertEqual(Timestamps.localMinute(date), formatter.string(from: date), "\(zone) \(value)")
                formatter.dateFormat = "HH:mm:ss"
                XCTAssertEqual(Timestamps.localClock(date), formatter.string(from: date), "\(zone) \(value)")
                XCTAssertEqual(Timestamps.localOffset(at: date), formatter.timeZone.secondsFromGMT(for: date), "\(zone) \(value)")
            }
        }
    }

    func testCompactUTCNamesAConflictAsBefore() {
        // Given a moment / When named for a conflict ref / Then as the old yyyyMMdd'T'HHmmss'Z' format named it
        XCTAssertEqual(Timestamps.compactUTC(Date(timeIntervalSince1970: 1_764_572_403)), "20251201T070003Z")
    }
}
