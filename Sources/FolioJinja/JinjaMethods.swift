/// The Python methods templates call on strings, lists and dicts (`.lower()`, `.split()`, `.items()`, `.append()`…).
extension JinjaRenderer {
    func bound(_ name: String, _ body: @escaping (JinjaArguments, JinjaRenderer) throws -> JinjaValue) -> JinjaValue {
        .function(JinjaFunction(name: name, body: body))
    }

    func method(_ obj: JinjaValue, _ name: String) -> JinjaValue? {
        switch obj {
        case .string(let s), .markup(let s): return stringMethod(s, name, safe: { if case .markup = obj { return true } else { return false } }())
        case .list(let l): return listMethod(l, name)
        case .tuple(let t) where name == "count" || name == "index": return listMethod(JinjaList(t), name)
        case .dict(let d): return dictMethod(d, name)
        case .int, .float, .bool:
            if name == "real" { return obj }
            if name == "imag" { return .int(0) }
            return nil
        default: return nil
        }
    }

    func stringMethod(_ s: String, _ name: String, safe: Bool) -> JinjaValue? {
        func text(_ r: String) -> JinjaValue { safe ? .markup(r) : .string(r) }
        func charSet(_ a: JinjaArguments) -> Set<Unicode.Scalar>? {
            guard let v = a.positional.first, !v.isNone else { return nil }
            return Set(v.plainString.unicodeScalars)
        }
        switch name {
        case "lower": return bound(name) { _, _ in text(s.lowercased()) }
        case "upper": return bound(name) { _, _ in text(s.uppercased()) }
        case "casefold": return bound(name) { _, _ in text(s.lowercased()) }
        case "title": return bound(name) { _, _ in text(Self.pythonTitle(s)) }
        case "capitalize": return bound(name) { _, _ in text(Self.capitalize(s)) }
        case "swapcase":
            return bound(name) { _, _ in
                text(s.map { c in c.isUppercase ? c.lowercased() : c.uppercased() }.joined())
            }
        case "strip": return bound(name) { a, _ in text(Self.strip(s, charSet(a))) }
        case "lstrip": return bound(name) { a, _ in text(Self.strip(s, charSet(a), trailing: false)) }
        case "rstrip": return bound(name) { a, _ in text(Self.strip(s, charSet(a), leading: false)) }
        case "replace":
            return bound(name) { a, r in
                guard a.positional.count >= 2 else { throw r.error(.type, "replace expected at least 2 arguments") }
                var limit = -1
                if a.positional.count > 2, case .int(let c)? = a.positional[2].numeric { limit = c }
                let result = try Self.replace(s, a.positional[0].plainString, a.positional[1].plainString, limit)
                try r.checkSize(result.utf8.count)
                return text(result)
            }
        case "startswith", "endswith":
            return bound(name) { a, r in
                guard let p = a.positional.first else { throw r.error(.type, "\(name) takes at least 1 argument") }
                let candidates = (p.stringValue != nil) ? [p.plainString] : try r.iterate(p).map(\.plainString)
                let scalars = Array(s.unicodeScalars)
                return .bool(candidates.contains { c in
                    let cs = Array(c.unicodeScalars)
                    guard cs.count <= scalars.count else { return false }
                    return name == "startswith" ? Array(scalars.prefix(cs.count)) == cs : Array(scalars.suffix(cs.count)) == cs
                })
            }
        case "split", "rsplit":
            return bound(name) { a, r in
                let sep = a.value(0, "sep").flatMap { $0.isNone ? nil : $0.plainString }
                var maxsplit = -1
                if let m = a.value(1, "maxsplit"), case .int(let n)? = m.numeric { maxsplit = n }
                if sep == "" { throw r.error(.value, "empty separator") }
                let parts = Self.pySplit(s, sep, maxsplit, fromRight: name == "rsplit")
                return .array(parts.map(text))
            }
        case "splitlines":
            return bound(name) { a, r in
                .array(Self.splitLines(s, keepEnds: try r.boolArg(a, 0, "keepends", false)).map(text))
            }
        case "join":
            return bound(name) { a, r in
                guard let items = a.positional.first else { throw r.error(.type, "join takes one argument") }
                let parts = try r.iterate(items).map { v -> String in
                    guard let t = v.stringValue else { throw r.error(.type, "sequence item: expected str instance, \(v.typeName) found") }
                    return t
                }
                let joined = parts.joined(separator: s)
                try r.checkSize(joined.utf8.count)
                return text(joined)
            }
        case "format": return bound(name) { a, r in .string(try r.braceFormat(s, a)) }
        case "count":
            return bound(name) { a, _ in
                let sub = a.positional.first?.plainString ?? ""
                if sub.isEmpty { return .int(s.unicodeScalars.count + 1) }
                return .int(Self.pySplit(s, sub, -1, fromRight: false).count - 1)
            }
        case "find", "index", "rfind", "rindex":
            return bound(name) { a, r in
                let sub = Array((a.positional.first?.plainString ?? "").unicodeScalars)
                let scalars = Array(s.unicodeScalars)
                var found = -1
                if sub.count <= scalars.count {
                    let range = Array(0...(scalars.count - sub.count))
                    for i in (name.hasPrefix("r") ? range.reversed() : range) where Array(scalars[i..<i + sub.count]) == sub {
                        found = i
                        break
                    }
                }
                if found < 0, name.hasSuffix("index") { throw r.error(.value, "substring not found") }
                return .int(found)
            }
        case "isdigit", "isdecimal", "isnumeric":
            return bound(name) { _, _ in .bool(!s.isEmpty && s.unicodeScalars.allSatisfy { $0.properties.numericType != nil }) }
        case "isalpha": return bound(name) { _, _ in .bool(!s.isEmpty && s.unicodeScalars.allSatisfy { $0.properties.isAlphabetic }) }
        case "isalnum":
            return bound(name) { _, _ in .bool(!s.isEmpty && s.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil }) }
        case "isspace": return bound(name) { _, _ in .bool(!s.isEmpty && s.unicodeScalars.allSatisfy(isPythonSpace)) }
        case "isupper":
            return bound(name) { _, _ in .bool(s.contains { $0.isCased } && s.uppercased() == s) }
        case "islower":
            return bound(name) { _, _ in .bool(s.contains { $0.isCased } && s.lowercased() == s) }
        case "istitle": return bound(name) { _, _ in .bool(!s.isEmpty && Self.pythonTitle(s) == s && s.contains { $0.isCased }) }
        case "zfill":
            return bound(name) { a, r in
                let width = try r.intArg(a, 0, "width", 0)
                try r.checkSize(width)
                let n = s.unicodeScalars.count
                guard width > n else { return text(s) }
                var body = s
                var sign = ""
                if let f = body.first, f == "-" || f == "+" { sign = String(f); body.removeFirst() }
                return text(sign + String(repeating: "0", count: width - n) + body)
            }
        case "center", "ljust", "rjust":
            return bound(name) { a, r in
                let width = try r.intArg(a, 0, "width", 0)
                try r.checkSize(width)
                let fill = a.positional.count > 1 ? a.positional[1].plainString : " "
                let n = s.unicodeScalars.count
                guard width > n else { return text(s) }
                let pad = width - n
                switch name {
                case "ljust": return text(s + String(repeating: fill, count: pad))
                case "rjust": return text(String(repeating: fill, count: pad) + s)
                default:
                    let left = pad / 2 + (pad & width & 1)
                    return text(String(repeating: fill, count: left) + s + String(repeating: fill, count: pad - left))
                }
            }
        case "partition", "rpartition":
            return bound(name) { a, _ in
                let sep = a.positional.first?.plainString ?? ""
                let parts = Self.pySplit(s, sep, 1, fromRight: name == "rpartition")
                if parts.count == 2 { return .tuple([text(parts[0]), text(sep), text(parts[1])]) }
                return name == "partition" ? .tuple([text(s), text(""), text("")]) : .tuple([text(""), text(""), text(s)])
            }
        case "removeprefix", "removesuffix":
            return bound(name) { a, _ in
                let affix = a.positional.first?.plainString ?? ""
                if name == "removeprefix", !affix.isEmpty, s.hasPrefix(affix) { return text(String(s.dropFirst(affix.count))) }
                if name == "removesuffix", !affix.isEmpty, s.hasSuffix(affix) { return text(String(s.dropLast(affix.count))) }
                return text(s)
            }
        default: return nil
        }
    }

    /// Python's `str.title()`: a letter after a non-letter is upper case, other letters lower case.
    static func pythonTitle(_ s: String) -> String {
        var out = ""
        var previousCased = false
        for c in s {
            out += previousCased ? c.lowercased() : c.uppercased()
            previousCased = c.isCased
        }
        return out
    }

    /// Python's `str.split` / `str.rsplit`: on runs of whitespace when `sep` is nil.
    /// `str.split(sep, maxsplit)` from the left on UTF-8 bytes (valid UTF-8 only matches at scalar boundaries).
    static func splitBytes(_ s: String, _ sep: String, _ maxsplit: Int) -> [String] {
        let src = Array(s.utf8), pattern = Array(sep.utf8)
        var parts: [String] = []
        var start = 0, i = 0
        let last = src.count - pattern.count
        while i <= last, maxsplit < 0 || parts.count < maxsplit {
            if src[i] == pattern[0], bytes(src, at: i, equal: pattern) {
                parts.append(String(decoding: src[start..<i], as: UTF8.self))
                i += pattern.count
                start = i
            } else {
                i += 1
            }
        }
        parts.append(String(decoding: src[start...], as: UTF8.self))
        return parts
    }

    static func pySplit(_ s: String, _ sep: String?, _ maxsplit: Int, fromRight: Bool) -> [String] {
        // A separator splits the same from either end when every occurrence splits.
        if let sep, !sep.isEmpty, !fromRight || maxsplit < 0 { return splitBytes(s, sep, maxsplit) }
        var scalars = Array(s.unicodeScalars)
        if fromRight { scalars.reverse() }
        let pattern = sep.map { fromRight ? Array($0.unicodeScalars.reversed()) : Array($0.unicodeScalars) }
        var parts: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var i = 0
        var splits = 0
        if let pattern {
            while i < scalars.count {
                if maxsplit < 0 || splits < maxsplit, i + pattern.count <= scalars.count, Array(scalars[i..<i + pattern.count]) == pattern {
                    parts.append(current)
                    current = []
                    i += pattern.count
                    splits += 1
                } else {
                    current.append(scalars[i])
                    i += 1
                }
            }
            parts.append(current)
        } else {
            while i < scalars.count, isPythonSpace(scalars[i]) { i += 1 }
            while i < scalars.count {
                if isPythonSpace(scalars[i]) {
                    if maxsplit >= 0 && splits >= maxsplit {
                        current.append(contentsOf: scalars[i...])
                        break
                    }
                    parts.append(current)
                    current = []
                    splits += 1
                    while i < scalars.count, isPythonSpace(scalars[i]) { i += 1 }
                    if i == scalars.count { current = []; break }
                    continue
                }
                current.append(scalars[i])
                i += 1
            }
            if maxsplit >= 0 && splits >= maxsplit {
                var rest = current
                while let l = rest.last, isPythonSpace(l) { rest.removeLast() }
                current = rest
            }
            if !current.isEmpty { parts.append(current) }
        }
        var strings = parts.map { p -> String in
            var v = String.UnicodeScalarView()
            v.append(contentsOf: fromRight ? p.reversed() : p)
            return String(v)
        }
        if fromRight { strings.reverse() }
        return strings
    }

    func listMethod(_ l: JinjaList, _ name: String) -> JinjaValue? {
        switch name {
        case "append":
            return bound(name) { a, r in
                try r.step()
                l.items.append(a.positional.first ?? .none)
                return .none
            }
        case "extend":
            return bound(name) { a, r in
                let more = try r.iterate(a.positional.first ?? .none)
                try r.step(more.count)
                l.items += more
                return .none
            }
        case "insert":
            return bound(name) { a, r in
                guard a.positional.count == 2, case .int(var i)? = a.positional[0].numeric else { throw r.error(.type, "insert expected 2 arguments") }
                try r.step()
                if i < 0 { i += l.items.count }
                l.items.insert(a.positional[1], at: min(max(i, 0), l.items.count))
                return .none
            }
        case "pop":
            return bound(name) { a, r in
                guard !l.items.isEmpty else { throw r.error(.value, "pop from empty list") }
                var i = l.items.count - 1
                if let p = a.positional.first, case .int(let n)? = p.numeric { i = n < 0 ? n + l.items.count : n }
                guard i >= 0, i < l.items.count else { throw r.error(.value, "pop index out of range") }
                return l.items.remove(at: i)
            }
        case "remove":
            return bound(name) { a, r in
                let v = a.positional.first ?? .none
                guard let i = l.items.firstIndex(where: { JinjaValue.pyEqual($0, v) }) else { throw r.error(.value, "list.remove(x): x not in list") }
                l.items.remove(at: i)
                return .none
            }
        case "index":
            return bound(name) { a, r in
                let v = a.positional.first ?? .none
                guard let i = l.items.firstIndex(where: { JinjaValue.pyEqual($0, v) }) else { throw r.error(.value, "\(v.repr) is not in list") }
                return .int(i)
            }
        case "count":
            return bound(name) { a, _ in
                let v = a.positional.first ?? .none
                return .int(l.items.filter { JinjaValue.pyEqual($0, v) }.count)
            }
        case "reverse": return bound(name) { _, _ in l.items.reverse(); return .none }
        case "sort":
            return bound(name) { a, r in
                let reverse = try r.boolArg(JinjaArguments([], keywords: a.keywords), 99, "reverse", false)
                l.items = try r.sortValues(l.items, key: { $0 }, reverse: reverse)
                return .none
            }
        case "copy": return bound(name) { _, _ in .array(l.items) }
        case "clear": return bound(name) { _, _ in l.items = []; return .none }
        default: return nil
        }
    }

    func dictMethod(_ d: JinjaDict, _ name: String) -> JinjaValue? {
        switch name {
        case "items": return bound(name) { _, _ in .array(d.entries.map { .tuple([$0.key, $0.value]) }) }
        case "keys": return bound(name) { _, _ in .array(d.keys) }
        case "values": return bound(name) { _, _ in .array(d.values) }
        case "get":
            return bound(name) { a, _ in
                d.get(a.positional.first ?? .none) ?? (a.positional.count > 1 ? a.positional[1] : .none)
            }
        case "pop":
            return bound(name) { a, r in
                let key = a.positional.first ?? .none
                if let v = d.remove(key) { return v }
                if a.positional.count > 1 { return a.positional[1] }
                throw r.error(.value, "KeyError: \(key.repr)")
            }
        case "setdefault":
            return bound(name) { a, _ in
                let key = a.positional.first ?? .none
                if let v = d.get(key) { return v }
                let v = a.positional.count > 1 ? a.positional[1] : .none
                d.set(key, v)
                return v
            }
        case "update":
            return bound(name) { a, r in
                for p in a.positional {
                    guard case .dict(let other) = p else { throw r.error(.type, "update needs a mapping") }
                    for (k, v) in other.entries { d.set(k, v) }
                }
                for (k, v) in a.keywords { d.set(.string(k), v) }
                return .none
            }
        case "copy": return bound(name) { _, _ in .dict(d.copy()) }
        case "clear":
            return bound(name) { _, _ in
                for k in d.keys { _ = d.remove(k) }
                return .none
            }
        default: return nil
        }
    }
}
