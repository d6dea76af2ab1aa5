/// Jinja2's built-in tests (`x is odd`, `x is defined`, `x is divisibleby 3`, …).
extension JinjaRenderer {
    static let testNames: Set<String> = [
        "odd", "even", "divisibleby", "defined", "undefined", "none", "boolean", "false", "true", "integer", "float",
        "number", "string", "mapping", "iterable", "sequence", "callable", "sameas", "escaped", "in", "lower", "upper",
        "filter", "test", "eq", "equalto", "==", "ne", "!=", "lt", "lessthan", "<", "le", "<=", "gt", "greaterthan", ">",
        "ge", ">=",
    ]

    func applyTest(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> Bool {
        let arg = args.value(0, name == "divisibleby" ? "num" : "other")
        func needArg() throws -> JinjaValue {
            guard let arg else { throw error(.type, "test '\(name)' needs an argument") }
            return arg
        }
        func remainder(_ divisor: JinjaValue) throws -> JinjaValue {
            try binary("%", v, divisor)
        }
        switch name {
        case "odd": return JinjaValue.pyEqual(try remainder(.int(2)), .int(1))
        case "even": return JinjaValue.pyEqual(try remainder(.int(2)), .int(0))
        case "divisibleby": return JinjaValue.pyEqual(try remainder(try needArg()), .int(0))
        case "defined": return !v.isUndefined
        case "undefined": return v.isUndefined
        case "none": return v.isNone
        case "boolean": if case .bool = v { return true } else { return false }
        case "false": if case .bool(false) = v { return true } else { return false }
        case "true": if case .bool(true) = v { return true } else { return false }
        case "integer":
            switch v {
            case .int, .bigInt: return true
            default: return false
            }
        case "float": if case .float = v { return true } else { return false }
        case "number": return v.numeric != nil
        case "string": return v.stringValue != nil
        case "mapping": if case .dict = v { return true } else { return false }
        case "iterable":
            switch v {
            case .list, .tuple, .dict, .string, .markup: return true
            default: return false
            }
        case "sequence":
            switch v {
            case .list, .tuple, .dict, .string, .markup, .undefined: return true
            default: return false
            }
        case "callable":
            switch v {
            case .function, .undefined: return true
            case .object(let o): return (o as? JinjaLoop)?.recurse != nil
            default: return false
            }
        case "sameas": return try sameAs(v, needArg())
        case "escaped": if case .markup = v { return true } else { return false }
        case "in": return try contains(needArg(), v)
        case "lower":
            let s = try str(v)
            return s.contains { $0.isCased } && s.lowercased() == s
        case "upper":
            let s = try str(v)
            return s.contains { $0.isCased } && s.uppercased() == s
        case "filter":
            let name = try str(v)
            return Self.filterNames.contains(name) || JinjaExtension.filterNames(options.extensions).contains(name)
        case "test": return Self.testNames.contains(try str(v))
        case "eq", "equalto", "==": return try compare("==", v, needArg())
        case "ne", "!=": return try compare("!=", v, needArg())
        case "lt", "lessthan", "<": return try compare("<", v, needArg())
        case "le", "<=": return try compare("<=", v, needArg())
        case "gt", "greaterthan", ">": return try compare(">", v, needArg())
        case "ge", ">=": return try compare(">=", v, needArg())
        default: throw error(.runtime, "No test named '\(name)' found.")
        }
    }

    /// Python's `is`: identity for shared objects, equal value for singletons and small immutable values.
    func sameAs(_ a: JinjaValue, _ b: JinjaValue) -> Bool {
        switch (a, b) {
        case (.none, .none): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.list(x), .list(y)): return x === y
        case let (.dict(x), .dict(y)): return x === y
        case let (.function(x), .function(y)): return x === y
        case let (.namespace(x), .namespace(y)): return x === y
        case let (.object(x), .object(y)): return x === y
        default: return false
        }
    }
}
