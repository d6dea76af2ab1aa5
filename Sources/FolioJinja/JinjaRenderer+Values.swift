/// The Undefined policy applied to values: printing, truth, iteration, lookups.
extension JinjaRenderer {
    func undefinedError(_ u: JinjaUndefined) -> JinjaError { error(.undefined, u.hint) }

    /// Python's `str()`, with the Undefined policy.
    func str(_ v: JinjaValue) throws -> String {
        guard case .undefined(let u) = v else { return v.plainString }
        if u.lenient { return "" }
        switch options.undefined {
        case .strict: throw undefinedError(u)
        case .debug:
            if u.explicitHint { return "{{ undefined value printed: \(u.hint) }}" }
            if let type = u.objectType { return "{{ no such element: \(type)[\(JinjaValue.stringRepr(u.name ?? ""))] }}" }
            return "{{ \(u.name ?? "") }}"
        case .lenient, .chainable: return ""
        }
    }

    /// Python's truth value, with the Undefined policy.
    func truthy(_ v: JinjaValue) throws -> Bool {
        switch v {
        case .undefined(let u):
            if options.undefined == .strict, !u.lenient { throw undefinedError(u) }
            return false
        case .none: return false
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .bigInt: return true
        case .float(let d): return d != 0
        case .string(let s), .markup(let s): return !s.isEmpty
        case .list(let l): return !l.items.isEmpty
        case .tuple(let t): return !t.isEmpty
        case .dict(let d): return d.count > 0
        case .function, .namespace, .object: return true
        }
    }

    /// The elements a for loop or a filter walks: list and tuple items, a string's characters, a dict's keys.
    func iterate(_ v: JinjaValue) throws -> [JinjaValue] {
        switch v {
        case .undefined(let u):
            if options.undefined == .strict, !u.lenient { throw undefinedError(u) }
            return []
        case .list(let l): return l.items
        case .tuple(let t): return t
        case .dict(let d): return d.keys
        case .string(let s): return s.unicodeScalars.map { .string(String($0)) }
        case .markup(let s): return s.unicodeScalars.map { .string(String($0)) }
        case .namespace(let n): return n.attributes.keys
        default: throw error(.type, "'\(v.typeName)' object is not iterable")
        }
    }

    /// Python's `len()`.
    func length(_ v: JinjaValue) throws -> Int {
        switch v {
        case .string(let s), .markup(let s): return s.unicodeScalars.count
        case .list(let l): return l.items.count
        case .tuple(let t): return t.count
        case .dict(let d): return d.count
        case .undefined: return try iterate(v).count
        default: throw error(.type, "object of type '\(v.typeName)' has no len()")
        }
    }

    func undefinedAttribute(_ obj: JinjaValue, _ attr: String) -> JinjaValue {
        .undefined(JinjaUndefined(name: attr, hint: "'\(obj.typeName) object' has no attribute '\(attr)'", objectType: "\(obj.typeName) object"))
    }

    /// `obj.attr`: an attribute (method) first, then an item, as Jinja2's `getattr`.
    func getAttribute(_ obj: JinjaValue, _ attr: String) throws -> JinjaValue {
        if case .undefined(let u) = obj {
            if options.undefined == .chainable {
                return attr == "_undefined_name" ? (u.name.map { .string($0) } ?? .none) : obj
            }
            throw undefinedError(u)
        }
        if let m = method(obj, attr) { return m }
        if attr == "__class__" { return .object(JinjaTypeObject(name: obj.typeName)) }
        switch obj {
        case .dict(let d): return d[attr] ?? undefinedAttribute(obj, attr)
        case .namespace(let n): return n.attributes[attr] ?? undefinedAttribute(obj, attr)
        case .object(let o): return o.attribute(attr) ?? undefinedAttribute(obj, attr)
        case .function(let f): return functionAttribute(f, attr) ?? undefinedAttribute(obj, attr)
        case .tuple(let t) where t.count == 2 && (attr == "grouper" || attr == "list"):
            return attr == "grouper" ? t[0] : t[1]
        default: return undefinedAttribute(obj, attr)
        }
    }

    func functionAttribute(_ f: JinjaFunction, _ attr: String) -> JinjaValue? {
        switch attr {
        case "name", "__name__": return .string(f.name)
        case "arguments": return f.macro.map { .tuple($0.arguments.map { .string($0) }) }
        case "catch_varargs": return f.macro.map { .bool($0.catchesVarargs) }
        case "catch_kwargs": return f.macro.map { .bool($0.catchesKwargs) }
        case "caller": return f.macro.map { .bool($0.isCaller) }
        default: return nil
        }
    }

    /// `obj[key]`: an item first, then an attribute, as Jinja2's `getitem`.
    func getItem(_ obj: JinjaValue, _ key: JinjaValue) throws -> JinjaValue {
        if case .undefined(let u) = obj {
            if options.undefined == .chainable { return obj }
            throw undefinedError(u)
        }
        // Built only when the item is missing (repr and interpolation cost more than the lookup itself).
        var missing: JinjaValue {
            .undefined(JinjaUndefined(name: key.plainString, hint: "'\(obj.typeName) object' has no attribute \(key.repr)", objectType: "\(obj.typeName) object"))
        }
        switch (obj, key) {
        case (.dict(let d), _):
            if let v = d.get(key) { return v }
        case (.list, _), (.tuple, _), (.string, _), (.markup, _):
            if case .int(let n)? = key.numeric {
                let items = try iterate(obj)
                let idx = n < 0 ? n + items.count : n
                if idx >= 0 && idx < items.count { return items[idx] }
                return missing
            }
        case (.namespace(let ns), _):
            if let v = ns.attributes.get(key) { return v }
        default: break
        }
        if let attr = key.stringValue { return try getAttribute(obj, attr) }
        return missing
    }

    /// `obj[start:stop:step]` on strings, lists and tuples, as Python slices.
    func slice(_ obj: JinjaValue, _ start: JinjaValue?, _ stop: JinjaValue?, _ step: JinjaValue?) throws -> JinjaValue {
        if case .undefined(let u) = obj { throw undefinedError(u) }
        switch obj {
        case .string, .markup, .list, .tuple: break
        default: return .undefined(JinjaUndefined(name: nil, hint: "'\(obj.typeName)' object is not subscriptable"))
        }
        let items = try iterate(obj)
        func int(_ v: JinjaValue?) throws -> Int? {
            guard let v, !v.isNone else { return nil }
            guard case .int(let i)? = v.numeric else { throw error(.type, "slice indices must be integers or None") }
            return i
        }
        let n = items.count
        let stepValue = try int(step) ?? 1
        guard stepValue != 0 else { throw error(.value, "slice step cannot be zero") }
        func clamp(_ i: Int?, _ def: Int) -> Int {
            guard var i else { return def }
            if i < 0 { i += n }
            if stepValue > 0 { return min(max(i, 0), n) }
            return min(max(i, -1), n - 1)
        }
        var result: [JinjaValue] = []
        let first = stepValue > 0 ? clamp(try int(start), 0) : clamp(try int(start), n - 1)
        let last = stepValue > 0 ? clamp(try int(stop), n) : clamp(try int(stop), -1)
        if case .list(let l) = obj, let r = l.range {
            // A slice of a range is a range (range(4)[1:] is range(1, 4)).
            let (a, o1) = first.multipliedReportingOverflow(by: r.step)
            let (b, o2) = last.multipliedReportingOverflow(by: r.step)
            let (s, o3) = r.step.multipliedReportingOverflow(by: stepValue)
            let (newStart, o4) = r.start.addingReportingOverflow(a)
            let (newStop, o5) = r.start.addingReportingOverflow(b)
            if !(o1 || o2 || o3 || o4 || o5) {
                let sliced = try self.range(JinjaArguments([.int(newStart), .int(newStop), .int(s)]))
                return sliced
            }
        }
        if stepValue > 0 {
            var i = first
            let end = last
            while i < end {
                result.append(items[i])
                let (next, o) = i.addingReportingOverflow(stepValue)
                if o { break }
                i = next
            }
        } else {
            var i = first
            let end = last
            while i > end {
                result.append(items[i])
                let (next, o) = i.addingReportingOverflow(stepValue)
                if o { break }
                i = next
            }
        }
        switch obj {
        case .string: return .string(result.map(\.plainString).joined())
        case .markup: return .markup(result.map(\.plainString).joined())
        case .tuple: return .tuple(result)
        default: return .array(result)
        }
    }
}

extension JinjaUndefined {
    /// Undefined values that print as empty even under StrictUndefined (an inline `if` without `else`).
    var lenient: Bool { givenHint?.hasPrefix("the inline if-expression") == true }
}

/// `value.__class__`: only its `__name__`.
final class JinjaTypeObject: JinjaObject {
    let name: String
    init(name: String) { self.name = name }
    var typeName: String { "type" }
    func attribute(_ attr: String) -> JinjaValue? { attr == "__name__" ? .string(name) : nil }
}
