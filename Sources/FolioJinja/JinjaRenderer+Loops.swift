/// `{% for %}`: filtering, `else`, `loop.*`, unpacking, recursion, break and continue.
extension JinjaRenderer {
    func renderFor(_ node: JinjaForNode, _ scope: JinjaScope) throws {
        let items = try iterate(try eval(node.iterable, scope))
        try renderLoop(node, items, scope, depth: 1)
    }

    func renderLoop(_ node: JinjaForNode, _ all: [JinjaValue], _ scope: JinjaScope, depth: Int) throws {
        var items = all
        if let condition = node.condition {
            items = []
            // One scope for all the tests: each binds the same names (the target and an undefined `loop`) anew.
            let s = JinjaScope(parent: scope)
            let undefinedLoop = JinjaValue.undefined(JinjaUndefined(name: "loop"))
            for item in all {
                try step()
                try assign(node.target, item, s)
                s.vars["loop"] = undefinedLoop
                if try truthy(try eval(condition, s)) { items.append(item) }
            }
        }
        if items.isEmpty {
            // The else block sees the enclosing loop's `loop`, as in Jinja2.
            let s = JinjaScope(parent: scope)
            shadow(node.elseNames, s)
            try render(node.elseBody, s)
            return
        }
        let loop = JinjaLoop(items: items, depth: depth)
        if node.recursive {
            loop.recurse = { [unowned self] value in
                try self.enter("recursive loops")
                defer { self.leave() }
                let text = try self.capture { try self.renderLoop(node, try self.iterate(value), scope, depth: depth + 1) }
                return self.autoescape ? .markup(text) : .string(text)
            }
        }
        for (i, item) in items.enumerated() {
            try step()
            loop.index0 = i
            let s = JinjaScope(parent: scope)
            shadow(node.bodyNames, s)
            try assign(node.target, item, s)
            s.vars["loop"] = .object(loop)
            do {
                try render(node.body, s)
            } catch JinjaLoopControl.breakLoop {
                break
            } catch JinjaLoopControl.continueLoop {
                continue
            }
        }
    }
}

/// The `loop` variable of a for loop.
final class JinjaLoop: JinjaObject {
    let items: [JinjaValue]
    let depth: Int
    var index0 = 0
    var lastChanged: [JinjaValue]?
    var recurse: ((JinjaValue) throws -> JinjaValue)?

    init(items: [JinjaValue], depth: Int) {
        self.items = items
        self.depth = depth
    }

    var typeName: String { "LoopContext" }

    func attribute(_ name: String) -> JinjaValue? {
        let length = items.count
        switch name {
        case "index": return .int(index0 + 1)
        case "index0": return .int(index0)
        case "revindex": return .int(length - index0)
        case "revindex0": return .int(length - index0 - 1)
        case "first": return .bool(index0 == 0)
        case "last": return .bool(index0 == length - 1)
        case "length": return .int(length)
        case "depth": return .int(depth)
        case "depth0": return .int(depth - 1)
        case "previtem":
            return index0 > 0 ? items[index0 - 1] : .undefined(JinjaUndefined(name: "previtem", hint: "there is no previous item"))
        case "nextitem":
            return index0 + 1 < length ? items[index0 + 1] : .undefined(JinjaUndefined(name: "nextitem", hint: "there is no next item"))
        case "cycle":
            return .function(JinjaFunction(name: "cycle") { args, r in
                guard !args.positional.isEmpty else { throw r.error(.type, "no items for cycling given") }
                return args.positional[self.index0 % args.positional.count]
            })
        case "changed":
            return .function(JinjaFunction(name: "changed") { args, _ in
                let value = args.positional
                if let last = self.lastChanged, last.count == value.count, zip(last, value).allSatisfy({ JinjaValue.pyEqual($0, $1) }) {
                    return .bool(false)
                }
                self.lastChanged = value
                return .bool(true)
            })
        default: return nil
        }
    }
}
