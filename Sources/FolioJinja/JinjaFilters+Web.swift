/// Filters for HTML and URLs (`urlencode`, `urlize`, `xmlattr`) and `pprint`.
extension JinjaRenderer {
    static func percentEncode(_ s: String, safe: String) -> String {
        var out = ""
        for b in s.utf8 {
            let c = Character(Unicode.Scalar(b))
            if b < 0x80, c.isLetter || c.isNumber || "_.-~".contains(c) || safe.contains(c) {
                out.append(c)
            } else {
                out += "%" + JinjaValue.hex(UInt32(b), width: 2).uppercased()
            }
        }
        return out
    }

    static func queryEncode(_ s: String) -> String {
        percentEncode(s, safe: "").split(separator: "%20", omittingEmptySubsequences: false).joined(separator: "+")
    }

    func urlencode(_ v: JinjaValue) throws -> String {
        switch v {
        case .dict(let d):
            return try d.entries.map { Self.queryEncode(try str($0.key)) + "=" + Self.queryEncode(try str($0.value)) }
                .joined(separator: "&")
        case .list, .tuple:
            return try iterate(v).map { pair in
                let kv = try unpack(pair, count: 2)
                return Self.queryEncode(try str(kv[0])) + "=" + Self.queryEncode(try str(kv[1]))
            }.joined(separator: "&")
        default: return Self.percentEncode(try str(v), safe: "/")
        }
    }

    func xmlattr(_ v: JinjaValue, _ args: JinjaArguments) throws -> String {
        if case .undefined(let u) = v { throw undefinedError(u) }
        guard case .dict(let d) = v else { throw error(.type, "xmlattr needs a mapping") }
        let autospace = try boolArg(args, 0, "autospace", true)
        var parts: [String] = []
        for (k, value) in d.entries {
            if value.isNone || value.isUndefined { continue }
            let key = try str(k)
            if key.unicodeScalars.contains(where: { isPythonSpace($0) || "/>=".unicodeScalars.contains($0) }) {
                throw error(.value, "Invalid character in attribute name: \(JinjaValue.stringRepr(key))")
            }
            parts.append(Self.escapeHTML(key) + "=\"" + Self.escapeHTML(try str(value)) + "\"")
        }
        let rv = parts.joined(separator: " ")
        return autospace && !rv.isEmpty ? " " + rv : rv
    }

    /// Python's `pprint.pformat` for the common cases: one line when it fits in 80 columns, else one element a line.
    func pprint(_ v: JinjaValue, indent: Int) -> String {
        let flat = v.repr
        if flat.count + indent <= 80 { return flat }
        let pad = String(repeating: " ", count: indent + 1)
        switch v {
        case .list(let l):
            return "[" + l.items.map { pprint($0, indent: indent + 1) }.joined(separator: ",\n" + pad) + "]"
        case .tuple(let t):
            return "(" + t.map { pprint($0, indent: indent + 1) }.joined(separator: ",\n" + pad) + (t.count == 1 ? ",)" : ")")
        case .dict(let d):
            let sorted = d.entries.sorted { JinjaValue.pyLess($0.key, $1.key) ?? false }
            return "{" + sorted.map { $0.key.repr + ": " + pprint($0.value, indent: indent + $0.key.repr.count + 3) }
                .joined(separator: ",\n" + pad) + "}"
        default: return flat
        }
    }

    /// Jinja2's `urlize`: the text is escaped, split at whitespace, and words that look like URLs (scheme or
    /// `www.` with a domain, a bare domain with a common TLD, an IP address) or e-mail addresses become links.
    func urlize(_ text: String, _ args: JinjaArguments, escaped: Bool = false) throws -> String {
        let trimLimit = args.value(0, "trim_url_limit").flatMap { v -> Int? in if case .int(let i)? = v.numeric { return i } else { return nil } }
        let nofollow = try boolArg(args, 1, "nofollow", false)
        let target = args.value(2, "target").flatMap { $0.isNone ? nil : $0.plainString }
        var relParts = Set((args.value(3, "rel").flatMap { $0.isNone ? nil : $0.plainString } ?? "").split(separator: " ").map(String.init))
        if nofollow { relParts.insert("nofollow") }
        if let policy = options.urlizeRel { for p in policy.split(separator: " ") { relParts.insert(String(p)) } }
        let rel = relParts.sorted().joined(separator: " ")
        var extraSchemes: [String]?
        if let extra = args.value(4, "extra_schemes"), !extra.isNone { extraSchemes = try iterate(extra).map(\.plainString) }
        let relAttr = rel.isEmpty ? "" : " rel=\"\(Self.escapeHTML(rel))\""
        let targetAttr = target.map { " target=\"\(Self.escapeHTML($0))\"" } ?? ""
        var out = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            out += Self.urlizeWord(word, relAttr + targetAttr, trimLimit: trimLimit, extraSchemes: extraSchemes)
            word = ""
        }
        for c in (escaped ? text : Self.escapeHTML(text)).unicodeScalars {
            if isPythonSpace(c) { flush(); out.unicodeScalars.append(c) } else { word.unicodeScalars.append(c) }
        }
        flush()
        return out
    }

    static func urlizeWord(_ word: String, _ attrs: String, trimLimit: Int?, extraSchemes: [String]?) -> String {
        var head = ""
        var middle = word
        var tail = ""
        while true {
            if middle.hasPrefix("(") || middle.hasPrefix("<") { head.append(middle.removeFirst()); continue }
            if middle.hasPrefix("&lt;") { head += "&lt;"; middle.removeFirst(4); continue }
            break
        }
        while true {
            if let l = middle.last, ")>.,\n".contains(l) { tail.insert(middle.removeLast(), at: tail.startIndex); continue }
            if middle.hasSuffix("&gt;") { tail = "&gt;" + tail; middle.removeLast(4); continue }
            break
        }
        for (open, close) in [("(", ")"), ("<", ">"), ("&lt;", "&gt;")] {
            let opens = middle.components(open)
            guard opens > middle.components(close) else { continue }
            for _ in 0..<min(opens, tail.components(close)) {
                guard let r = tail.firstRange(of: close) else { break }
                middle += tail[..<r.upperBound]
                tail = String(tail[r.upperBound...])
            }
        }
        func trimmed(_ x: String) -> String {
            guard let trimLimit, x.count > trimLimit else { return x }
            return String(x.prefix(trimLimit)) + "..."
        }
        if isHTTPLink(middle) {
            if middle.hasPrefix("https://") || middle.hasPrefix("http://") {
                middle = "<a href=\"\(middle)\"\(attrs)>\(trimmed(middle))</a>"
            } else {
                middle = "<a href=\"https://\(middle)\"\(attrs)>\(trimmed(middle))</a>"
            }
        } else if middle.hasPrefix("mailto:"), isEmail(String(middle.dropFirst(7))) {
            middle = "<a href=\"\(middle)\">\(middle.dropFirst(7))</a>"
        } else if middle.contains("@"), !middle.hasPrefix("www."), !middle.hasPrefix("@"), !middle.contains(":"), isEmail(middle) {
            middle = "<a href=\"mailto:\(middle)\">\(middle)</a>"
        } else if let extraSchemes {
            for scheme in extraSchemes where middle != scheme && middle.hasPrefix(scheme) {
                middle = "<a href=\"\(middle)\"\(attrs)>\(middle)</a>"
            }
        }
        return head + middle + tail
    }

    static func isWordChar(_ c: Character) -> Bool { c == "_" || c.isLetter || c.isNumber }

    /// Jinja2's `_email_re`: `^\S+@\w[\w.-]*\.\w+$`.
    static func isEmail(_ s: String) -> Bool {
        let chars = Array(s)
        for (i, c) in chars.enumerated() where c == "@" && i > 0 {
            let domain = Array(chars[(i + 1)...])
            guard let first = domain.first, isWordChar(first), let dot = domain.lastIndex(of: "."), dot > 0 else { continue }
            let suffix = domain[(dot + 1)...]
            if !suffix.isEmpty, suffix.allSatisfy(isWordChar), domain[1..<dot].allSatisfy({ isWordChar($0) || $0 == "." || $0 == "-" }) {
                return true
            }
        }
        return false
    }

    /// Jinja2's `_http_re`: a scheme or `www.` with a domain, a bare domain with a common TLD, or an IP address;
    /// then an optional port and path.
    static func isHTTPLink(_ s: String) -> Bool {
        let lower = s.lowercased()
        var rest = Substring(s)
        var scheme = false
        for p in ["https://", "http://"] where lower.hasPrefix(p) { rest = rest.dropFirst(p.count); scheme = true; break }
        let www = !scheme && lower.hasPrefix("www.")
        let hostEnd = rest.firstIndex { !(isWordChar($0) || $0 == "%" || $0 == "-" || $0 == "." || $0 == "[" || $0 == "]" || $0 == ":") } ?? rest.endIndex
        var host = rest[..<hostEnd]
        var after = rest[hostEnd...]
        if let colon = host.lastIndex(of: ":"), !host.hasPrefix("[") || host[host.index(before: host.endIndex)...] != "]" {
            let port = host[host.index(after: colon)...]
            guard (1...5).contains(port.count), port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else { return false }
            after = rest[colon...]
            host = host[..<colon]
            after = after.drop { $0 == ":" || $0.isNumber }
        }
        if let f = after.first, !"/?#".contains(f) { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        func label(_ l: Substring, _ range: ClosedRange<Int>? = nil) -> Bool {
            !l.isEmpty && l.allSatisfy { isWordChar($0) || $0 == "%" || $0 == "-" } && (range.map { $0.contains(l.count) } ?? true)
        }
        if scheme || www {
            if scheme, labels.count == 4, labels.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy(\.isNumber) }) { return true }
            if scheme, host.hasPrefix("["), host.hasSuffix("]") { return true }
            guard let tld = labels.last else { return false }
            let tldOK = (2...63).contains(tld.count) && tld.allSatisfy { $0.isASCII && $0.isLetter }
                || (tld.lowercased().hasPrefix("xn--") && (2...59).contains(tld.count - 4) && tld.dropFirst(4).allSatisfy { isWordChar($0) || $0 == "%" })
            return tldOK && labels.dropLast().allSatisfy { label($0) }
        }
        guard labels.count >= 2, let tld = labels.last,
              ["com", "net", "int", "edu", "gov", "org", "info", "mil"].contains(tld.lowercased()) else { return false }
        return labels.dropLast().allSatisfy { label($0, 2...63) }
    }
}

extension String {
    /// How many times `piece` occurs, not overlapping (Python's `str.count`).
    func components(_ piece: String) -> Int {
        guard !piece.isEmpty else { return 0 }
        var n = 0
        var rest = Substring(self)
        while let r = rest.firstRange(of: piece) { n += 1; rest = rest[r.upperBound...] }
        return n
    }
}
