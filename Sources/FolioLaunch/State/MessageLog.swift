import FoundationEssentials
import FolioBasics
import Glibc

/// The last messages shown (errors, confirmations, command results), each with the time it appeared: the message
/// log overlay (`M`, or "Messages" in the palette) shows their full text however short the screen's message line is.
public struct MessageLog: Equatable, Sendable {
    /// One message as it appeared.
    public struct Entry: Equatable, Sendable {
        public var time: Date
        public var text: String
        public init(time: Date, text: String) { self.time = time; self.text = text }
    }

    /// How many messages are kept: the oldest go first.
    public static let capacity = 100

    public private(set) var entries: [Entry] = []
    /// The zone the times are shown in (the user's, unless a test fixes one).
    public var timeZone: ClockZone = .local

    public init(entries: [Entry] = [], timeZone: ClockZone = .local) {
        self.entries = Array(entries.suffix(Self.capacity))
        self.timeZone = timeZone
    }

    /// Adds `text` (on one line; blank text is not a message) as shown at `time`, dropping the oldest past
    /// `capacity`.
    public mutating func append(_ text: String, at time: Date) {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimming(.whitespaces)
        guard !line.isEmpty else { return }
        entries.append(Entry(time: time, text: line))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// "14:03:27": when `entry` appeared, in `timeZone`.
    public func clock(_ entry: Entry) -> String {
        guard let time = CivilTime(entry.time, offset: timeZone.secondsFromUTC(at: entry.time)) else { return "--:--:--" }
        return Timestamps.clock(time)
    }
}
