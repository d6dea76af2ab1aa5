/// Running statements: output, conditions, loops, assignments, inheritance, includes and imports.
extension JinjaRenderer {
    func render(_ body: [JinjaStatement], _ scope: JinjaScope) throws {
        try checkStack()
        for s in body {
            line = s.line
            statementLine = s.line
            column = s.column
            try execute(s, scope)
        }
    }

    func execute(_ s: JinjaStatement, _ scope: JinjaScope) throws {
        switch s.kind {
        case .data(let text): try emit(text)
        case .output(let e): try emit(try outputText(try eval(e, scope)))
        case .ifChain(let branches, let elseBody):
            for (condition, body) in branches where try truthy(try eval(condition, scope)) {
                try render(body, scope)
                return
            }
            try render(elseBody, scope)
        case .forLoop(let node): try renderFor(node, scope)
        case .assign(let target, let e): try assign(target, try eval(e, scope), scope)
        case .assignBlock(let target, let filter, let body, let names):
            let inner = JinjaScope(parent: scope)
            shadow(names, inner)
            var value: JinjaValue = .string(try capture { try render(body, inner) })
            if autoescape, case .string(let t) = value { value = .markup(t) }
            if let filter { value = try applyFilterChain(filter, input: value, scope) }
            try assign(target, value, scope)
        case .block(let node):
            if frame.parent != nil { return }
            try renderBlock(node.name, 0, node.scoped ? scope : frame.context)
        case .extends(let e):
            if frame.parent != nil { throw error(.runtime, "extended multiple times") }
            guard let parent = try resolveTemplate(try eval(e, scope)) else { return }
            frame.parent = parent
            discard = true
        case .include(let e, let ignoreMissing, let withContext):
            guard let t = try resolveTemplate(try eval(e, scope), ignoreMissing: ignoreMissing) else { return }
            try enter("includes")
            defer { leave() }
            let context = withContext ? JinjaScope(parent: nil, vars: scope.flattened()) : JinjaScope(parent: nil)
            try renderTemplate(t, context: context)
        case .importModule(let e, let name, let withContext):
            try assign(.name(name), .object(try importModule(try eval(e, scope), withContext: withContext, scope)), scope)
        case .fromImport(let e, let names, let withContext):
            let templateValue = try eval(e, scope)
            let module = try importModule(templateValue, withContext: withContext, scope)
            for (name, alias) in names {
                let value = module.attribute(name) ?? .undefined(JinjaUndefined(name: name, hint: "the template \(JinjaValue.stringRepr(templateValue.plainString)) (imported on line \(s.line)) does not export the requested name \(JinjaValue.stringRepr(name))"))
                try assign(.name(alias), value, scope)
            }
        case .macro(let node):
            try assign(.name(node.name), makeMacro(node, scope), scope)
        case .callBlock(let call, let node):
            try emit(try outputText(try evalCallBlock(call, node, scope)))
        case .filterBlock(let filter, let body, let names):
            let inner = JinjaScope(parent: scope)
            shadow(names, inner)
            var text: JinjaValue = .string(try capture { try render(body, inner) })
            if autoescape, case .string(let t) = text { text = .markup(t) }
            try emit(try outputText(try applyFilterChain(filter, input: text, scope)))
        case .with(let assignments, let body, let names):
            let inner = JinjaScope(parent: scope)
            shadow(names, inner)
            var values: [(JinjaTarget, JinjaValue)] = []
            for (target, e) in assignments { values.append((target, try eval(e, scope))) }
            for (target, v) in values { try assign(target, v, inner) }
            try render(body, inner)
        case .autoescape(let e, let body, let names):
            let saved = autoescape
            autoescape = try truthy(try eval(e, scope))
            defer { autoescape = saved }
            let inner = JinjaScope(parent: scope)
            shadow(names, inner)
            try render(body, inner)
        case .doExpr(let e): _ = try eval(e, scope)
        case .breakLoop: throw JinjaLoopControl.breakLoop
        case .continueLoop: throw JinjaLoopControl.continueLoop
        }
    }

    /// What `{{ value }}` writes: `str(value)`, HTML-escaped under autoescape unless marked safe.
    func outputText(_ value: JinjaValue) throws -> String {
        if case .markup(let s) = value { return s }
        let s = try str(value)
        return autoescape ? Self.escapeHTML(s) : s
    }

    static func escapeHTML(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&#34;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    // MARK: Assignment

    func assign(_ target: JinjaTarget, _ value: JinjaValue, _ scope: JinjaScope) throws {
        switch target {
        case .name(let n): scope.assign(n, value)
        case .namespaceAttribute(let n, let attr):
            guard case .namespace(let ns) = scope.lookup(n) ?? .none else {
                throw error(.runtime, "cannot assign attribute on non-namespace object")
            }
            ns.attributes.set(.string(attr), value)
        case .tuple(let targets):
            let items = try unpack(value, count: targets.count)
            for (t, v) in zip(targets, items) { try assign(t, v, scope) }
        }
    }

    func unpack(_ value: JinjaValue, count: Int) throws -> [JinjaValue] {
        let items = try iterate(value)
        if items.count < count { throw error(.value, "not enough values to unpack (expected \(count), got \(items.count))") }
        if items.count > count { throw error(.value, "too many values to unpack (expected \(count))") }
        return items
    }

    // MARK: Blocks

    func renderBlock(_ name: String, _ index: Int, _ parentScope: JinjaScope) throws {
        guard let chain = frame.blocks[name], index < chain.count else {
            throw error(.runtime, "no block named '\(name)'")
        }
        let node = chain[index]
        if node.required { throw error(.runtime, "Required block '\(name)' not found") }
        try enter("blocks")
        defer { leave() }
        let scope = JinjaScope(parent: parentScope)
        shadow(node.names, scope)
        let currentFrame = frame
        scope.vars["super"] = .function(JinjaFunction(name: "super") { [unowned self] _, _ in
            guard index + 1 < chain.count else {
                throw self.error(.runtime, "there is no parent block called '\(name)'.")
            }
            let text = try self.capture {
                self.frames.append(currentFrame)
                defer { self.frames.removeLast() }
                try self.renderBlock(name, index + 1, parentScope)
            }
            return self.autoescape ? .markup(text) : .string(text)
        })
        try render(node.body, scope)
    }

    // MARK: Imports

    func importModule(_ templateValue: JinjaValue, withContext: Bool, _ scope: JinjaScope) throws -> JinjaModule {
        guard let t = try resolveTemplate(templateValue) else { throw error(.notFound, "template not found") }
        try enter("imports")
        defer { leave() }
        let context = withContext ? JinjaScope(parent: nil, vars: scope.flattened()) : JinjaScope(parent: nil)
        let body = try capture { try renderTemplate(t, context: context) }
        let module = JinjaModule(name: t.name, body: body)
        for n in context.assigned where !n.hasPrefix("_") {
            if let v = context.vars[n] { module.exports.set(.string(n), v) }
        }
        return module
    }
}

/// An imported template: its exported macros and variables as attributes.
final class JinjaModule: JinjaObject {
    let name: String
    let body: String
    let exports = JinjaDict()

    init(name: String, body: String) {
        self.name = name
        self.body = body
    }

    var typeName: String { "TemplateModule" }

    func attribute(_ name: String) -> JinjaValue? {
        exports[name]
    }
}
