/// An error raised while lexing, parsing or rendering a Jinja template, located by template name and line.
public struct JinjaError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of failure this is, named as Jinja2 names its exceptions.
    public enum Kind: String, Sendable, Equatable {
        /// The template does not parse (`TemplateSyntaxError`).
        case syntax = "TemplateSyntaxError"
        /// The template parses but asks for something that cannot exist, such as an unknown filter (`TemplateAssertionError`).
        case assertion = "TemplateAssertionError"
        /// An undefined value was used where a value is needed (`UndefinedError`).
        case undefined = "UndefinedError"
        /// An operation was applied to values of the wrong type (Python's `TypeError`).
        case type = "TypeError"
        /// A value had the right type but a wrong content (Python's `ValueError`, an integer overflow).
        case value = "ValueError"
        /// A runtime failure of the template itself, such as a required block left empty (`TemplateRuntimeError`).
        case runtime = "TemplateRuntimeError"
        /// An included, imported or extended template does not exist (`TemplateNotFound`).
        case notFound = "TemplateNotFound"
        /// A render limit (output size, depth, steps) stopped the render.
        case limit = "LimitExceeded"
    }

    /// The kind of error.
    public var kind: Kind
    /// The name of the template the error belongs to.
    public var template: String
    /// The 1-based line of the error, or 0 when unknown.
    public var line: Int
    /// The 1-based column (in Unicode scalars) of the tag or token at fault, or 0 when unknown.
    public var column: Int
    /// Why the template failed, in one line.
    public var message: String
    /// The limit that stopped the render, when one did.
    public var limit: JinjaLimit?

    /// Creates an error; pass `line` 0 when the position is unknown.
    public init(_ kind: Kind, _ message: String, template: String = "<template>", line: Int = 0, column: Int = 0, limit: JinjaLimit? = nil) {
        self.kind = kind
        self.column = line > 0 ? column : 0
        self.message = message
        self.template = template
        self.line = line
        self.limit = limit
    }

    /// One line: `template:line:column: Kind: message` (the position as far as it is known).
    public var description: String {
        let place = line > 0 ? (column > 0 ? "\(template):\(line):\(column)" : "\(template):\(line)") : template
        return "\(place): \(kind.rawValue): \(message)"
    }
}

/// The `JinjaLimits` a render can reach.
public enum JinjaLimit: String, Sendable, Equatable {
    /// `JinjaLimits.maxOutputBytes`.
    case maxOutputBytes
    /// `JinjaLimits.maxDepth`.
    case maxDepth
    /// `JinjaLimits.maxSteps`.
    case maxSteps
}

/// Limits that keep a hostile template from exhausting memory, stack or time.
public struct JinjaLimits: Sendable, Equatable {
    /// The largest output (and largest string built while rendering), in UTF-8 bytes.
    public var maxOutputBytes: Int
    /// The deepest nesting of macro calls, includes, imports, blocks and recursive loops.
    public var maxDepth: Int
    /// The most loop iterations, macro calls and collection elements built in one render.
    public var maxSteps: Int

    /// Creates limits; the defaults allow 16 MiB of output, 64 levels and 2 million steps.
    public init(maxOutputBytes: Int = 16 << 20, maxDepth: Int = 64, maxSteps: Int = 2_000_000) {
        self.maxOutputBytes = maxOutputBytes
        self.maxDepth = maxDepth
        self.maxSteps = maxSteps
    }
}
