/// An expression of the template language.
indirect enum JinjaExpr {
    case constant(JinjaValue)
    case name(String, line: Int)
    case list([JinjaExpr])
    case tuple([JinjaExpr])
    case dict([(JinjaExpr, JinjaExpr)])
    case attribute(JinjaExpr, String, line: Int)
    case item(JinjaExpr, JinjaExpr, line: Int)
    case slice(JinjaExpr, JinjaExpr?, JinjaExpr?, JinjaExpr?, line: Int)
    case unary(String, JinjaExpr, line: Int)
    case binary(String, JinjaExpr, JinjaExpr, line: Int)
    case compare(JinjaExpr, [(String, JinjaExpr)], line: Int)
    case and(JinjaExpr, JinjaExpr)
    case or(JinjaExpr, JinjaExpr)
    case not(JinjaExpr, line: Int)
    case conditional(JinjaExpr, JinjaExpr, JinjaExpr?)
    case concat([JinjaExpr], line: Int)
    case call(JinjaExpr, JinjaCallArgs, line: Int)
    /// A filter; the input is nil in filter blocks and `set` blocks (the body's output is the input).
    case filter(JinjaExpr?, JinjaFilterName, JinjaCallArgs, line: Int)
    case test(JinjaExpr, String, JinjaCallArgs, negated: Bool, line: Int)
}

/// A filter's name as written, with the group of built-in filters holding it looked up once, when parsed.
struct JinjaFilterName {
    let text: String
    let group: JinjaRenderer.FilterGroup?

    init(_ text: String) {
        self.text = text
        group = JinjaRenderer.filterGroups[text]
    }
}

/// The arguments written in a call, filter or test.
struct JinjaCallArgs {
    var positional: [JinjaExpr] = []
    var keywords: [(String, JinjaExpr)] = []
    var star: JinjaExpr?
    var doubleStar: JinjaExpr?
}

/// Where an assignment stores: a name, a namespace attribute, or a tuple of targets.
indirect enum JinjaTarget {
    case name(String)
    case namespaceAttribute(String, String)
    case tuple([JinjaTarget])

    var names: [String] {
        switch self {
        case .name(let n): return [n]
        case .namespaceAttribute: return []
        case .tuple(let ts): return ts.flatMap(\.names)
        }
    }
}

/// A macro or call block's signature and body.
final class JinjaMacroNode {
    let name: String
    let parameters: [(String, JinjaExpr?)]
    let body: [JinjaStatement]
    let usesCaller: Bool
    let names = JinjaFrameNames()
    init(name: String, parameters: [(String, JinjaExpr?)], body: [JinjaStatement], usesCaller: Bool) {
        self.name = name
        self.parameters = parameters
        self.body = body
        self.usesCaller = usesCaller
    }
}

/// A `{% for %}` loop.
final class JinjaForNode {
    let target: JinjaTarget
    let iterable: JinjaExpr
    let condition: JinjaExpr?
    let body: [JinjaStatement]
    let elseBody: [JinjaStatement]
    let recursive: Bool
    let bodyNames = JinjaFrameNames()
    let elseNames = JinjaFrameNames()
    init(target: JinjaTarget, iterable: JinjaExpr, condition: JinjaExpr?, body: [JinjaStatement], elseBody: [JinjaStatement], recursive: Bool) {
        self.target = target
        self.iterable = iterable
        self.condition = condition
        self.body = body
        self.elseBody = elseBody
        self.recursive = recursive
    }
}

/// A `{% block %}`.
final class JinjaBlockNode {
    let name: String
    let scoped: Bool
    let required: Bool
    let body: [JinjaStatement]
    let names = JinjaFrameNames()
    init(name: String, scoped: Bool, required: Bool, body: [JinjaStatement]) {
        self.name = name
        self.scoped = scoped
        self.required = required
        self.body = body
    }
}

/// A statement of the template, with the line its tag starts on. A class: rendering walks statement lists many
/// times, and a reference is copied with one retain where the struct copied its whole payload.
final class JinjaStatement {
    enum Kind {
        case data(String)
        case output(JinjaExpr)
        case ifChain([(JinjaExpr, [JinjaStatement])], [JinjaStatement])
        case forLoop(JinjaForNode)
        case assign(JinjaTarget, JinjaExpr)
        case assignBlock(JinjaTarget, JinjaExpr?, [JinjaStatement], JinjaFrameNames)
        case block(JinjaBlockNode)
        case extends(JinjaExpr)
        case include(JinjaExpr, ignoreMissing: Bool, withContext: Bool)
        case importModule(JinjaExpr, String, withContext: Bool)
        case fromImport(JinjaExpr, [(String, String)], withContext: Bool)
        case macro(JinjaMacroNode)
        case callBlock(JinjaExpr, JinjaMacroNode)
        case filterBlock(JinjaExpr, [JinjaStatement], JinjaFrameNames)
        case with([(JinjaTarget, JinjaExpr)], [JinjaStatement], JinjaFrameNames)
        case autoescape(JinjaExpr, [JinjaStatement], JinjaFrameNames)
        case doExpr(JinjaExpr)
        case breakLoop
        case continueLoop
    }

    let kind: Kind
    let line: Int
    /// The column of the tag's start (its `{%` or `{{`), 0 when unknown.
    var column: Int

    init(kind: Kind, line: Int, column: Int = 0) {
        self.kind = kind
        self.line = line
        self.column = column
    }
}
