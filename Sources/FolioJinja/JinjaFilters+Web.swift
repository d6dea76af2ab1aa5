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

    func urlencode(_ v: JinjaValue) throws -> String {
        switch v {
        case .dict(let d):
            return try d.entries.map { Self.percentEncode(try str($0.key), safe: "") + "=" + Self.percentEncode(try str($0.value), safe: "") }
                .joined(separator: "&")
        case .list, .tuple:
            return try iterate(v).map { pair in
                let kv = try unpack(pair, count: 2)
                return Self.percentEncode(try str(kv[0]), safe: "") + "=" + Self.percentEncode(try str(kv[1]), safe: "")
            }.joined(separator: "&")
        default: return Self.percentEncode(try str(v), safe: "/")
        }
    }

    func xmlattr(_ v: JinjaValue, _ args: JinjaArguments) throws -> String {
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

    /// Jinja2's `urlize`: bare URLs, `www.` and domain-looking words, and e-mail addresses become links.
    func urlize(_ text: String, _ args: JinjaArguments) throws -> String {
        let trimLimit = args.value(0, "trim_url_limit").flatMap { v -> Int? in if case .int(let i)? = v.numeric { return i } else { return nil } }
        let nofollow = try boolArg(args, 1, "nofollow", false)
        let target = args.value(2, "target").flatMap { $0.isNone ? nil : $0.plainString }
        var relParts = Set((args.value(3, "rel").flatMap { $0.isNone ? nil : $0.plainString } ?? "").split(separator: " ").map(String.init))
        if nofollow { relParts.insert("nofollow") }
        if let policy = options.urlizeRel { for p in policy.split(separator: " ") { relParts.insert(String(p)) } }
        let rel = relParts.sorted().joined(separator: " ")
        var schemes = ["https://", "http://", "mailto:"]
        if let extra = args.value(4, "extra_schemes"), !extra.isNone { schemes += try iterate(extra).map(\.plainString) }
        var out = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            out += urlizeWord(word, schemes: schemes, rel: rel, target: target, trimLimit: trimLimit)
            word = ""
        }
        for c in text.unicodeScalars {
            if isPythonSpace(c) { flush(); out.unicodeScalars.append(c) } else { word.unicodeScalars.append(c) }
        }
        flush()
        return out
    }

    func urlizeWord(_ word: String, schemes: [String], rel: String, target: String?, trimLimit: Int?) -> String {
        var head = ""
        var middle = word
        var tail = ""
        while let f = middle.first, "(<".contains(f) { head.append(f); middle.removeFirst() }
        while let l = middle.last, ".,)>\n!:;'\"".contains(l) { tail.insert(l, at: tail.startIndex); middle.removeLast() }
        let relAttr = rel.isEmpty ? "" : " rel=\"\(Self.escapeHTML(rel))\""
        let targetAttr = target.map { " target=\"\(Self.escapeHTML($0))\"" } ?? ""
        var shown = middle
        if let trimLimit, shown.count > trimLimit { shown = String(shown.prefix(trimLimit)) + "..." }
        func link(_ href: String) -> String {
            head + "<a href=\"\(Self.escapeHTML(href))\"\(relAttr)\(targetAttr)>\(Self.escapeHTML(shown))</a>" + tail
        }
        let lower = middle.lowercased()
        if lower.hasPrefix("mailto:") { return head + "<a href=\"\(Self.escapeHTML(middle))\">\(Self.escapeHTML(shown))</a>" + tail }
        for scheme in schemes where lower.hasPrefix(scheme) && middle.count > scheme.count {
            return link(middle)
        }
        if lower.hasPrefix("www.") { return link("https://" + middle) }
        if middle.contains("@"), !middle.contains(":"), !middle.hasPrefix("www."), Self.looksLikeEmail(middle) {
            return head + "<a href=\"mailto:\(Self.escapeHTML(middle))\">\(Self.escapeHTML(middle))</a>" + tail
        }
        if Self.looksLikeDomain(middle) { return link("https://" + middle) }
        return Self.escapeHTML(word)
    }

    static func looksLikeEmail(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        return looksLikeDomain(String(parts[1]))
    }

    static func looksLikeDomain(_ s: String) -> Bool {
        let host = s.split(separator: "/", maxSplits: 1).first.map(String.init) ?? s
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let tld = labels.last, ["com", "net", "org"].contains(tld.lowercased()) else { return false }
        return labels.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
    }
}
