/// Turns tokens into statements, following Jinja2's grammar and its syntax errors.
struct JinjaParser {
    var tokens: [JinjaToken]
    var index = 0
    let name: String
    let extensions: Set<JinjaExtension>
    var depth = 0
    /// Deepest nesting of expressions and statements accepted (deeper templates are refused, not crashed on).
    static let maxNesting = 96
    var blockNames: Set<String> = []
    let stack = JinjaStackGuard()
    var endTokenStack: [[String]] = []

    init(tokens: [JinjaToken], name: String, extensions: Set<JinjaExtension>) {
        self.tokens = tokens
        self.name = name
        self.extensions = extensions
    }

    var current: JinjaToken { tokens[index] }
    func look(_ n: Int = 1) -> JinjaToken { tokens[min(index + n, tokens.count - 1)] }

    @discardableResult
    mutating func next() -> JinjaToken {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    func fail(_ message: String, line: Int? = nil) -> JinjaError {
        JinjaError(.syntax, message, template: name, line: line ?? current.line, column: line == nil || line == current.line ? current.column : 0)
    }

    func isOp(_ op: String) -> Bool { current.kind == .op && current.text == op }
    func isName(_ n: String) -> Bool { current.kind == .name && current.text == n }

    mutating func skipOp(_ op: String) -> Bool {
        if isOp(op) { next(); return true }
        return false
    }

    mutating func skipName(_ n: String) -> Bool {
        if isName(n) { next(); return true }
        return false
    }

    func describe(_ t: JinjaToken) -> String {
        switch t.kind {
        case .eof: return "end of template"
        case .blockEnd: return "end of statement block"
        case .variableEnd: return "end of print statement"
        case .blockBegin: return "begin of statement block"
        case .variableBegin: return "begin of print statement"
        case .data: return "template data"
        default: return "'\(t.text)'"
        }
    }

    mutating func expectOp(_ op: String) throws {
        guard skipOp(op) else { throw fail("expected token '\(op)', got \(describe(current))") }
    }

    mutating func expectName(_ n: String) throws {
        guard skipName(n) else { throw fail("expected token '\(n)', got \(describe(current))") }
    }

    mutating func expectKind(_ kind: JinjaTokenKind, _ what: String) throws -> JinjaToken {
        guard current.kind == kind else {
            if current.kind == .eof { throw fail("unexpected end of template, expected \(what).") }
            throw fail("expected \(what), got \(describe(current))")
        }
        return next()
    }

    mutating func nest() throws {
        depth += 1
        guard depth <= Self.maxNesting else { throw fail("template nested more than \(Self.maxNesting) levels deep") }
        guard !stack.exhausted else { throw fail("template nested too deeply for this thread's stack") }
    }

    // MARK: Templates and statement lists

    mutating func parseTemplate() throws -> [JinjaStatement] {
        let body = try subparse([])
        guard current.kind == .eof else { throw fail("unexpected \(describe(current))") }
        return body
    }

    /// Statements until a block tag whose name is in `ends` (the stream is left on that name) or the end.
    mutating func subparse(_ ends: [String]) throws -> [JinjaStatement] {
        try nest()
        defer { depth -= 1 }
        endTokenStack.append(ends)
        defer { endTokenStack.removeLast() }
        var body: [JinjaStatement] = []
        while current.kind != .eof {
            switch current.kind {
            case .data:
                let t = next()
                body.append(JinjaStatement(kind: .data(t.text), line: t.line))
            case .variableBegin:
                let t = next()
                let e = try parseTuple()
                _ = try expectKind(.variableEnd, "end of print statement")
                body.append(JinjaStatement(kind: .output(e), line: t.line, column: t.column))
            case .blockBegin:
                let begin = next()
                if current.kind == .name, ends.contains(current.text) { return body }
                if let s = try parseStatement() {
                    s.column = begin.column
                    body.append(s)
                }
            default:
                throw fail("unexpected \(describe(current))")
            }
        }
        if !ends.isEmpty {
            throw fail("Unexpected end of template. Jinja was looking for the following tags: \(ends.map { "'\($0)'" }.joined(separator: " or ")).")
        }
        return body
    }

    /// A body ending in one of `ends`; returns the body and which end tag closed it (consumed).
    mutating func body(until ends: [String]) throws -> ([JinjaStatement], String) {
        let b = try subparse(ends)
        guard current.kind == .name else { throw fail("unexpected end of template") }
        let end = next().text
        return (b, end)
    }

    /// The end of a block tag; a colon before it is allowed, for Python-like line statements (`# for x in y:`).
    mutating func endBlock() throws {
        _ = skipOp(":")
        _ = try expectKind(.blockEnd, "end of statement block")
    }
}
