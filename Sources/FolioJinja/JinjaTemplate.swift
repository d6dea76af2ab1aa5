/// A parsed Jinja template, ready to render any number of times.
///
/// ```swift
/// let env = JinjaEnvironment(options: JinjaOptions(), templates: ["base": "…"])
/// let template = try JinjaTemplate(source: "Hello {{ name|title }}!", name: "greeting", environment: env)
/// let text = try template.render(context: .object([("name", .string("ada"))]))
/// ```
public struct JinjaTemplate {
    /// The name used in error messages and by `{% extends %}` chains.
    public let name: String
    /// The environment the template was parsed with (its options and loader).
    public let environment: JinjaEnvironment
    let body: [JinjaStatement]
    let blocks: [String: JinjaBlockNode]
    let rootNames = JinjaFrameNames()

    /// Parses `source`; throws a `JinjaError` of kind `.syntax` (or `.assertion`) naming the line.
    public init(source: String, name: String = "<template>", environment: JinjaEnvironment = JinjaEnvironment()) throws {
        self.name = name
        self.environment = environment
        var lexer = JinjaLexer(options: environment.options, name: name)
        let tokens = try lexer.tokenize(source)
        var parser = JinjaParser(tokens: tokens, name: name, extensions: environment.options.extensions)
        body = try parser.parseTemplate()
        try JinjaNameCheck.check(body, template: name, extensions: environment.options.extensions)
        var blocks: [String: JinjaBlockNode] = [:]
        Self.collectBlocks(body, into: &blocks)
        self.blocks = blocks
        JinjaScopeAnalyzer.analyze(body, root: rootNames)
    }

    /// Parses template bytes; invalid UTF-8 is replaced with U+FFFD, as a lenient decoder would.
    public init(bytes: [UInt8], name: String = "<template>", environment: JinjaEnvironment = JinjaEnvironment()) throws {
        try self.init(source: String(decoding: bytes, as: UTF8.self), name: name, environment: environment)
    }

    /// Renders with `context` (a dict of variables; `.none` or an empty dict for none). Throws a `JinjaError`.
    public func render(context: JinjaValue = .none) throws -> String {
        let renderer = JinjaRenderer(environment: environment)
        return try renderer.renderRoot(self, context: context)
    }

    /// Renders with variables given as pairs.
    public func render(_ variables: [(String, JinjaValue)]) throws -> String {
        try render(context: .object(variables))
    }

    static func collectBlocks(_ statements: [JinjaStatement], into blocks: inout [String: JinjaBlockNode]) {
        for s in statements {
            switch s.kind {
            case .block(let b):
                blocks[b.name] = b
                collectBlocks(b.body, into: &blocks)
            case .ifChain(let branches, let elseBody):
                for (_, body) in branches { collectBlocks(body, into: &blocks) }
                collectBlocks(elseBody, into: &blocks)
            case .forLoop(let f):
                collectBlocks(f.body, into: &blocks)
                collectBlocks(f.elseBody, into: &blocks)
            case .assignBlock(_, _, let body, _), .filterBlock(_, let body, _), .with(_, let body, _), .autoescape(_, let body, _):
                collectBlocks(body, into: &blocks)
            case .macro(let m): collectBlocks(m.body, into: &blocks)
            case .callBlock(_, let m): collectBlocks(m.body, into: &blocks)
            default: break
            }
        }
    }
}
