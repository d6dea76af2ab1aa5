/// How undefined names behave, as Jinja2's `Undefined` classes do.
public enum JinjaUndefinedKind: String, Sendable, Equatable {
    /// Prints as empty, iterates as empty, is false; any other use raises `UndefinedError` (`Undefined`).
    case lenient = "Undefined"
    /// Any use but `is defined` raises (`StrictUndefined`).
    case strict = "StrictUndefined"
    /// Attribute and item lookups on it give itself (`ChainableUndefined`).
    case chainable = "ChainableUndefined"
    /// Prints as `{{ name }}` (`DebugUndefined`).
    case debug = "DebugUndefined"
}

/// Jinja2 extensions Folio builds in.
public enum JinjaExtension: String, Sendable, Equatable, Hashable {
    /// `{% do expr %}` (`jinja2.ext.do`).
    case doStatement = "jinja2.ext.do"
    /// `{% break %}` and `{% continue %}` (`jinja2.ext.loopcontrols`).
    case loopControls = "jinja2.ext.loopcontrols"
    /// `{% now 'utc', '%Y' %}` and `{% now 'local' + 'days=1' %}` (jinja2-time's, which cookiecutter copies).
    case time = "jinja2_time.TimeExtension"
    case cookiecutterTime = "cookiecutter.extensions.TimeExtension"
    /// cookiecutter's `jsonify` filter: `json.dumps(value, sort_keys=True, indent=4)`.
    case jsonify = "cookiecutter.extensions.JsonifyExtension"
    /// cookiecutter's `random_ascii_string(length, punctuation=False)`.
    case randomString = "cookiecutter.extensions.RandomStringExtension"
    /// cookiecutter's `slugify` filter (python-slugify's).
    case slugify = "cookiecutter.extensions.SlugifyExtension"
    /// cookiecutter's `uuid4()`.
    case uuid = "cookiecutter.extensions.UUIDExtension"
    /// The filters of jinja2-ansible-filters, which copier always loads (`to_json`, `to_nice_yaml`, `regex_replace`, …).
    case ansibleFilters = "jinja2_ansible_filters.AnsibleCoreFiltersExtension"

    /// The extensions every cookiecutter template has, whether it asks for them or not.
    public static let cookiecutterDefaults: Set<JinjaExtension> = [.cookiecutterTime, .jsonify, .randomString, .slugify, .uuid]
    /// The extensions every copier template has.
    public static let copierDefaults: Set<JinjaExtension> = [.ansibleFilters]
}

/// The options of a Jinja2 `Environment` that change how templates lex, parse and render.
public struct JinjaOptions: Sendable, Equatable {
    /// `block_start_string`, default `{%`.
    public var blockStart = "{%"
    /// `block_end_string`, default `%}`.
    public var blockEnd = "%}"
    /// `variable_start_string`, default `{{`.
    public var variableStart = "{{"
    /// `variable_end_string`, default `}}`.
    public var variableEnd = "}}"
    /// `comment_start_string`, default `{#`.
    public var commentStart = "{#"
    /// `comment_end_string`, default `#}`.
    public var commentEnd = "#}"
    /// `line_statement_prefix`: a line starting with it is a statement.
    public var lineStatementPrefix: String?
    /// `line_comment_prefix`: the rest of a line after it is a comment.
    public var lineCommentPrefix: String?
    /// `trim_blocks`: the first newline after a block tag is removed.
    public var trimBlocks = false
    /// `lstrip_blocks`: spaces and tabs from the start of a line to a block tag are removed.
    public var lstripBlocks = false
    /// `keep_trailing_newline`: keep the template's final newline.
    public var keepTrailingNewline = false
    /// `newline_sequence`: what newlines in template text become.
    public var newlineSequence = "\n"
    /// The `undefined` class.
    public var undefined = JinjaUndefinedKind.lenient
    /// Enabled extensions.
    public var extensions: Set<JinjaExtension> = []
    /// `autoescape`: HTML-escape every printed value that is not marked safe.
    public var autoescape = false
    /// The `urlize.rel` policy (`rel` attribute of links `urlize` makes); nil leaves it out.
    public var urlizeRel: String? = "noopener"
    /// Limits on output size, depth and steps.
    public var limits = JinjaLimits()
    /// The time `{% now %}` shows, in seconds since 1970 (nil: the clock's); fixed for tests and reproducible output.
    public var now: Double?

    /// Creates the default options (Jinja2's defaults).
    public init() {}

    /// Reads options written with Jinja2's `Environment` names, as the conformance cases store them
    /// (`trim_blocks`, `block_start_string`, `undefined: "StrictUndefined"`, `extensions: [...]`, `policies`).
    /// Unknown names and unknown extensions are refused with a one-line error naming them.
    public init(jinjaNames: JinjaDict) throws {
        for (key, value) in jinjaNames.entries {
            try apply(key.plainString, value)
        }
    }

    private mutating func apply(_ name: String, _ value: JinjaValue) throws {
        func text() throws -> String {
            guard let s = value.stringValue else { throw JinjaError(.type, "option \(name) must be a string") }
            return s
        }
        func flag() throws -> Bool {
            guard case .bool(let b) = value else { throw JinjaError(.type, "option \(name) must be true or false") }
            return b
        }
        switch name {
        case "block_start_string": blockStart = try text()
        case "block_end_string": blockEnd = try text()
        case "variable_start_string": variableStart = try text()
        case "variable_end_string": variableEnd = try text()
        case "comment_start_string": commentStart = try text()
        case "comment_end_string": commentEnd = try text()
        case "line_statement_prefix": lineStatementPrefix = value.isNone ? nil : try text()
        case "line_comment_prefix": lineCommentPrefix = value.isNone ? nil : try text()
        case "trim_blocks": trimBlocks = try flag()
        case "lstrip_blocks": lstripBlocks = try flag()
        case "keep_trailing_newline": keepTrailingNewline = try flag()
        case "autoescape": autoescape = try flag()
        case "newline_sequence": newlineSequence = try text()
        case "undefined":
            guard let kind = JinjaUndefinedKind(rawValue: try text()) else { throw JinjaError(.value, "unknown undefined class \(value.plainString)") }
            undefined = kind
        case "extensions":
            guard case .list(let list) = value else { throw JinjaError(.type, "option extensions must be a list") }
            for item in list.items {
                guard let ext = JinjaExtension(rawValue: item.plainString) else {
                    throw JinjaError(.value, "the Jinja extension \(item.plainString) is not available in Folio")
                }
                extensions.insert(ext)
            }
        case "policies":
            guard case .dict(let d) = value else { throw JinjaError(.type, "option policies must be an object") }
            if let rel = d["urlize.rel"] { urlizeRel = rel.isNone ? nil : rel.plainString }
        default: throw JinjaError(.value, "unknown Jinja option \(name)")
        }
    }
}

/// Finds the source of a template by name (for include, import, extends); nil when there is none.
public typealias JinjaLoader = @Sendable (String) throws -> String?

/// A Jinja2 `Environment`: the options and the loader every template rendered in it shares.
public final class JinjaEnvironment: Sendable {
    /// The options.
    public let options: JinjaOptions
    /// The loader for templates named by include, import and extends.
    public let loader: JinjaLoader?

    /// Creates an environment.
    public init(options: JinjaOptions = JinjaOptions(), loader: JinjaLoader? = nil) {
        self.options = options
        self.loader = loader
    }

    /// An environment whose loader serves `templates` by name (Jinja2's `DictLoader`).
    public convenience init(options: JinjaOptions = JinjaOptions(), templates: [String: String]) {
        self.init(options: options, loader: { templates[$0] })
    }
}
