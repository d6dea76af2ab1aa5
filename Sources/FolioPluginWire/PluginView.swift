/// What an editor's view shows: its lines, or why there are none — a failure's one-line message, with the
/// document's text under it when there is some to show (no editor opens the file). A failure is drawn as one line,
/// "✗ " and the message (`shown`); nothing else tells a failure by its text.
public enum PluginView: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// The editor's lines.
    case lines([String])
    /// The render failed (or there is no editor) with `message`; `text` is shown under it.
    case failed(String, text: [String] = [])

    /// A view of `lines`.
    public init(arrayLiteral lines: String...) { self = .lines(lines) }

    /// The rows as a terminal draws them: the lines, or "✗ " and the message, then the text.
    public var shown: [String] {
        switch self {
        case let .lines(lines): lines
        case let .failed(message, text): ["✗ " + message] + text
        }
    }

    /// The editor's lines, or the text under a failure (without its "✗ " line).
    public var content: [String] {
        switch self {
        case let .lines(lines): lines
        case let .failed(_, text): text
        }
    }

    /// The failure's message; nil for a view of lines.
    public var failure: String? {
        if case let .failed(message, _) = self { return message }
        return nil
    }

    /// This view with at most `height` rows shown (a failure's line is one of them).
    public func prefix(_ height: Int) -> PluginView {
        switch self {
        case let .lines(lines): .lines(Array(lines.prefix(max(0, height))))
        case let .failed(message, text): .failed(message, text: Array(text.prefix(max(0, height - 1))))
        }
    }
}
