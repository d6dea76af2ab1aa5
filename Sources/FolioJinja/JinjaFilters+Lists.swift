/// Filters on sequences and mappings: first/last, sorting, grouping, selecting, mapping, batching.
extension JinjaRenderer {
    func listFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue? {
        switch name {
        case "first":
            if case .undefined(let u) = v, options.undefined == .strict { throw undefinedError(u) }
            return try iterate(v).first ?? .undefined(JinjaUndefined(name: nil, hint: "No first item, sequence was empty."))
        case "last":
            return try iterate(v).last ?? .undefined(JinjaUndefined(name: nil, hint: "No last item, sequence was empty."))
        case "length", "count": return .int(try length(v))
        case "list": return .array(try iterate(v))
        case "reverse":
            if case .string(let s) = v { return .string(String(String.UnicodeScalarView(s.unicodeScalars.reversed()))) }
            if case .markup(let s) = v { return .markup(String(String.UnicodeScalarView(s.unicodeScalars.reversed()))) }
            switch v {
            case .list, .tuple, .dict, .markup, .undefined: return .array(try iterate(v).reversed())
            default: throw error(.runtime, "argument must be iterable")
            }
        case "join":
            let sep = try str(arg(args, 0, "d", .string("")))
            let getter = attributeGetter(args.value(1, "attribute"))
            var parts: [String] = []
            var size = 0
            for item in try iterate(v) {
                let s = try str(try getter(item))
                size += s.utf8.count + sep.utf8.count
                try checkSize(size)
                parts.append(s)
            }
            return autoescape ? .markup(parts.joined(separator: sep)) : .string(parts.joined(separator: sep))
        case "default", "d":
            let fallback = arg(args, 0, "default_value", .string(""))
            let boolean = try boolArg(args, 1, "boolean", false)
            if v.isUndefined { return fallback }
            if boolean, !(try truthy(v)) { return fallback }
            return v
        case "sort": return .array(try sort(try iterate(v), args, reverseAt: 0, caseAt: 1, attributeAt: 2))
        case "unique": return .array(try unique(v, args))
        case "min", "max": return try minMax(v, args, max: name == "max")
        case "dictsort": return try dictsort(v, args)
        case "items":
            if v.isUndefined { return .array([]) }
            guard case .dict(let d) = v else { throw error(.type, "can only get item pairs from a mapping") }
            return .array(d.entries.map { .tuple([$0.key, $0.value]) })
        case "groupby": return try groupby(v, args)
        case "map": return .array(try map(v, args))
        case "select", "reject": return .array(try select(v, args, attribute: false, keep: name == "select"))
        case "selectattr", "rejectattr": return .array(try select(v, args, attribute: true, keep: name == "selectattr"))
        case "batch": return try batch(v, args)
        case "slice": return try sliceFilter(v, args)
        case "sum":
            let getter = attributeGetter(args.value(0, "attribute"))
            var total = arg(args, 1, "start", .int(0))
            for item in try iterate(v) { total = try binary("+", total, try getter(item)) }
            return total
        case "attr":
            let attrName = try str(arg(args, 0, "name", .string("")))
            if case .undefined(let u) = v { throw undefinedError(u) }
            if let m = method(v, attrName) { return m }
            switch v {
            case .object(let o): return o.attribute(attrName) ?? undefinedAttribute(v, attrName)
            case .namespace(let n): return n.attributes[attrName] ?? undefinedAttribute(v, attrName)
            default: return undefinedAttribute(v, attrName)
            }
        case "random":
            let items = try iterate(v)
            guard !items.isEmpty else { return .undefined(JinjaUndefined(name: nil, hint: "No random item, sequence was empty.")) }
            return items[Int.random(in: 0..<items.count)]
        default: return nil
        }
    }

    func sortKey(_ v: JinjaValue, caseSensitive: Bool) -> JinjaValue {
        if !caseSensitive, case .string(let s) = v { return .string(s.lowercased()) }
        if !caseSensitive, case .markup(let s) = v { return .string(s.lowercased()) }
        return v
    }

    func sortValues(_ items: [JinjaValue], key: (JinjaValue) throws -> JinjaValue, reverse: Bool) throws -> [JinjaValue] {
        let keyed = try items.map { (try key($0), $0) }
        if keyed.count > 1, let u = keyed.first(where: { $0.0.isUndefined })?.0, case .undefined(let info) = u { throw undefinedError(info) }
        var failure: JinjaError?
        let sorted = keyed.enumerated().sorted { a, b in
            guard let less = JinjaValue.pyLess(a.element.0, b.element.0), let more = JinjaValue.pyLess(b.element.0, a.element.0) else {
                failure = failure ?? self.error(.type, "'<' not supported between instances of '\(a.element.0.typeName)' and '\(b.element.0.typeName)'")
                return a.offset < b.offset
            }
            if reverse { return more || (!less && a.offset < b.offset) }
            return less || (!more && a.offset < b.offset)
        }
        if let failure { throw failure }
        return sorted.map { $0.element.1 }
    }

    func sort(_ items: [JinjaValue], _ args: JinjaArguments, reverseAt: Int, caseAt: Int, attributeAt: Int) throws -> [JinjaValue] {
        let reverse = try boolArg(args, reverseAt, "reverse", false)
        let caseSensitive = try boolArg(args, caseAt, "case_sensitive", false)
        let attribute = args.value(attributeAt, "attribute")
        var getters: [(JinjaValue) throws -> JinjaValue] = []
        if let attribute, let s = attribute.stringValue, s.contains(",") {
            getters = s.split(separator: ",").map { attributeGetter(.string($0.trimmingSpaces)) }
        } else {
            getters = [attributeGetter(attribute)]
        }
        return try sortValues(items, key: { item in
            let keys = try getters.map { self.sortKey(try $0(item), caseSensitive: caseSensitive) }
            return keys.count == 1 ? keys[0] : .tuple(keys)
        }, reverse: reverse)
    }

    func unique(_ v: JinjaValue, _ args: JinjaArguments) throws -> [JinjaValue] {
        let caseSensitive = try boolArg(args, 0, "case_sensitive", false)
        let getter = attributeGetter(args.value(1, "attribute"))
        var seen: [JinjaValue] = []
        var out: [JinjaValue] = []
        for item in try iterate(v) {
            let key = sortKey(try getter(item), caseSensitive: caseSensitive)
            if seen.contains(where: { JinjaValue.pyEqual($0, key) }) { continue }
            seen.append(key)
            out.append(item)
        }
        return out
    }

    func minMax(_ v: JinjaValue, _ args: JinjaArguments, max: Bool) throws -> JinjaValue {
        let caseSensitive = try boolArg(args, 0, "case_sensitive", false)
        let getter = attributeGetter(args.value(1, "attribute"))
        let items = try iterate(v)
        guard var best = items.first else {
            return .undefined(JinjaUndefined(name: nil, hint: "No aggregated item, sequence was empty."))
        }
        var bestKey = sortKey(try getter(best), caseSensitive: caseSensitive)
        for item in items.dropFirst() {
            let key = sortKey(try getter(item), caseSensitive: caseSensitive)
            if case .undefined(let u) = key { throw undefinedError(u) }
            if case .undefined(let u) = bestKey { throw undefinedError(u) }
            guard let better = max ? JinjaValue.pyLess(bestKey, key) : JinjaValue.pyLess(key, bestKey) else {
                throw error(.type, "'<' not supported between instances of '\(key.typeName)' and '\(bestKey.typeName)'")
            }
            if better { best = item; bestKey = key }
        }
        return best
    }

    func dictsort(_ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        guard case .dict(let d) = v else { throw error(.type, "dictsort needs a mapping") }
        let caseSensitive = try boolArg(args, 0, "case_sensitive", false)
        let by = try str(arg(args, 1, "by", .string("key")))
        let reverse = try boolArg(args, 2, "reverse", false)
        guard by == "key" || by == "value" else { throw error(.value, "You can only sort by either \"key\" or \"value\"") }
        let pairs: [JinjaValue] = d.entries.map { .tuple([$0.key, $0.value]) }
        return .array(try sortValues(pairs, key: { pair in
            guard case .tuple(let t) = pair else { return pair }
            return self.sortKey(by == "key" ? t[0] : t[1], caseSensitive: caseSensitive)
        }, reverse: reverse))
    }

    func groupby(_ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        let attribute = arg(args, 0, "attribute", .none)
        let fallback = args.value(1, "default")
        let caseSensitive = try boolArg(args, 2, "case_sensitive", true)
        let keyOf = attributeGetter(attribute, default: fallback, lowercase: !caseSensitive)
        let realKey = attributeGetter(attribute, default: fallback)
        let sorted = try sortValues(try iterate(v), key: keyOf, reverse: false)
        var groups: [(JinjaValue, [JinjaValue])] = []
        for item in sorted {
            let k = try keyOf(item)
            if let last = groups.last, JinjaValue.pyEqual(last.0, k) {
                groups[groups.count - 1].1.append(item)
            } else {
                groups.append((k, [item]))
            }
        }
        return .array(try groups.map { key, items in
            .tuple([caseSensitive ? key : try realKey(items[0]), .array(items)])
        })
    }

    func map(_ v: JinjaValue, _ args: JinjaArguments) throws -> [JinjaValue] {
        if !(try truthy(v)) { return [] }
        let items = try iterate(v)
        if args.positional.isEmpty, let attribute = args.value(0, "attribute") {
            let getter = attributeGetter(attribute, default: args.value(1, "default"))
            return try items.map(getter)
        }
        guard let filterName = args.positional.first?.stringValue else { throw error(.type, "map needs a filter name or attribute=") }
        let rest = JinjaArguments(Array(args.positional.dropFirst()), keywords: args.keywords)
        let group = Self.filterGroups[filterName]
        return try items.map { try applyFilter(filterName, $0, rest, group: group) }
    }

    func select(_ v: JinjaValue, _ args: JinjaArguments, attribute: Bool, keep: Bool) throws -> [JinjaValue] {
        var positional = args.positional
        var getter: (JinjaValue) throws -> JinjaValue = { $0 }
        if attribute {
            guard !positional.isEmpty else { throw error(.type, "selectattr needs an attribute name") }
            getter = attributeGetter(positional.removeFirst())
        }
        var test: ((JinjaValue) throws -> Bool)?
        if !positional.isEmpty {
            let testName = positional.removeFirst().plainString
            let rest = JinjaArguments(positional, keywords: args.keywords)
            test = compiledTest(testName, rest)
        }
        var out: [JinjaValue] = []
        guard try truthy(v) else { return [] }
        for item in try iterate(v) {
            let value = try getter(item)
            let ok = try test.map { try $0(value) } ?? (try truthy(value))
            if ok == keep { out.append(item) }
        }
        return out
    }

    /// The test `name` with its arguments, for every item of a select: equality with one argument compared
    /// directly (what `compare("==")` does), the others through `applyTest`.
    func compiledTest(_ name: String, _ args: JinjaArguments) -> (JinjaValue) throws -> Bool {
        switch name {
        case "eq", "equalto", "==":
            guard let other = args.value(0, "other") else { break }
            if options.undefined == .strict { break }
            return { JinjaValue.pyEqual($0, other) }
        default: break
        }
        return { try self.applyTest(name, $0, args) }
    }

    func batch(_ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        let size = try intArg(args, 0, "linecount", 1)
        guard size > 0 else { throw error(.value, "batch size must be positive") }
        let fill = args.value(1, "fill_with").flatMap { $0.isNone ? nil : $0 }
        var out: [JinjaValue] = []
        var current: [JinjaValue] = []
        for item in try iterate(v) {
            if current.count == size { out.append(.array(current)); current = [] }
            current.append(item)
        }
        if !current.isEmpty {
            if let fill, current.count < size {
                try step(size - current.count)
                current += Array(repeating: fill, count: size - current.count)
            }
            out.append(.array(current))
        }
        return .array(out)
    }

    func sliceFilter(_ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        let slices = try intArg(args, 0, "slices", 1)
        guard slices > 0 else { throw error(.value, "slices must be positive") }
        try step(slices)
        let fill = args.value(1, "fill_with").flatMap { $0.isNone ? nil : $0 }
        let seq = try iterate(v)
        let perSlice = seq.count / slices
        let withExtra = seq.count % slices
        var offset = 0
        var out: [JinjaValue] = []
        for i in 0..<slices {
            let start = offset + i * perSlice
            if i < withExtra { offset += 1 }
            let end = offset + (i + 1) * perSlice
            var part = Array(seq[min(start, seq.count)..<min(end, seq.count)])
            if let fill, i >= withExtra { part.append(fill) }
            out.append(.array(part))
        }
        return .array(out)
    }
}

extension Substring {
    var trimmingSpaces: String { JinjaRenderer.strip(String(self), nil) }
}
