/// Evaluating expressions with Python's semantics.
extension JinjaRenderer {
    func eval(_ e: JinjaExpr, _ scope: JinjaScope) throws -> JinjaValue {
        switch e {
        case .constant(let v): return v
        case .name(let n, _): return resolve(n, scope)
        default:
            try checkStack()
            return try evalCompound(e, scope)
        }
    }

    func evalCompound(_ e: JinjaExpr, _ scope: JinjaScope) throws -> JinjaValue {
        switch e {
        case .constant(let v): return v
        case .name(let n, _): return resolve(n, scope)
        case .list(let items):
            try step(items.count)
            return .array(try items.map { try eval($0, scope) })
        case .tuple(let items): return .tuple(try items.map { try eval($0, scope) })
        case .dict(let pairs):
            let d = JinjaDict()
            for (k, v) in pairs {
                let key = try eval(k, scope)
                guard d.set(key, try eval(v, scope)) else { throw error(.type, "unhashable type: '\(key.typeName)'") }
            }
            return .dict(d)
        case .attribute(let obj, let attr, let l):
            let o = try eval(obj, scope)
            line = l
            return try getAttribute(o, attr)
        case .item(let obj, let key, let l):
            let o = try eval(obj, scope)
            let k = try eval(key, scope)
            line = l
            return try getItem(o, k)
        case .slice(let obj, let a, let b, let c, let l):
            let o = try eval(obj, scope)
            let start = try a.map { try eval($0, scope) }
            let stop = try b.map { try eval($0, scope) }
            let stepValue = try c.map { try eval($0, scope) }
            line = l
            return try slice(o, start, stop, stepValue)
        case .unary(let op, let operand, let l):
            let v = try eval(operand, scope)
            line = l
            return try unary(op, v)
        case .binary(let op, let a, let b, let l):
            let x = try eval(a, scope)
            let y = try eval(b, scope)
            line = l
            return try binary(op, x, y)
        case .compare(let first, let ops, let l):
            var left = try eval(first, scope)
            for (op, rhs) in ops {
                let right = try eval(rhs, scope)
                line = l
                if !(try compare(op, left, right)) { return .bool(false) }
                left = right
            }
            return .bool(true)
        case .and(let a, let b):
            let x = try eval(a, scope)
            return try truthy(x) ? try eval(b, scope) : x
        case .or(let a, let b):
            let x = try eval(a, scope)
            return try truthy(x) ? x : try eval(b, scope)
        case .not(let a, _): return .bool(!(try truthy(try eval(a, scope))))
        case .conditional(let condition, let then, let otherwise):
            if try truthy(try eval(condition, scope)) { return try eval(then, scope) }
            if let otherwise { return try eval(otherwise, scope) }
            return .undefined(JinjaUndefined(name: nil, hint: "the inline if-expression on line \(line) evaluated to false and no else section was defined."))
        case .concat(let parts, let l):
            var s = ""
            var safe = false
            for p in parts {
                let v = try eval(p, scope)
                line = l
                if case .markup(let m) = v { s += m; safe = true } else { s += autoescape ? Self.escapeHTML(try str(v)) : try str(v) }
                try checkSize(s.utf8.count)
            }
            return autoescape || safe ? (autoescape ? .markup(s) : .string(s)) : .string(s)
        case .call(let callee, let args, let l):
            let f = try eval(callee, scope)
            let a = try evalArgs(args, scope)
            line = l
            return try call(f, a)
        case .filter(let input, let name, let args, let l):
            let v = try input.map { try eval($0, scope) } ?? .none
            let a = try evalArgs(args, scope)
            line = l
            return try applyFilter(name.text, v, a, group: name.group)
        case .test(let input, let name, let args, let negated, let l):
            let v = try eval(input, scope)
            let a = try evalArgs(args, scope)
            line = l
            let result = try applyTest(name, v, a)
            return .bool(negated ? !result : result)
        }
    }

    /// A filter chain written without input (`{% filter upper|trim %}`, `{% set x | trim %}`) applied to `input`.
    func applyFilterChain(_ chain: JinjaExpr, input: JinjaValue, _ scope: JinjaScope) throws -> JinjaValue {
        guard case .filter(let inner, let name, let args, let l) = chain else { return try eval(chain, scope) }
        let v = try inner.map { try applyFilterChain($0, input: input, scope) } ?? input
        let a = try evalArgs(args, scope)
        line = l
        return try applyFilter(name.text, v, a, group: name.group)
    }

    func evalArgs(_ args: JinjaCallArgs, _ scope: JinjaScope) throws -> JinjaArguments {
        var result = JinjaArguments(try args.positional.map { try eval($0, scope) })
        for (k, e) in args.keywords { result.keywords.append((k, try eval(e, scope))) }
        if let star = args.star { result.positional += try iterate(try eval(star, scope)) }
        if let dstar = args.doubleStar {
            guard case .dict(let d) = try eval(dstar, scope) else { throw error(.type, "argument after ** must be a mapping") }
            for (k, v) in d.entries { result.keywords.append((k.plainString, v)) }
        }
        return result
    }

    func resolve(_ name: String, _ scope: JinjaScope) -> JinjaValue {
        if let v = scope.lookup(name) { return v }
        if let g = global(name) ?? extensionGlobal(name) { return g }
        if name == "self" { return .object(JinjaSelfReference(renderer: self)) }
        return .undefined(JinjaUndefined(name: name))
    }
}

/// `self`: the blocks of the template being rendered, callable by name.
final class JinjaSelfReference: JinjaObject {
    unowned let renderer: JinjaRenderer
    let frame: JinjaTemplateFrame

    init(renderer: JinjaRenderer) {
        self.renderer = renderer
        frame = renderer.frame
    }

    var typeName: String { "TemplateReference" }

    func attribute(_ name: String) -> JinjaValue? {
        guard frame.blocks[name] != nil else { return nil }
        return .function(JinjaFunction(name: name) { _, r in
            let text = try r.capture {
                r.frames.append(self.frame)
                defer { r.frames.removeLast() }
                try r.renderBlock(name, 0, self.frame.context)
            }
            return r.autoescape ? .markup(text) : .string(text)
        })
    }
}
