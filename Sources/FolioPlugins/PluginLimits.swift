import FolioDisplayWidth
import FolioPluginWire
import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

/// What a plugin host may take: deadlines per call, memory, and the largest buffer a plugin may return.
public struct PluginLimits: Sendable, Equatable {
    /// open, apply, serialize, semantic diff and merge, and loading the library.
    public var call: Duration = .seconds(5)
    /// One render (a frame of the editor).
    public var render: Duration = .seconds(1)
    /// The host's address-space limit (`RLIMIT_AS`). 2 GiB: far above any document an editor should hold in memory
    /// (the 10,000-item checklist needs ~40 MB), yet a runaway allocation fails fast instead of swapping the machine.
    public var memory: UInt64 = 2 << 30
    /// The largest buffer (document bytes, view, description) a plugin may return.
    public var buffer: Int = 64 << 20

    /// The defaults.
    public init() {}

    /// The defaults overridden by the `pluginLimits` block of the settings.
    public init(settings: Settings.PluginLimitSettings) {
        func duration(_ seconds: Double?) -> Duration? {
            guard let seconds, let millis = Int64(exactly: (seconds * 1000).rounded()) else { return nil }
            return .milliseconds(millis)
        }
        if let call = duration(settings.callSeconds) { self.call = call }
        if let render = duration(settings.renderSeconds) { self.render = render }
        if let mib = settings.memoryMiB, let bytes = UInt64(exactly: mib).map({ $0 << 20 }) { memory = bytes }
        if let mib = settings.bufferMiB { buffer = mib << 20 }
    }

    /// The largest message either side accepts: three buffers (a merge's inputs) and room for the framing.
    static func messageCap(bufferCap: Int) -> Int { HostWire.messageCap(bufferCap: bufferCap) }

    /// A deadline as the user reads it: "5 s", "0.5 s".
    static func describe(_ duration: Duration) -> String {
        let millis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return millis % 1000 == 0 ? "\(millis / 1000) s" : "\(Double(millis) / 1000) s"
    }
}

/// Text from a plugin made safe to commit or show.
public enum PluginText {
    /// The longest description kept, in characters.
    public static let descriptionLimit = 200

    /// A description fit for a commit message: valid UTF-8 (bad bytes become U+FFFD), one line, no control
    /// characters (C0, DEL, C1: escape sequences cannot reach the terminal or the log), at most 200 characters.
    public static func description(_ data: Data) -> String {
        description(String(decoding: data, as: UTF8.self))
    }

    /// `description(_:)` for text already decoded.
    public static func description(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var count = 0
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isControl(scalar) || scalar.properties.isWhitespace {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if pendingSpace { scalars.append(" "); pendingSpace = false }
            scalars.append(scalar)
            count += 1
            if count >= descriptionLimit { break }
        }
        var result = String(scalars)
        if result.count > descriptionLimit { result = String(result.prefix(descriptionLimit)) }
        return result
    }

    /// One line of an editor's view for a `width`-cell screen: control and bidi characters shown as their visible
    /// escapes (tabs become a space), clipped to `width` cells with the host's width function (`DisplayWidth`),
    /// whatever the plugin measured.
    public static func viewLine<S: StringProtocol>(_ line: S, width: Int) -> String {
        DisplayWidth.truncate(viewLine(line), to: max(0, width))
    }

    /// One line of an editor's view: tabs become a space, other control and bidi characters their visible escapes
    /// (`TerminalText.visible`, as every screen shows untrusted text: `\e`, `\n`, `\u{9B}`).
    public static func viewLine<S: StringProtocol>(_ line: S) -> String {
        TerminalText.visible(line.contains("\t") ? String(line).replacing("\t", with: " ") : String(line))
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { TerminalText.isControl(scalar) }
}
