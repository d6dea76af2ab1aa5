/// Expressions, with Jinja2's precedence: conditional, or, and, not, comparisons, + -, ~, * / // %, **, unary
/// minus, then primaries with postfix lookups, calls, filters and tests.
extension JinjaParser {
    static func constant(_ name: String) -> JinjaValue? {
        switch name {
        case "true", "True": return .bool(true)
        case "false", "False": return .bool(false)
        case "none", "None": return JinjaValue.none
        default: return nil
        }
    }

    func isTupleEnd(_ extraEnd: [String]) -> Bool {
        switch current.kind {
        case .variableEnd, .blockEnd, .eof: return true
        case .op: return current.text == ")"
        case .name: return extraEnd.contains(current.text)
        default: return false
        }
    }

    mutating func parseTuple(withCondexpr: Bool = true, extraEnd: [String] = [], explicitParentheses: Bool = false) throws -> JinjaExpr {
        let line = current.line
        var args: [JinjaExpr] = []
        var isTuple = false
        while true {
            if !args.isEmpty { try expectOp(",") }
            if isTupleEnd(extraEnd) { break }
            args.append(try parseExpression(withCondexpr: withCondexpr))
            if isOp(",") { isTuple = true } else { break }
        }
        if !isTuple {
            if let first = args.first { return first }
            if !explicitParentheses { throw fail("Expected an expression, got \(describe(current))", line: line) }
        }
        return .tuple(args)
    }

    mutating func parseExpression(withCondexpr: Bool = true) throws -> JinjaExpr {
        try nest()
        defer { depth -= 1 }
        return withCondexpr ? try parseConditional() : try parseOr()
    }

    mutating func parseConditional() throws -> JinjaExpr {
        var expr = try parseOr()
        var added = 0
        defer { depth -= added }
        while skipName("if") {
            try nest()
            added += 1
            let condition = try parseOr()
            let otherwise = skipName("else") ? try parseConditional() : nil
            expr = .conditional(condition, expr, otherwise)
        }
        return expr
    }

    mutating func parseOr() throws -> JinjaExpr {
        var left = try parseAnd()
        var added = 0
        defer { depth -= added }
        while skipName("or") {
            try nest()
            added += 1
            left = .or(left, try parseAnd())
        }
        return left
    }

    mutating func parseAnd() throws -> JinjaExpr {
        var left = try parseNot()
        var added = 0
        defer { depth -= added }
        while skipName("and") {
            try nest()
            added += 1
            left = .and(left, try parseNot())
        }
        return left
    }

    mutating func parseNot() throws -> JinjaExpr {
        if isName("not") {
            let line = next().line
            try nest()
            defer { depth -= 1 }
            return .not(try parseNot(), line: line)
        }
        return try parseCompare()
    }

    mutating func parseCompare() throws -> JinjaExpr {
        let line = current.line
        let expr = try parseMath1()
        var ops: [(String, JinjaExpr)] = []
        while true {
            if current.kind == .op, ["==", "!=", "<", "<=", ">", ">="].contains(current.text) {
                let op = next().text
                ops.append((op, try parseMath1()))
            } else if skipName("in") {
                ops.append(("in", try parseMath1()))
            } else if isName("not"), look().kind == .name, look().text == "in" {
                next(); next()
                ops.append(("notin", try parseMath1()))
            } else {
                break
            }
        }
        return ops.isEmpty ? expr : .compare(expr, ops, line: line)
    }

    mutating func parseMath1() throws -> JinjaExpr {
        var left = try parseConcat()
        var added = 0
        defer { depth -= added }
        while current.kind == .op, current.text == "+" || current.text == "-" {
            try nest()
            added += 1
            let t = next()
            left = .binary(t.text, left, try parseConcat(), line: t.line)
        }
        return left
    }

    mutating func parseConcat() throws -> JinjaExpr {
        let line = current.line
        var args = [try parseMath2()]
        while skipOp("~") { args.append(try parseMath2()) }
        return args.count == 1 ? args[0] : .concat(args, line: line)
    }

    mutating func parseMath2() throws -> JinjaExpr {
        var left = try parsePow()
        var added = 0
        defer { depth -= added }
        while current.kind == .op, ["*", "/", "//", "%"].contains(current.text) {
            try nest()
            added += 1
            let t = next()
            left = .binary(t.text, left, try parsePow(), line: t.line)
        }
        return left
    }

    mutating func parsePow() throws -> JinjaExpr {
        var left = try parseUnary()
        var added = 0
        defer { depth -= added }
        while isOp("**") {
            try nest()
            added += 1
            let t = next()
            left = .binary("**", left, try parseUnary(), line: t.line)
        }
        return left
    }

    mutating func parseUnary(withFilter: Bool = true) throws -> JinjaExpr {
        try nest()
        defer { depth -= 1 }
        var node: JinjaExpr
        if isOp("-") || isOp("+") {
            let t = next()
            node = .unary(t.text, try parseUnary(withFilter: false), line: t.line)
        } else {
            node = try parsePrimary()
        }
        node = try parsePostfix(node)
        if withFilter { node = try parseFilterExpr(node) }
        return node
    }

    mutating func parsePrimary() throws -> JinjaExpr {
        let t = current
        switch t.kind {
        case .name:
            next()
            if let c = Self.constant(t.text) { return .constant(c) }
            return .name(t.text, line: t.line)
        case .string:
            var s = next().text
            while current.kind == .string { s += next().text }
            return .constant(.string(s))
        case .integer:
            next()
            return .constant(t.bigValue.map { .bigInt($0) } ?? .int(t.intValue))
        case .float:
            next()
            return .constant(.float(t.floatValue))
        case .op where t.text == "(":
            next()
            let e = try parseTuple(explicitParentheses: true)
            try expectOp(")")
            return e
        case .op where t.text == "[":
            return try parseList()
        case .op where t.text == "{":
            return try parseDict()
        case .op:
            throw fail("unexpected '\(t.text)'")
        default:
            throw fail("Expected an expression, got \(describe(t))")
        }
    }

    mutating func parseList() throws -> JinjaExpr {
        try expectOp("[")
        var items: [JinjaExpr] = []
        while !isOp("]") {
            if !items.isEmpty { try expectOp(",") }
            if isOp("]") { break }
            items.append(try parseExpression())
        }
        try expectOp("]")
        return .list(items)
    }

    mutating func parseDict() throws -> JinjaExpr {
        try expectOp("{")
        var items: [(JinjaExpr, JinjaExpr)] = []
        while !isOp("}") {
            if !items.isEmpty { try expectOp(",") }
            if isOp("}") { break }
            let key = try parseExpression()
            try expectOp(":")
            items.append((key, try parseExpression()))
        }
        try expectOp("}")
        return .dict(items)
    }

    mutating func parsePostfix(_ start: JinjaExpr) throws -> JinjaExpr {
        var node = start
        var added = 0
        defer { depth -= added }
        while true {
            if isOp(".") || isOp("[") || isOp("(") {
                try nest()
                added += 1
            }
            if isOp(".") || isOp("[") {
                node = try parseSubscript(node)
            } else if isOp("(") {
                let line = current.line
                node = .call(node, try parseCallArgs(), line: line)
            } else {
                return node
            }
        }
    }

    mutating func parseFilterExpr(_ start: JinjaExpr) throws -> JinjaExpr {
        var node = start
        var added = 0
        defer { depth -= added }
        while true {
            if isOp("|") || isName("is") || isOp("(") {
                try nest()
                added += 1
            }
            if isOp("|") {
                node = try parseFilter(node)
            } else if isName("is") {
                node = try parseTest(node)
            } else if isOp("(") {
                let line = current.line
                node = .call(node, try parseCallArgs(), line: line)
            } else {
                return node
            }
        }
    }

    mutating func parseSubscript(_ node: JinjaExpr) throws -> JinjaExpr {
        let t = next()
        if t.text == "." {
            let attr = current
            if attr.kind == .name { next(); return .attribute(node, attr.text, line: attr.line) }
            if attr.kind == .integer { next(); return .item(node, .constant(attr.bigValue.map { .bigInt($0) } ?? .int(attr.intValue)), line: attr.line) }
            throw fail("expected name or number")
        }
        var items: [JinjaExpr] = []
        var slice: (JinjaExpr?, JinjaExpr?, JinjaExpr?)?
        while !isOp("]") {
            if !items.isEmpty || slice != nil { try expectOp(",") }
            var start: JinjaExpr?
            if !isOp(":") {
                let first = try parseExpression()
                start = first
                if !isOp(":") { items.append(first); continue }
            }
            next()
            var stop: JinjaExpr?
            var step: JinjaExpr?
            if !isOp("]"), !isOp(","), !isOp(":") { stop = try parseExpression() }
            if skipOp(":"), !isOp("]"), !isOp(",") { step = try parseExpression() }
            slice = (start, stop, step)
        }
        try expectOp("]")
        if let slice, items.isEmpty { return .slice(node, slice.0, slice.1, slice.2, line: t.line) }
        if slice != nil { throw fail("slices inside tuples of subscripts are not supported") }
        if items.count == 1 { return .item(node, items[0], line: t.line) }
        return .item(node, .tuple(items), line: t.line)
    }

    mutating func parseCallArgs() throws -> JinjaCallArgs {
        let line = current.line
        try expectOp("(")
        var args = JinjaCallArgs()
        var requireComma = false
        func ensure(_ ok: Bool) throws {
            if !ok { throw JinjaError(.syntax, "invalid syntax for function call expression", template: name, line: line) }
        }
        while !isOp(")") {
            if requireComma {
                try expectOp(",")
                if isOp(")") { break }
            }
            if skipOp("*") {
                try ensure(args.star == nil && args.doubleStar == nil)
                args.star = try parseExpression()
            } else if skipOp("**") {
                try ensure(args.doubleStar == nil)
                args.doubleStar = try parseExpression()
            } else if current.kind == .name, look().kind == .op, look().text == "=" {
                try ensure(args.star == nil && args.doubleStar == nil)
                let key = next().text
                next()
                args.keywords.append((key, try parseExpression()))
            } else {
                try ensure(args.star == nil && args.doubleStar == nil && args.keywords.isEmpty)
                args.positional.append(try parseExpression())
            }
            requireComma = true
        }
        try expectOp(")")
        return args
    }

    mutating func dottedName() throws -> String {
        var n = try expectKind(.name, "a name").text
        while isOp(".") {
            next()
            n += "." + (try expectKind(.name, "a name").text)
        }
        return n
    }

    mutating func parseFilter(_ input: JinjaExpr?, startInline: Bool = false) throws -> JinjaExpr? {
        var node = input
        var inline = startInline
        var added = 0
        defer { depth -= added }
        while isOp("|") || inline {
            try nest()
            added += 1
            if !inline { next() }
            inline = false
            let line = current.line
            let filterName = try dottedName()
            let args = isOp("(") ? try parseCallArgs() : JinjaCallArgs()
            node = .filter(node, JinjaFilterName(filterName), args, line: line)
        }
        return node
    }

    mutating func parseFilter(_ input: JinjaExpr) throws -> JinjaExpr {
        try parseFilter(Optional(input)) ?? input
    }

    mutating func parseTest(_ node: JinjaExpr) throws -> JinjaExpr {
        let line = next().line
        let negated = skipName("not")
        let testName = try dottedName()
        var args = JinjaCallArgs()
        if isOp("(") {
            args = try parseCallArgs()
        } else if [.name, .string, .integer, .float].contains(current.kind) || isOp("[") || isOp("{"),
                  !(current.kind == .name && ["else", "or", "and"].contains(current.text)) {
            if isName("is") { throw fail("You cannot chain multiple tests with is") }
            args.positional = [try parsePostfix(try parsePrimary())]
        }
        return .test(node, testName, args, negated: negated, line: line)
    }
}
