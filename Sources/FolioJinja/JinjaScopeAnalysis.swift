/// Names a frame (a loop body, a macro, a `with`, a set or filter block, a block, the template) starts with as
/// undefined: Jinja2 decides at compile time that a name assigned in a frame, whose first use there is that
/// assignment and which no enclosing frame uses, is local to the frame from its start (reads before the assignment,
/// in inner frames too, see it undefined rather than the context's value).
final class JinjaFrameNames {
    var undefinedAtEntry: [String] = []
}

/// One frame's symbols, as Jinja2's `idtracking.Symbols` keeps them.
final class JinjaSymbols {
    enum Load { case parameter, resolve, alias, undefined }

    let parent: JinjaSymbols?
    var refs: [String: Load] = [:]
    var stores: Set<String> = []

    init(parent: JinjaSymbols?) { self.parent = parent }

    func hasRef(_ name: String) -> Bool { refs[name] != nil || parent?.hasRef(name) == true }

    func load(_ name: String) {
        if !hasRef(name) { refs[name] = .resolve }
    }

    func store(_ name: String) {
        stores.insert(name)
        if refs[name] == nil { refs[name] = parent?.hasRef(name) == true ? .alias : .undefined }
    }

    func parameter(_ name: String) {
        stores.insert(name)
        refs[name] = .parameter
    }

    func copy() -> JinjaSymbols {
        let c = JinjaSymbols(parent: parent)
        c.refs = refs
        c.stores = stores
        return c
    }

    /// After an `if`: names assigned in only some branches are looked up, not undefined.
    func branchUpdate(_ branches: [JinjaSymbols]) {
        let newStores = Set(branches.flatMap(\.stores)).subtracting(stores)
        for b in branches {
            refs.merge(b.refs) { $1 }
            stores.formUnion(b.stores)
        }
        for name in newStores { refs[name] = parent?.hasRef(name) == true ? .alias : .resolve }
    }

    var undefinedNames: [String] { refs.filter { $0.value == .undefined }.map(\.key).sorted() }
}

/// Walks a template the way Jinja2's `FrameSymbolVisitor` does: a frame's own statements first, then each inner
/// frame with the finished outer symbols as its parent.
struct JinjaScopeAnalyzer {
    var pending: [() -> Void] = []

    static func analyze(_ body: [JinjaStatement], root: JinjaFrameNames) {
        let symbols = JinjaSymbols(parent: nil)
        frame(body, symbols, names: root)
    }

    /// Visits `body` in `symbols`, records the frame's undefined names, then analyzes its inner frames.
    static func frame(_ body: [JinjaStatement], _ symbols: JinjaSymbols, names: JinjaFrameNames, before: (inout JinjaScopeAnalyzer) -> Void = { _ in }) {
        var analyzer = JinjaScopeAnalyzer()
        before(&analyzer)
        for s in body { analyzer.statement(s, symbols) }
        names.undefinedAtEntry = symbols.undefinedNames
        for inner in analyzer.pending { inner() }
    }

    mutating func statement(_ s: JinjaStatement, _ sym: JinjaSymbols) {
        switch s.kind {
        case .data, .breakLoop, .continueLoop: break
        case .output(let e), .doExpr(let e), .extends(let e): expr(e, sym)
        case .include(let e, _, _): expr(e, sym)
        case .ifChain(let branches, let elseBody): ifChain(branches[...], elseBody, sym)
        case .forLoop(let node):
            expr(node.iterable, sym)
            pending.append {
                let body = JinjaSymbols(parent: sym)
                JinjaScopeAnalyzer.frame(node.body, body, names: node.bodyNames) { a in a.target(node.target, body, parameter: true) }
                JinjaScopeAnalyzer.frame(node.elseBody, JinjaSymbols(parent: sym), names: node.elseNames)
            }
        case .assign(let t, let e):
            expr(e, sym)
            target(t, sym, parameter: false)
        case .assignBlock(let t, _, let body, let names):
            target(t, sym, parameter: false)
            pending.append { JinjaScopeAnalyzer.frame(body, JinjaSymbols(parent: sym), names: names) }
        case .block(let node):
            pending.append { JinjaScopeAnalyzer.frame(node.body, JinjaSymbols(parent: nil), names: node.names) }
        case .importModule(let e, let name, _):
            expr(e, sym)
            sym.store(name)
        case .fromImport(let e, let names, _):
            expr(e, sym)
            for (_, alias) in names { sym.store(alias) }
        case .macro(let node):
            sym.store(node.name)
            pending.append { JinjaScopeAnalyzer.macroFrame(node, sym) }
        case .callBlock(let call, let node):
            expr(call, sym)
            pending.append { JinjaScopeAnalyzer.macroFrame(node, sym) }
        case .filterBlock(let filter, let body, let names):
            expr(filter, sym)
            pending.append {
                let inner = JinjaSymbols(parent: sym)
                JinjaScopeAnalyzer.frame(body, inner, names: names) { a in a.expr(filter, inner) }
            }
        case .with(let assignments, let body, let names):
            for (_, e) in assignments { expr(e, sym) }
            pending.append {
                let inner = JinjaSymbols(parent: sym)
                JinjaScopeAnalyzer.frame(body, inner, names: names) { a in
                    for (t, _) in assignments { a.target(t, inner, parameter: false) }
                }
            }
        case .autoescape(let e, let body, let names):
            expr(e, sym)
            pending.append { JinjaScopeAnalyzer.frame(body, JinjaSymbols(parent: sym), names: names) }
        }
    }

    static func macroFrame(_ node: JinjaMacroNode, _ parent: JinjaSymbols) {
        let inner = JinjaSymbols(parent: parent)
        frame(node.body, inner, names: node.names) { a in
            for (name, defaultValue) in node.parameters {
                inner.parameter(name)
                if let defaultValue { a.expr(defaultValue, inner) }
            }
        }
    }

    mutating func ifChain(_ branches: ArraySlice<(JinjaExpr, [JinjaStatement])>, _ elseBody: [JinjaStatement], _ sym: JinjaSymbols) {
        guard let (condition, body) = branches.first else {
            for s in elseBody { statement(s, sym) }
            return
        }
        expr(condition, sym)
        let bodySymbols = sym.copy()
        for s in body { statement(s, bodySymbols) }
        let restSymbols = sym.copy()
        ifChain(branches.dropFirst(), elseBody, restSymbols)
        sym.branchUpdate([bodySymbols, restSymbols])
    }

    mutating func target(_ t: JinjaTarget, _ sym: JinjaSymbols, parameter: Bool) {
        switch t {
        case .name(let n): parameter ? sym.parameter(n) : sym.store(n)
        case .namespaceAttribute(let n, _): sym.load(n)
        case .tuple(let ts): for t in ts { target(t, sym, parameter: parameter) }
        }
    }

    mutating func args(_ a: JinjaCallArgs, _ sym: JinjaSymbols) {
        for e in a.positional { expr(e, sym) }
        for (_, e) in a.keywords { expr(e, sym) }
        if let s = a.star { expr(s, sym) }
        if let s = a.doubleStar { expr(s, sym) }
    }

    mutating func expr(_ e: JinjaExpr, _ sym: JinjaSymbols) {
        switch e {
        case .constant: break
        case .name(let n, _): sym.load(n)
        case .list(let items), .tuple(let items), .concat(let items, _): for i in items { expr(i, sym) }
        case .dict(let pairs): for (k, v) in pairs { expr(k, sym); expr(v, sym) }
        case .attribute(let o, _, _), .unary(_, let o, _), .not(let o, _): expr(o, sym)
        case .item(let o, let k, _): expr(o, sym); expr(k, sym)
        case .slice(let o, let a, let b, let c, _):
            expr(o, sym)
            for x in [a, b, c] { if let x { expr(x, sym) } }
        case .binary(_, let a, let b, _), .and(let a, let b), .or(let a, let b): expr(a, sym); expr(b, sym)
        case .compare(let first, let ops, _):
            expr(first, sym)
            for (_, x) in ops { expr(x, sym) }
        case .conditional(let c, let a, let b):
            expr(a, sym)
            expr(c, sym)
            if let b { expr(b, sym) }
        case .call(let f, let a, _): expr(f, sym); args(a, sym)
        case .filter(let input, _, let a, _):
            if let input { expr(input, sym) }
            args(a, sym)
        case .test(let input, _, let a, _, _): expr(input, sym); args(a, sym)
        }
    }
}
