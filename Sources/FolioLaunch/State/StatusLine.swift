/// A one-line message a screen shows (a result, a refusal, a hint), by what it reports. The case decides the mark and
/// the colour it is drawn with and whether the message log counts it as an error, so that nothing reads a mark back
/// out of the text.
package enum StatusLine: Equatable, Sendable {
    /// Something failed or was refused: drawn after "✗ ", in the error colour.
    case failure(String)
    /// Something was done: drawn after "✓ ", in the success colour.
    case success(String)
    /// A hint, a notice or progress: drawn as it is, in the note colour.
    case note(String)

    /// The message without its mark.
    package var text: String {
        switch self {
        case let .failure(text), let .success(text), let .note(text): text
        }
    }

    /// The message as drawn and logged, after its mark.
    package var shown: String {
        switch self {
        case let .failure(text): "✗ " + text
        case let .success(text): "✓ " + text
        case let .note(text): text
        }
    }

    package var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }

    /// The same kind of message with `text`.
    package func replacingText(with text: String) -> StatusLine {
        switch self {
        case .failure: .failure(text)
        case .success: .success(text)
        case .note: .note(text)
        }
    }
}
