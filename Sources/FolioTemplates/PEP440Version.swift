/// A version as Python's `packaging.version.Version` reads it (PEP 440), which copier uses to pick `_migrations`:
/// an optional `v`, an optional epoch `N!`, release numbers, then optional pre-release (`a`, `b`, `rc`, and their
/// spellings `alpha`, `beta`, `c`, `pre`, `preview`), post-release and development parts; a local part (`+…`) is
/// kept for printing and ignored in order only when both lack one. Ordered as PEP 440 orders them; printed in its
/// normal form (`v1.0` → `1.0`, `1.0-RC1` → `1.0rc1`). nil for anything else.
struct PEP440Version: Comparable, CustomStringConvertible, Sendable {
    var epoch = 0
    var release: [Int] = []
    /// 0: a, 1: b, 2: rc.
    var pre: (kind: Int, number: Int)?
    var post: Int?
    var dev: Int?
    var local: String?

    init?(_ text: String) {
        var s = Substring(text.lowercased()).drop { $0 == " " }
        while s.last == " " { s = s.dropLast() }
        if s.hasPrefix("v") { s = s.dropFirst() }
        if let plus = s.firstIndex(of: "+") {
            let part = s[s.index(after: plus)...]
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }) else { return nil }
            local = String(part.map { $0 == "-" || $0 == "_" ? "." : $0 })
            s = s[..<plus]
        }
        if let bang = s.firstIndex(of: "!") {
            guard let e = Int(s[..<bang]), e >= 0 else { return nil }
            epoch = e
            s = s[s.index(after: bang)...]
        }
        guard let numbers = Self.release(&s) else { return nil }
        release = numbers
        if let (kind, n) = Self.phase(&s, [("alpha", 0), ("beta", 1), ("preview", 2), ("pre", 2), ("rc", 2), ("a", 0), ("b", 1), ("c", 2)]) { pre = (kind, n) }
        if let (_, n) = Self.phase(&s, [("post", 0), ("rev", 0), ("r", 0)]) { post = n }
        else if s.first == "-", let n = Self.number(s.dropFirst()) { post = n.value; s = n.rest }
        if let (_, n) = Self.phase(&s, [("dev", 0)]) { dev = n }
        guard s.isEmpty else { return nil }
    }

    private static func release(_ s: inout Substring) -> [Int]? {
        var out: [Int] = []
        while let n = number(s) {
            out.append(n.value)
            s = n.rest
            guard s.first == ".", let next = s.dropFirst().first, next.isNumber else { break }
            s = s.dropFirst()
        }
        return out.isEmpty ? nil : out
    }

    private static func number(_ s: Substring) -> (value: Int, rest: Substring)? {
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 18, let value = Int(digits) else { return nil }
        return (value, s.dropFirst(digits.count))
    }

    /// A separator (`.`, `-`, `_`, or none), one of `names`, an optional separator and number (0 when absent).
    private static func phase(_ s: inout Substring, _ names: [(String, Int)]) -> (Int, Int)? {
        var rest = s
        if let first = rest.first, ".-_".contains(first) { rest = rest.dropFirst() }
        guard let (name, kind) = names.first(where: { rest.hasPrefix($0.0) }) else { return nil }
        rest = rest.dropFirst(name.count)
        var afterSeparator = rest
        if let first = afterSeparator.first, ".-_".contains(first) { afterSeparator = afterSeparator.dropFirst() }
        if let n = number(afterSeparator) { s = n.rest; return (kind, n.value) }
        s = rest
        return (kind, 0)
    }

    var description: String {
        var out = epoch == 0 ? "" : "\(epoch)!"
        out += release.map(String.init).joined(separator: ".")
        if let pre { out += ["a", "b", "rc"][pre.kind] + "\(pre.number)" }
        if let post { out += ".post\(post)" }
        if let dev { out += ".dev\(dev)" }
        if let local { out += "+" + local }
        return out
    }

    /// PEP 440's order: epoch, release (trailing zeros ignored), then a dev-only release before its pre-releases,
    /// pre-releases before the release, post-releases after it, a dev part before what it is a dev of.
    private var key: [Int] {
        var numbers = release
        while numbers.count > 1, numbers.last == 0 { numbers.removeLast() }
        var out = [epoch, numbers.count] + numbers
        if let pre { out += [pre.kind, pre.number] } else if post == nil, dev != nil { out += [-1, 0] } else { out += [3, 0] }
        out += post.map { [1, $0] } ?? [0, 0]
        out += dev.map { [0, $0] } ?? [1, 0]
        return out
    }

    static func < (a: PEP440Version, b: PEP440Version) -> Bool {
        let x = a.key, y = b.key
        // Release numbers are compared as a padded sequence: the count stands before them, so compare them first.
        let ra = Array(x[2..<(2 + x[1])]), rb = Array(y[2..<(2 + y[1])])
        if x[0] != y[0] { return x[0] < y[0] }
        for i in 0..<max(ra.count, rb.count) {
            let p = i < ra.count ? ra[i] : 0, q = i < rb.count ? rb[i] : 0
            if p != q { return p < q }
        }
        return Array(x.dropFirst(2 + x[1])).lexicographicallyPrecedes(Array(y.dropFirst(2 + y[1])))
    }

    static func == (a: PEP440Version, b: PEP440Version) -> Bool { !(a < b) && !(b < a) }
}
