import FoundationEssentials
import FolioBasics
import Glibc

/// The last messages shown (errors, confirmations, command results), each with the time it appeared: the message
/// log overlay (`M`, or "Messages" in the palette) shows their full text however short the screen's message line is.
package struct MessageLog: Equatable, Sendable {
    /// One message as it appeared.
    package struct Entry: Equatable, Sendable {
        package var time: Date
        package var line: StatusLine
        package init(time: Date, line: StatusLine) { self.time = time; self.line = line }
        /// The message as it was drawn (with its mark).
        package var text: String { line.shown }
    }

    /// How many messages are kept: the oldest go first.
    package static let capacity = 100

    package private(set) var entries: [Entry] = []
    /// The zone the times are shown in (the user's, unless a test fixes one).
    package var timeZone: ClockZone = .local

    package init(entries: [Entry] = [], timeZone: ClockZone = .local) {
        self.entries = Array(entries.suffix(Self.capacity))
        self.timeZone = timeZone
    }

    /// Adds `message` (on one line; blank text is not a message) as shown at `time`, dropping the oldest past
    /// `capacity`.
    package mutating func append(_ message: StatusLine, at time: Date) {
        let text = message.text.split(whereSeparator: \.isNewline).joined(separator: " ").trimming(.whitespaces)
        guard !text.isEmpty else { return }
        entries.append(Entry(time: time, line: message.replacingText(with: text)))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// "14:03:27": when `entry` appeared, in `timeZone`.
    package func clock(_ entry: Entry) -> String {
        guard let time = CivilTime(entry.time, offset: timeZone.secondsFromUTC(at: entry.time)) else { return "--:--:--" }
        return Timestamps.clock(time)
    }
}
