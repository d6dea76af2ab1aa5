/// Filters on text: case, trimming, replacing, wrapping, escaping, formatting, URLs and JSON.
extension JinjaRenderer {
    func stringFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue? {
        switch name {
        case "lower": return keepSafe(v, try str(v).lowercased())
        case "upper": return keepSafe(v, try str(v).uppercased())
        case "capitalize": return keepSafe(v, Self.capitalize(try str(v)))
        case "title": return keepSafe(v, Self.title(try str(v)))
        case "trim":
            let chars = args.value(0, "chars")
            let set: Set<Unicode.Scalar>? = chars.flatMap { $0.isNone ? nil : Set($0.plainString.unicodeScalars) }
            return keepSafe(v, Self.strip(try str(v), set))
        case "replace":
            let old = try str(arg(args, 0, "old", .string("")))
            let new = try str(arg(args, 1, "new", .string("")))
            let count = args.value(2, "count").flatMap { $0.isNone ? nil : $0 }
            var limit = -1
            if let count { guard case .int(let c)? = count.numeric else { throw error(.type, "count must be an integer") }; limit = c }
            let r = try Self.replace(try str(v), old, new, limit)
            try checkSize(r.utf8.count)
            return keepSafe(v, r)
        case "string": return v.stringValue != nil ? v : .string(try str(v))
        case "safe": return .markup(try str(v))
        case "escape", "e":
            if case .markup = v { return v }
            return .markup(Self.escapeHTML(try str(v)))
        case "forceescape": return .markup(Self.escapeHTML(try str(v)))
        case "striptags": return .string(Self.stripTags(try str(v)))
        case "center":
            let width = try intArg(args, 0, "width", 80)
            try checkSize(width)
            return .string(Self.center(try str(v), width))
        case "indent": return try indent(v, args)
        case "truncate": return try truncate(v, args)
        case "wordcount": return .int(Self.words(try str(v)).count)
        case "wordwrap": return try wordwrap(v, args)
        case "format":
            let f = try str(v)
            if !args.keywords.isEmpty {
                let d = JinjaDict()
                for (k, val) in args.keywords { d.set(.string(k), val) }
                return .string(try percentFormat(f, .dict(d)))
            }
            return .string(try percentFormat(f, .tuple(args.positional)))
        case "tojson":
            let indentValue = args.value(0, "indent")
            var indentWidth: Int?
            if let indentValue, case .int(let n)? = indentValue.numeric { indentWidth = n }
            return .markup(Self.htmlSafeJSON(try toJSON(v, indent: indentWidth, level: 0)))
        case "urlencode": return .string(try urlencode(v))
        case "urlize": return .markup(try urlize(try str(v), args, escaped: { if case .markup = v { return true } else { return false } }()))
        case "filesizeformat":
            if case .undefined(let u) = v { throw undefinedError(u) }
            return .string(try filesizeformat(v, args))
        case "pprint": return .string(pprint(v, indent: 0))
        case "xmlattr": return .markup(try xmlattr(v, args))
        default: return nil
        }
    }

    static func capitalize(_ s: String) -> String {
        guard let first = s.unicodeScalars.first else { return s }
        return String(first).uppercased() + String(String.UnicodeScalarView(s.unicodeScalars.dropFirst())).lowercased()
    }

    static func title(_ s: String) -> String {
        var out = ""
        var atStart = true
        for c in s.unicodeScalars {
            let separator = isPythonSpace(c) || "-({[<".unicodeScalars.contains(c)
            if separator {
                out.unicodeScalars.append(c)
                atStart = true
            } else if atStart {
                out += String(c).uppercased()
                atStart = false
            } else {
                out += String(c).lowercased()
            }
        }
        return out
    }

    static func strip(_ s: String, _ chars: Set<Unicode.Scalar>?, leading: Bool = true, trailing: Bool = true) -> String {
        func drop(_ c: Unicode.Scalar) -> Bool { chars.map { $0.contains(c) } ?? isPythonSpace(c) }
        let scalars = s.unicodeScalars
        var a = scalars.startIndex, b = scalars.endIndex
        if leading { while a < b, drop(scalars[a]) { a = scalars.index(after: a) } }
        if trailing {
            while b > a {
                let before = scalars.index(before: b)
                guard drop(scalars[before]) else { break }
                b = before
            }
        }
        if a == scalars.startIndex && b == scalars.endIndex { return s }
        return String(scalars[a..<b])
    }

    /// Python's `str.replace`, by Unicode scalars; an empty `old` inserts `new` between every character.
    static func replace(_ s: String, _ old: String, _ new: String, _ limit: Int) throws -> String {
        if old.isEmpty {
            var out = String.UnicodeScalarView()
            var count = 0
            for c in s.unicodeScalars {
                if limit < 0 || count < limit { out.append(contentsOf: new.unicodeScalars); count += 1 }
                out.append(c)
            }
            if limit < 0 || count < limit { out.append(contentsOf: new.unicodeScalars) }
            return String(out)
        }
        // Valid UTF-8 matches valid UTF-8 only at scalar boundaries, so a byte search is the scalar search.
        let src = Array(s.utf8), pattern = Array(old.utf8), replacement = Array(new.utf8)
        guard src.count >= pattern.count else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(src.count)
        var count = 0, i = 0
        let first = pattern[0], last = src.count - pattern.count
        while i < src.count {
            if i <= last, src[i] == first, limit < 0 || count < limit, Self.bytes(src, at: i, equal: pattern) {
                out.append(contentsOf: replacement)
                i += pattern.count
                count += 1
            } else {
                out.append(src[i])
                i += 1
            }
        }
        return count == 0 ? s : String(decoding: out, as: UTF8.self)
    }

    /// Whether `pattern` occurs in `bytes` at `i` (which leaves room for it).
    static func bytes(_ bytes: [UInt8], at i: Int, equal pattern: [UInt8]) -> Bool {
        for k in 1..<pattern.count where bytes[i + k] != pattern[k] { return false }
        return true
    }

    /// markupsafe's `striptags`: comments, then tags removed, whitespace runs made one space, entities decoded.
    static func stripTags(_ s: String) -> String {
        var text = Substring(s)
        var noComments = ""
        while let open = text.firstRange(of: "<!--") {
            guard let close = text[open.upperBound...].firstRange(of: "-->") else { break }
            noComments += text[..<open.lowerBound]
            text = text[close.upperBound...]
        }
        noComments += text
        var out = ""
        var rest = Substring(noComments)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            out += rest[..<open]
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        let joined = pySplit(out, nil, -1, fromRight: false).joined(separator: " ")
        return unescapeHTML(joined)
    }

    /// HTML character references decoded (the named ones markupsafe's tests use, and numeric ones).
    static func unescapeHTML(_ s: String) -> String {
        guard s.contains("&") else { return s }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "#39": "'", "#34": "\""]
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.firstIndex(of: ";"), after.distance(from: after.startIndex, to: semi) <= 10 {
                let entity = String(after[..<semi])
                var decoded: String?
                if let n = named[entity] { decoded = n } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let v = UInt32(entity.dropFirst(2), radix: 16), let u = Unicode.Scalar(v) {
                    decoded = String(u)
                } else if entity.hasPrefix("#"), let v = UInt32(entity.dropFirst()), let u = Unicode.Scalar(v) {
                    decoded = String(u)
                }
                if let decoded {
                    out += decoded
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }

    static func center(_ s: String, _ width: Int) -> String {
        let n = s.unicodeScalars.count
        guard width > n else { return s }
        let pad = width - n
        let left = pad / 2 + (pad & width & 1)
        return String(repeating: " ", count: left) + s + String(repeating: " ", count: pad - left)
    }

    /// Python's `str.splitlines()`.
    static func splitLines(_ s: String, keepEnds: Bool = false) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        let scalars = Array(s.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            switch c.value {
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029:
                var end = [c]
                if c == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" { end.append("\n"); i += 1 }
                if keepEnds { current.append(contentsOf: end) }
                lines.append(String(current))
                current = String.UnicodeScalarView()
            default: current.append(c)
            }
            i += 1
        }
        if !current.isEmpty { lines.append(String(current)) }
        return lines
    }

    func indent(_ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        let widthValue = arg(args, 0, "width", .int(4))
        let indention: String
        if let s = widthValue.stringValue { indention = s } else {
            guard case .int(let n)? = widthValue.numeric else { throw error(.type, "indent width must be an integer or a string") }
            try checkSize(n)
            indention = String(repeating: " ", count: max(0, n))
        }
        let first = try boolArg(args, 1, "first", false)
        let blank = try boolArg(args, 2, "blank", false)
        if case .undefined(let u) = v { throw undefinedError(u) }
        let s = try str(v) + "\n"
        var lines = Self.splitLines(s)
        var rv: String
        if blank {
            rv = lines.joined(separator: "\n" + indention)
        } else {
            rv = lines.isEmpty ? "" : lines.removeFirst()
            if !lines.isEmpty { rv += "\n" + lines.map { $0.isEmpty ? $0 : indention + $0 }.joined(separator: "\n") }
        }
        if first { rv = indention + rv }
        try checkSize(rv.utf8.count)
        return keepSafe(v, rv)
    }

    func truncate(_ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        let s = try str(v)
        let length = try intArg(args, 0, "length", 255)
        if v.stringValue == nil, let n = try? self.length(v), n <= length + (try intArg(args, 3, "leeway", 5)) { return v }
        let killwords = try boolArg(args, 1, "killwords", false)
        let end = try str(arg(args, 2, "end", .string("...")))
        let leeway = try intArg(args, 3, "leeway", 5)
        let scalars = Array(s.unicodeScalars)
        guard length >= end.unicodeScalars.count else { throw error(.value, "expected length >= \(end.unicodeScalars.count), got \(length)") }
        guard leeway >= 0 else { throw error(.value, "expected leeway >= 0, got \(leeway)") }
        if scalars.count <= length + leeway { return .string(s) }
        let cut = String(String.UnicodeScalarView(scalars[0..<max(0, length - end.unicodeScalars.count)]))
        if killwords { return .string(cut + end) }
        if let space = cut.lastIndex(of: " ") { return .string(String(cut[..<space]) + end) }
        return .string(cut + end)
    }

    /// Runs of word characters (`\w+`).
    static func words(_ s: String) -> [String] {
        var words: [String] = []
        var current = ""
        for c in s.unicodeScalars {
            if c == "_" || c.properties.isAlphabetic || c.properties.numericType != nil {
                current.unicodeScalars.append(c)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    func wordwrap(_ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        if case .undefined(let u) = v { throw undefinedError(u) }
        let s = try str(v)
        let width = try intArg(args, 0, "width", 79)
        let breakLong = try boolArg(args, 1, "break_long_words", true)
        let wrap = args.value(2, "wrapstring").flatMap { $0.isNone ? nil : $0.plainString } ?? options.newlineSequence
        let hyphens = try boolArg(args, 3, "break_on_hyphens", true)
        guard width > 0 else { throw error(.value, "invalid width \(width) (must be > 0)") }
        var out: [String] = []
        for line in Self.splitLines(s) {
            out.append(Self.wrapLine(line, width: width, breakLong: breakLong, breakOnHyphens: hyphens).joined(separator: wrap))
        }
        return .string(out.joined(separator: wrap))
    }

    /// Python's `textwrap.wrap` of one line as Jinja2 calls it (no tab expansion, whitespace kept inside lines):
    /// chunks are words and whitespace runs, words also split after hyphens; long words are broken.
    static func wrapLine(_ line: String, width: Int, breakLong: Bool, breakOnHyphens: Bool = true) -> [String] {
        var chunks: [[Unicode.Scalar]] = []
        for c in line.unicodeScalars {
            let space = isPythonSpace(c)
            if let last = chunks.last, let l = last.last, isPythonSpace(l) == space,
               !(breakOnHyphens && !space && l == "-" && last.count > 1 && !isPythonSpace(c) && c != "-" && last.dropLast().contains(where: { $0 != "-" })) {
                chunks[chunks.count - 1].append(c)
            } else {
                chunks.append([c])
            }
        }
        chunks.reverse()
        func blank(_ c: [Unicode.Scalar]) -> Bool { c.allSatisfy(isPythonSpace) }
        var lines: [String] = []
        while !chunks.isEmpty {
            var current: [[Unicode.Scalar]] = []
            var length = 0
            if let last = chunks.last, blank(last), !lines.isEmpty { chunks.removeLast() }
            while let chunk = chunks.last, length + chunk.count <= width {
                current.append(chunk)
                length += chunk.count
                chunks.removeLast()
            }
            if let chunk = chunks.last, chunk.count > width {
                let spaceLeft = width < 1 ? 1 : width - length
                if breakLong {
                    var end = spaceLeft
                    if breakOnHyphens, chunk.count > spaceLeft, spaceLeft > 0,
                       let hyphen = chunk[0..<spaceLeft].lastIndex(of: "-"), hyphen > 0, chunk[0..<hyphen].contains(where: { $0 != "-" }) {
                        end = hyphen + 1
                    }
                    current.append(Array(chunk[0..<end]))
                    chunks[chunks.count - 1] = Array(chunk[end...])
                } else if current.isEmpty {
                    current.append(chunk)
                    chunks.removeLast()
                }
            }
            if let last = current.last, blank(last) { current.removeLast() }
            if !current.isEmpty {
                var view = String.UnicodeScalarView()
                for c in current { view.append(contentsOf: c) }
                lines.append(String(view))
            }
        }
        return lines
    }

    static func htmlSafeJSON(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "'": out += "\\u0027"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Python's `json.dumps(value, sort_keys=True, indent=indent)` (ASCII-only output), as `tojson` writes it.
    func toJSON(_ v: JinjaValue, indent: Int?, level: Int) throws -> String {
        try pythonJSON(v, indent: indent, sortKeys: true, ensureASCII: true, level: level)
    }

    /// A JSON string as `json.dumps` writes it; with `ensureASCII` false, non-ASCII characters are kept as they are.
    static func jsonString(_ s: String, ensureASCII: Bool = true) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if c.value < 0x20 || (ensureASCII && c.value > 0x7E) {
                    if c.value > 0xFFFF {
                        let v = c.value - 0x10000
                        out += "\\u" + JinjaValue.hex(0xD800 + (v >> 10), width: 4) + "\\u" + JinjaValue.hex(0xDC00 + (v & 0x3FF), width: 4)
                    } else {
                        out += "\\u" + JinjaValue.hex(c.value, width: 4)
                    }
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }
}
