/// Calling values, macros and call blocks, and Jinja2's global functions.
extension JinjaRenderer {
    func call(_ f: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        switch f {
        case .function(let fn):
            try step()
            let result = try fn.body(args, self)
            try charge(result)
            return result
        case .object(let loop as JinjaLoop):
            guard let recurse = loop.recurse else { throw error(.type, "Tried to call non recursive loop.  Maybe you forgot the 'recursive' modifier.") }
            guard args.positional.count == 1 else { throw error(.type, "loop() takes exactly one argument") }
            return try recurse(args.positional[0])
        case .undefined(let u): throw undefinedError(u)
        default: throw error(.type, "'\(f.typeName)' object is not callable")
        }
    }

    /// A macro value: calling it binds the arguments in a scope inside the one it was defined in.
    func makeMacro(_ node: JinjaMacroNode, _ defining: JinjaScope, isCaller: Bool = false) -> JinjaValue {
        let names = node.parameters.map(\.0)
        let info = JinjaMacroInfo(arguments: names, catchesVarargs: true, catchesKwargs: true, isCaller: isCaller)
        let template = templateName
        let frameAtDefinition = frames.last
        return .function(JinjaFunction(name: node.name, macro: info) { args, r in
            try r.callMacro(node, args, defining, template: template, frame: frameAtDefinition)
        })
    }

    func callMacro(_ node: JinjaMacroNode, _ args: JinjaArguments, _ defining: JinjaScope, template: String, frame: JinjaTemplateFrame?) throws -> JinjaValue {
        try enter("macro calls")
        defer { leave() }
        try step()
        let scope = JinjaScope(parent: defining)
        var keywords = args.keywords
        var caller: JinjaValue?
        if let i = keywords.firstIndex(where: { $0.0 == "caller" }), !node.parameters.contains(where: { $0.0 == "caller" }) {
            caller = keywords.remove(at: i).1
        }
        scope.vars["caller"] = caller ?? .undefined(JinjaUndefined(name: "caller", hint: "No caller defined"))
        for (i, (name, defaultExpr)) in node.parameters.enumerated() {
            if i < args.positional.count {
                if keywords.contains(where: { $0.0 == name }) {
                    throw error(.type, "macro '\(node.name)' got multiple values for argument '\(name)'")
                }
                scope.vars[name] = args.positional[i]
            } else if let k = keywords.firstIndex(where: { $0.0 == name }) {
                scope.vars[name] = keywords.remove(at: k).1
            } else if let defaultExpr {
                scope.vars[name] = try eval(defaultExpr, scope)
            } else {
                scope.vars[name] = .undefined(JinjaUndefined(name: name, hint: "parameter '\(name)' was not provided"))
            }
        }
        shadow(node.names, scope)
        scope.vars["varargs"] = .tuple(Array(args.positional.dropFirst(node.parameters.count)))
        let kwargs = JinjaDict()
        for (k, v) in keywords { kwargs.set(.string(k), v) }
        scope.vars["kwargs"] = .dict(kwargs)
        let savedName = templateName
        templateName = template
        defer { templateName = savedName }
        let text = try capture {
            if let frame { frames.append(frame) }
            defer { if frame != nil { frames.removeLast() } }
            try render(node.body, scope)
        }
        return autoescape ? .markup(text) : .string(text)
    }

    func evalCallBlock(_ call: JinjaExpr, _ node: JinjaMacroNode, _ scope: JinjaScope) throws -> JinjaValue {
        guard case .call(let callee, let callArgs, let l) = call else { throw error(.syntax, "expected call") }
        let f = try eval(callee, scope)
        var args = try evalArgs(callArgs, scope)
        args.keywords.append(("caller", makeMacro(node, scope, isCaller: true)))
        line = l
        return try self.call(f, args)
    }

    // MARK: Globals

    func global(_ name: String) -> JinjaValue? {
        switch name {
        case "range": return .function(JinjaFunction(name: "range") { args, r in try r.range(args) })
        case "dict":
            return .function(JinjaFunction(name: "dict") { args, _ in
                let d = JinjaDict()
                for (k, v) in args.keywords { d.set(.string(k), v) }
                return .dict(d)
            })
        case "namespace":
            return .function(JinjaFunction(name: "namespace") { args, r in
                let d = JinjaDict()
                for p in args.positional {
                    guard case .dict(let src) = p else { throw r.error(.type, "namespace() takes a dict") }
                    for (k, v) in src.entries { d.set(k, v) }
                }
                for (k, v) in args.keywords { d.set(.string(k), v) }
                return .namespace(JinjaNamespace(d))
            })
        case "cycler":
            return .function(JinjaFunction(name: "cycler") { args, _ in .object(JinjaCycler(args.positional)) })
        case "joiner":
            return .function(JinjaFunction(name: "joiner") { args, _ in
                let sep = args.value(0, "sep")?.plainString ?? ", "
                var used = false
                return .function(JinjaFunction(name: "joiner") { _, _ in
                    if used { return .string(sep) }
                    used = true
                    return .string("")
                })
            })
        case "lipsum":
            return .function(JinjaFunction(name: "lipsum") { args, r in
                let n = try r.intArg(args, 0, "n", 5), html = try r.boolArg(args, 1, "html", true)
                let low = try r.intArg(args, 2, "min", 20), high = try r.intArg(args, 3, "max", 100)
                guard low < high else { throw r.error(.value, "empty range for randrange() (\(low), \(high))") }
                // Up to n × max words are made before any is written: bounded so that no call runs for long.
                guard n <= 10_000, high <= 100_000, n * high <= 200_000 else { throw r.error(.limit, "lipsum(\(n), max=\(high)) is over the output limit") }
                let text = JinjaLorem.paragraphs(count: n, html: html, min: low, max: high)
                return html ? .markup(text) : .string(text)
            })
        default: return nil
        }
    }

    func range(_ args: JinjaArguments) throws -> JinjaValue {
        var ints: [Int] = []
        for a in args.positional {
            guard case .int(let i)? = a.numeric else {
                if case .undefined(let u) = a { throw undefinedError(u) }
                throw error(.type, "'\(a.typeName)' object cannot be interpreted as an integer")
            }
            ints.append(i)
        }
        var start = 0, stop = 0, stepValue = 1
        switch ints.count {
        case 1: stop = ints[0]
        case 2: (start, stop) = (ints[0], ints[1])
        case 3: (start, stop, stepValue) = (ints[0], ints[1], ints[2])
        default: throw error(.type, "range expected 1 to 3 arguments, got \(ints.count)")
        }
        guard stepValue != 0 else { throw error(.value, "range() arg 3 must not be zero") }
        let span = stepValue > 0 ? Double(stop) - Double(start) : Double(start) - Double(stop)
        let exactCount = max(0, (span / Double(stepValue).magnitude).rounded(.up))
        if exactCount > Double(limits.maxSteps) - Double(steps) {
            throw limitError(.maxSteps, "range() of \(exactCount) numbers")
        }
        let count = Int(exactCount)
        try step(count)
        var items: [JinjaValue] = []
        items.reserveCapacity(count)
        var i = start
        for _ in 0..<count {
            items.append(.int(i))
            i = i &+ stepValue
        }
        let list = JinjaList(items)
        list.range = (start, stop, stepValue)
        return .list(list)
    }
}

/// `cycler(a, b, …)`: `next()`, `current`, `reset()`.
final class JinjaCycler: JinjaObject {
    let items: [JinjaValue]
    var position = 0

    init(_ items: [JinjaValue]) { self.items = items }

    var typeName: String { "Cycler" }

    func attribute(_ name: String) -> JinjaValue? {
        switch name {
        case "current": return items.isEmpty ? .none : items[position]
        case "next":
            return .function(JinjaFunction(name: "next") { _, _ in
                guard !self.items.isEmpty else { return .none }
                let v = self.items[self.position]
                self.position = (self.position + 1) % self.items.count
                return v
            })
        case "reset":
            return .function(JinjaFunction(name: "reset") { _, _ in
                self.position = 0
                return .none
            })
        default: return nil
        }
    }
}
