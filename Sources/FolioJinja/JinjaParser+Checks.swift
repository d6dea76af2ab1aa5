/// Jinja2's compile-time check of filter and test names: an unknown one is a `TemplateAssertionError` when the
/// template is built, unless it sits inside an `if` or an inline `if` of its own frame (then it fails only if reached).
struct JinjaNameCheck {
    /// The filters and tests known: Jinja2's and those of the enabled extensions.
    let filters: Set<String>
    let tests: Set<String>
    /// Filters an enabled extension has that Folio does not: named as such.
    let unavailable: Set<String>

    static func check(_ body: [JinjaStatement], template: String, extensions: Set<JinjaExtension> = []) throws {
        let checker = JinjaNameCheck(filters: JinjaRenderer.filterNames.union(JinjaExtension.filterNames(extensions)),
                                     tests: JinjaRenderer.testNames.union(JinjaExtension.testNames(extensions)),
                                     unavailable: extensions.contains(.ansibleFilters) ? JinjaExtension.ansibleUnavailable : [])
        for s in body { try checker.statement(s, soft: false, template) }
    }

    func statement(_ s: JinjaStatement, soft: Bool, _ t: String) throws {
        func e(_ x: JinjaExpr, _ soft: Bool = soft) throws { try expr(x, soft: soft, line: s.line, t) }
        func frame(_ b: [JinjaStatement]) throws { for x in b { try statement(x, soft: false, t) } }
        switch s.kind {
        case .data, .breakLoop, .continueLoop: break
        case .output(let x), .doExpr(let x), .extends(let x), .include(let x, _, _), .importModule(let x, _, _), .fromImport(let x, _, _):
            try e(x)
        case .ifChain(let branches, let elseBody):
            for (condition, body) in branches {
                try e(condition, true)
                for x in body { try statement(x, soft: true, t) }
            }
            for x in elseBody { try statement(x, soft: true, t) }
        case .forLoop(let node):
            try e(node.iterable)
            if let c = node.condition { try e(c, false) }
            try frame(node.body)
            try frame(node.elseBody)
        case .assign(_, let x): try e(x)
        case .assignBlock(_, let filter, let body, _):
            if let filter { try e(filter) }
            try frame(body)
        case .block(let node): try frame(node.body)
        case .macro(let node):
            for case (_, let d?) in node.parameters { try e(d, false) }
            try frame(node.body)
        case .callBlock(let call, let node):
            try e(call)
            try frame(node.body)
        case .filterBlock(let filter, let body, _):
            try e(filter)
            try frame(body)
        case .with(let assignments, let body, _):
            for (_, x) in assignments { try e(x) }
            try frame(body)
        case .autoescape(let x, let body, _):
            try e(x)
            try frame(body)
        }
    }

    func args(_ a: JinjaCallArgs, soft: Bool, line: Int, _ t: String) throws {
        for x in a.positional { try expr(x, soft: soft, line: line, t) }
        for (_, x) in a.keywords { try expr(x, soft: soft, line: line, t) }
        if let x = a.star { try expr(x, soft: soft, line: line, t) }
        if let x = a.doubleStar { try expr(x, soft: soft, line: line, t) }
    }

    func expr(_ e: JinjaExpr, soft: Bool, line: Int, _ t: String) throws {
        func sub(_ x: JinjaExpr, _ s: Bool = soft) throws { try expr(x, soft: s, line: line, t) }
        switch e {
        case .constant, .name: break
        case .list(let items), .tuple(let items), .concat(let items, _): for i in items { try sub(i) }
        case .dict(let pairs): for (k, v) in pairs { try sub(k); try sub(v) }
        case .attribute(let o, _, _), .unary(_, let o, _), .not(let o, _): try sub(o)
        case .item(let o, let k, _): try sub(o); try sub(k)
        case .slice(let o, let a, let b, let c, _):
            try sub(o)
            for x in [a, b, c] { if let x { try sub(x) } }
        case .binary(_, let a, let b, _), .and(let a, let b), .or(let a, let b): try sub(a); try sub(b)
        case .compare(let first, let ops, _):
            try sub(first)
            for (_, x) in ops { try sub(x) }
        case .conditional(let c, let a, let b):
            try sub(a, true)
            try sub(c, true)
            if let b { try sub(b, true) }
        case .call(let f, let a, _):
            try sub(f)
            try args(a, soft: soft, line: line, t)
        case .filter(let input, let filter, let a, let l):
            let name = filter.text
            if !soft, !filters.contains(name) {
                if unavailable.contains(name) {
                    throw JinjaError(.assertion, "No filter named '\(name)': jinja2-ansible-filters has it, Folio does not.", template: t, line: l)
                }
                throw JinjaError(.assertion, "No filter named '\(name)'.", template: t, line: l)
            }
            if let input { try sub(input) }
            try args(a, soft: soft, line: line, t)
        case .test(let input, let name, let a, _, let l):
            if !soft, !tests.contains(name) {
                throw JinjaError(.assertion, "No test named '\(name)'.", template: t, line: l)
            }
            try sub(input)
            try args(a, soft: soft, line: line, t)
        }
    }
}
