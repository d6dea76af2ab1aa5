import FoundationEssentials
import Glibc

/// An error raised while parsing or rendering a Mustache template, located by file, line and column.
public struct MustacheError: Error, CustomStringConvertible, LocalizedError, Equatable, Sendable {
    /// The template name or file path the error belongs to.
    public var file: String
    /// The 1-based line of the error, or 0 when the error has no position.
    public var line: Int
    /// The 1-based column (in Unicode scalars) of the error, or 0 when the error has no position.
    public var column: Int
    /// A human-readable explanation of what went wrong.
    public var message: String
    /// The limit that stopped the render, when one did.
    public var limit: MustacheLimit?

    /// Creates an error; pass `line`/`column` 0 when there is no position.
    public init(file: String, line: Int = 0, column: Int = 0, message: String, limit: MustacheLimit? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.limit = limit
    }

    /// One line: `file:line:column: message` (or `file: message` without a position).
    public var description: String {
        if line > 0 {
            return "\(file):\(line):\(column): \(message)"
        }
        return "\(file): \(message)"
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}

/// The `MustacheLimits` a render can reach; the raw value is the limit's name.
public enum MustacheLimit: String, Sendable, Equatable {
    /// `MustacheLimits.maxOutputBytes`.
    case maxOutputBytes
    /// `MustacheLimits.maxDepth`.
    case maxDepth
    /// `MustacheLimits.maxSteps`.
    case maxSteps
}

/// A position inside a template, carried by AST nodes so render-time errors can point at the tag.
struct SourceLocation: Sendable {
    let file: String
    let line: Int
    let column: Int

    func error(_ message: String) -> MustacheError {
        MustacheError(file: file, line: line, column: column, message: message)
    }
}

/// Where a tag is in its template (the template, and so the file, is known from where the tag is rendered).
struct TagPosition: Sendable {
    // 32 bits each keep nodes small; a template of more than 2^31 lines or columns is clamped in messages.
    private let storedLine: Int32
    private let storedColumn: Int32

    var line: Int { Int(storedLine) }
    var column: Int { Int(storedColumn) }

    init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    init(_ location: SourceLocation) {
        self.init(line: location.line, column: location.column)
    }
}
