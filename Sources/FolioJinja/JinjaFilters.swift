/// Jinja2's built-in filters, dispatched by name; the implementations are in `JinjaFilters+*.swift`.
extension JinjaRenderer {
    static let filterNames: Set<String> = [
        "abs", "attr", "batch", "capitalize", "center", "count", "d", "default", "dictsort", "e", "escape",
        "filesizeformat", "first", "float", "forceescape", "format", "groupby", "indent", "int", "items", "join", "last",
        "length", "list", "lower", "map", "max", "min", "pprint", "random", "reject", "rejectattr", "replace", "reverse",
        "round", "safe", "select", "selectattr", "slice", "sort", "string", "striptags", "sum", "title", "tojson", "trim",
        "truncate", "unique", "upper", "urlencode", "urlize", "wordcount", "wordwrap", "xmlattr",
    ]

    /// Which of the filter functions holds a built-in filter (one hash lookup instead of trying each switch in turn).
    enum FilterGroup { case string, list, number }
    static let filterGroups: [String: FilterGroup] = {
        var groups: [String: FilterGroup] = [:]
        for n in ["lower", "upper", "capitalize", "title", "trim", "replace", "string", "safe", "escape", "e", "forceescape",
                  "striptags", "center", "indent", "truncate", "wordcount", "wordwrap", "format", "tojson", "urlencode", "urlize",
                  "filesizeformat", "pprint", "xmlattr"] { groups[n] = .string }
        for n in ["first", "last", "length", "count", "list", "reverse", "join", "default", "d", "sort", "unique", "min", "max",
                  "dictsort", "items", "groupby", "map", "select", "reject", "selectattr", "rejectattr", "batch", "slice", "sum",
                  "attr", "random"] { groups[n] = .list }
        for n in ["abs", "int", "float", "round"] { groups[n] = .number }
        return groups
    }()

    func applyFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        try applyFilter(name, v, args, group: Self.filterGroups[name])
    }

    /// The filter `name`, whose built-in group (from `filterGroups`) is `group`.
    func applyFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments, group: FilterGroup?) throws -> JinjaValue {
        try step()
        switch group {
        case .string?: if let r = try stringFilter(name, v, args) { try charge(r); return r }
        case .list?: if let r = try listFilter(name, v, args) { try charge(r); return r }
        case .number?: if let r = try numberFilter(name, v, args) { return r }
        case nil: break
        }
        // Not in the table (or the table is out of date): every group in turn, as before.
        if let r = try stringFilter(name, v, args) { try charge(r); return r }
        if let r = try listFilter(name, v, args) { try charge(r); return r }
        if let r = try numberFilter(name, v, args) { return r }
        if let r = try extensionFilter(name, v, args) { try charge(r); return r }
        throw error(.runtime, "No filter named '\(name)' found.")
    }

    /// The argument at `position` or named `name`, else `fallback`.
    func arg(_ args: JinjaArguments, _ position: Int, _ name: String, _ fallback: JinjaValue) -> JinjaValue {
        args.value(position, name) ?? fallback
    }

    func intArg(_ args: JinjaArguments, _ position: Int, _ name: String, _ fallback: Int) throws -> Int {
        guard let v = args.value(position, name) else { return fallback }
        guard case .int(let i)? = v.numeric else {
            if case .float(let d) = v, let i = Int(exactly: d.rounded(.towardZero)) { return i }
            throw error(.type, "argument '\(name)' must be an integer, not \(v.typeName)")
        }
        return i
    }

    func boolArg(_ args: JinjaArguments, _ position: Int, _ name: String, _ fallback: Bool) throws -> Bool {
        guard let v = args.value(position, name) else { return fallback }
        return try truthy(v)
    }

    func stringInput(_ v: JinjaValue) throws -> String { try str(v) }

    func keepSafe(_ input: JinjaValue, _ s: String) -> JinjaValue {
        if case .markup = input { return .markup(s) }
        return .string(s)
    }

    /// Jinja2's `make_attrgetter`: `a.b.0` looks up `a`, then `b`, then item 0.
    func attributeGetter(_ attribute: JinjaValue?, default fallback: JinjaValue? = nil, lowercase: Bool = false) -> (JinjaValue) throws -> JinjaValue {
        // The path is split once, not for every item.
        var parts: [JinjaValue]?
        if let attribute {
            if case .int = attribute { parts = [attribute] } else {
                parts = attribute.plainString.split(separator: ".", omittingEmptySubsequences: false).map { p in
                    Int(p).map { .int($0) } ?? .string(String(p))
                }
            }
        }
        return { [unowned self] item in
            var v = item
            if let parts {
                for p in parts { v = try self.getItem(v, p) }
                if v.isUndefined, let fallback { v = fallback }
            }
            if lowercase, case .string(let s) = v { return .string(s.lowercased()) }
            return v
        }
    }
}
