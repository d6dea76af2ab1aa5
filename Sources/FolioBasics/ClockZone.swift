import FoundationEssentials

/// The zone a clock time is shown in: a name and its offset from UTC at each moment. Stands in for Foundation's
/// `TimeZone`, which without ICU knows only GMT; `local` asks the C library (`TZ`, /etc/localtime).
public struct ClockZone: Equatable, Sendable {
    /// What the zone is called ("local", "UTC", "America/New_York"); two zones with the same name are equal.
    public let name: String
    private let offsetAt: @Sendable (Date) -> Int

    /// A zone called `name` whose offset east of UTC, in seconds, at a moment is `offset(moment)`.
    public init(name: String, offset: @escaping @Sendable (Date) -> Int) {
        self.name = name
        offsetAt = offset
    }

    /// The system's local zone, through the C library.
    public static let local = ClockZone(name: "local") { Timestamps.localOffset(at: $0) }

    /// UTC.
    public static let utc = ClockZone(name: "UTC") { _ in 0 }

    /// Seconds east of UTC at `date` (less than a day either way; 0 otherwise).
    public func secondsFromUTC(at date: Date) -> Int {
        let offset = offsetAt(date)
        return offset.magnitude < 86_400 ? offset : 0
    }

    public static func == (lhs: ClockZone, rhs: ClockZone) -> Bool { lhs.name == rhs.name }
}
