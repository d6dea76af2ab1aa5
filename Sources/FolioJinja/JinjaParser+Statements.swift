/// Block statements: `{% if %}`, `{% for %}`, `{% set %}`, macros, inheritance, imports and the extensions.
extension JinjaParser {
    mutating func parseStatement() throws -> JinjaStatement? {
        guard current.kind == .name else {
            throw fail(current.kind == .blockEnd ? "Expected a tag name, got end of statement block" : "tag name expected")
        }
        let t = current
        let line = t.line
        func stmt(_ k: JinjaStatement.Kind) -> JinjaStatement { JinjaStatement(kind: k, line: line) }
        switch t.text {
        case "if": next(); return stmt(try parseIf())
        case "for": next(); return stmt(.forLoop(try parseFor()))
        case "set": next(); return stmt(try parseSet())
        case "block": next(); return stmt(.block(try parseBlock()))
        case "extends":
            next()
            let e = try parseExpression()
            try endBlock()
            return stmt(.extends(e))
        case "include": next(); return stmt(try parseInclude())
        case "import": next(); return stmt(try parseImport())
        case "from": next(); return stmt(try parseFrom())
        case "macro": next(); return stmt(.macro(try parseMacro()))
        case "call": next(); return stmt(try parseCallBlock())
        case "filter": next(); return stmt(try parseFilterBlock())
        case "with": next(); return stmt(try parseWith())
        case "autoescape":
            next()
            let e = try parseExpression()
            try endBlock()
            let (body, _) = try self.body(until: ["endautoescape"])
            try endBlock()
            return stmt(.autoescape(e, body, JinjaFrameNames()))
        case "print":
            next()
            let e = try parseTuple()
            try endBlock()
            return stmt(.output(e))
        case "do" where extensions.contains(.doStatement):
            next()
            let e = try parseTuple()
            try endBlock()
            return stmt(.doExpr(e))
        case "now" where extensions.contains(.time) || extensions.contains(.cookiecutterTime):
            next()
            return stmt(try parseNow())
        case "break" where extensions.contains(.loopControls), "continue" where extensions.contains(.loopControls):
            next()
            try endBlock()
            return stmt(t.text == "break" ? .breakLoop : .continueLoop)
        default:
            if endTokenStack.contains(where: { $0.contains(t.text) }) || t.text.hasPrefix("end") {
                throw fail("Encountered unknown tag '\(t.text)'. Jinja was looking for the following tags: "
                    + (endTokenStack.last ?? []).map { "'\($0)'" }.joined(separator: " or ") + ".")
            }
            throw fail("Encountered unknown tag '\(t.text)'.")
        }
    }

    mutating func parseIf() throws -> JinjaStatement.Kind {
        var branches: [(JinjaExpr, [JinjaStatement])] = []
        var condition = try parseTuple(withCondexpr: false)
        try endBlock()
        while true {
            let (body, end) = try self.body(until: ["elif", "else", "endif"])
            branches.append((condition, body))
            switch end {
            case "elif":
                condition = try parseTuple(withCondexpr: false)
                try endBlock()
            case "else":
                try endBlock()
                let (elseBody, _) = try self.body(until: ["endif"])
                try endBlock()
                return .ifChain(branches, elseBody)
            default:
                try endBlock()
                return .ifChain(branches, [])
            }
        }
    }

    mutating func parseFor() throws -> JinjaForNode {
        let line = current.line
        let target = try parseAssignTarget(extraEnd: ["in"])
        if target.names.contains("loop") {
            throw JinjaError(.assertion, "Can't assign to special loop variable in for-loop target", template: name, line: line)
        }
        try expectName("in")
        let iterable = try parseTuple(withCondexpr: false, extraEnd: ["recursive"])
        var condition: JinjaExpr?
        if skipName("if") { condition = try parseExpression() }
        let recursive = skipName("recursive")
        try endBlock()
        let (body, end) = try self.body(until: ["endfor", "else"])
        var elseBody: [JinjaStatement] = []
        if end == "else" {
            try endBlock()
            (elseBody, _) = try self.body(until: ["endfor"])
        }
        try endBlock()
        return JinjaForNode(target: target, iterable: iterable, condition: condition, body: body, elseBody: elseBody, recursive: recursive)
    }

    /// An assignment target: names, `ns.attr` (when allowed), or tuples of them, possibly parenthesized.
    mutating func parseAssignTarget(extraEnd: [String] = [], withNamespace: Bool = false, nameOnly: Bool = false) throws -> JinjaTarget {
        if nameOnly { return try parseTargetItem(withNamespace: false) }
        var items = [try parseTargetItem(withNamespace: withNamespace)]
        var isTuple = false
        while isOp(",") {
            next()
            isTuple = true
            if isTupleEnd(extraEnd) || isOp("=") || isOp("|") { break }
            items.append(try parseTargetItem(withNamespace: withNamespace))
        }
        return isTuple ? .tuple(items) : items[0]
    }

    mutating func parseTargetItem(withNamespace: Bool) throws -> JinjaTarget {
        if skipOp("(") {
            let t = try parseAssignTarget(withNamespace: withNamespace)
            try expectOp(")")
            return t
        }
        guard current.kind == .name else { throw fail("can't assign to \(describe(current))") }
        let n = next().text
        if Self.constant(n) != nil { throw fail("can't assign to constant '\(n)'") }
        if withNamespace, isOp(".") {
            next()
            let attr = try expectKind(.name, "an attribute name").text
            return .namespaceAttribute(n, attr)
        }
        return .name(n)
    }

    mutating func parseSet() throws -> JinjaStatement.Kind {
        let target = try parseAssignTarget(withNamespace: true)
        if skipOp("=") {
            let e = try parseTuple()
            try endBlock()
            return .assign(target, e)
        }
        let filter = try parseFilter(nil)
        try endBlock()
        let (body, _) = try self.body(until: ["endset"])
        try endBlock()
        return .assignBlock(target, filter, body, JinjaFrameNames())
    }

    mutating func parseBlock() throws -> JinjaBlockNode {
        let nameToken = try expectKind(.name, "a block name")
        let blockName = nameToken.text
        if isOp("-") { throw fail("Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.") }
        let scoped = skipName("scoped")
        let required = skipName("required")
        try endBlock()
        guard !blockNames.contains(blockName) else { throw fail("block '\(blockName)' defined twice", line: nameToken.line) }
        blockNames.insert(blockName)
        let (body, _) = try self.body(until: ["endblock"])
        if required {
            for s in body {
                if case .data(let text) = s.kind, text.unicodeScalars.allSatisfy(isPythonSpace) { continue }
                throw fail("Required blocks can only contain comments or whitespace", line: s.line)
            }
        }
        if current.kind == .name {
            let end = next()
            if end.text != blockName { throw fail("mismatching name in endblock: '\(end.text)' for block '\(blockName)'") }
        }
        try endBlock()
        return JinjaBlockNode(name: blockName, scoped: scoped, required: required, body: body)
    }

    /// `with context` / `without context` after an include or import; nil when neither is written.
    mutating func parseContext() -> Bool? {
        if current.kind == .name, current.text == "with" || current.text == "without",
           look().kind == .name, look().text == "context" {
            let with = next().text == "with"
            next()
            return with
        }
        return nil
    }

    mutating func parseInclude() throws -> JinjaStatement.Kind {
        let template = try parseExpression()
        var ignoreMissing = false
        if isName("ignore"), look().kind == .name, look().text == "missing" {
            next(); next()
            ignoreMissing = true
        }
        let withContext = parseContext() ?? true
        try endBlock()
        return .include(template, ignoreMissing: ignoreMissing, withContext: withContext)
    }

    mutating func parseImport() throws -> JinjaStatement.Kind {
        let template = try parseExpression()
        try expectName("as")
        guard case .name(let target) = try parseAssignTarget(nameOnly: true) else { throw fail("expected a name") }
        let withContext = parseContext() ?? false
        try endBlock()
        return .importModule(template, target, withContext: withContext)
    }

    mutating func parseFrom() throws -> JinjaStatement.Kind {
        let template = try parseExpression()
        try expectName("import")
        var names: [(String, String)] = []
        var withContext: Bool?
        while true {
            if !names.isEmpty { try expectOp(",") }
            guard current.kind == .name else { throw fail("expected a name, got \(describe(current))") }
            if let c = parseContext() { withContext = c; break }
            let line = current.line
            guard case .name(let n) = try parseAssignTarget(nameOnly: true) else { throw fail("expected a name") }
            if n.hasPrefix("_") {
                throw JinjaError(.assertion, "names starting with an underline can not be imported", template: name, line: line)
            }
            var alias = n
            if skipName("as") {
                guard case .name(let a) = try parseAssignTarget(nameOnly: true) else { throw fail("expected a name") }
                alias = a
            }
            names.append((n, alias))
            if let c = parseContext() { withContext = c; break }
            if !isOp(",") { break }
        }
        try endBlock()
        return .fromImport(template, names, withContext: withContext ?? false)
    }

    mutating func parseSignature() throws -> [(String, JinjaExpr?)] {
        var params: [(String, JinjaExpr?)] = []
        try expectOp("(")
        while !isOp(")") {
            if !params.isEmpty { try expectOp(",") }
            guard case .name(let n) = try parseAssignTarget(nameOnly: true) else { throw fail("expected a name") }
            if skipOp("=") {
                params.append((n, try parseExpression()))
            } else {
                if params.contains(where: { $0.1 != nil }) { throw fail("non-default argument follows default argument") }
                params.append((n, nil))
            }
        }
        try expectOp(")")
        return params
    }

    func checkCaller(_ params: [(String, JinjaExpr?)], line: Int) throws {
        if params.contains(where: { $0.0 == "caller" && $0.1 == nil }) {
            throw JinjaError(.assertion, "When defining macros or call blocks the special 'caller' argument must be omitted or be given a default.", template: name, line: line)
        }
    }

    mutating func parseMacro() throws -> JinjaMacroNode {
        let line = current.line
        guard case .name(let macroName) = try parseAssignTarget(nameOnly: true) else { throw fail("expected a name") }
        let params = try parseSignature()
        try checkCaller(params, line: line)
        try endBlock()
        let (body, _) = try self.body(until: ["endmacro"])
        if current.kind == .name { next() }
        try endBlock()
        return JinjaMacroNode(name: macroName, parameters: params, body: body, usesCaller: false)
    }

    mutating func parseCallBlock() throws -> JinjaStatement.Kind {
        let line = current.line
        let params = isOp("(") ? try parseSignature() : []
        try checkCaller(params, line: line)
        let call = try parseExpression()
        guard case .call = call else { throw fail("expected call", line: line) }
        try endBlock()
        let (body, _) = try self.body(until: ["endcall"])
        try endBlock()
        return .callBlock(call, JinjaMacroNode(name: "caller", parameters: params, body: body, usesCaller: false))
    }

    mutating func parseFilterBlock() throws -> JinjaStatement.Kind {
        guard let filter = try parseFilter(nil, startInline: true) else { throw fail("expected a filter") }
        try endBlock()
        let (body, _) = try self.body(until: ["endfilter"])
        try endBlock()
        return .filterBlock(filter, body, JinjaFrameNames())
    }

    mutating func parseWith() throws -> JinjaStatement.Kind {
        var assignments: [(JinjaTarget, JinjaExpr)] = []
        while current.kind != .blockEnd {
            if !assignments.isEmpty { try expectOp(",") }
            let target = try parseAssignTarget()
            try expectOp("=")
            assignments.append((target, try parseExpression()))
        }
        try endBlock()
        let (body, _) = try self.body(until: ["endwith"])
        try endBlock()
        return .with(assignments, body, JinjaFrameNames())
    }
}
