// jinja2-ansible-filters' regular-expression filters on Swift's Regex, matching by Unicode scalar as Python's `re`
// does. A pattern with a quantified group that itself holds a quantifier (`(a+)+`, `(x*)*`) can take exponential
// time on a short subject, so it is refused (no template may hang Folio); so is a subject over 1 MiB.

extension JinjaRenderer {
    func regexFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        let subject = try str(v)
        if name == "regex_escape" { return .string(Self.pythonEscape(subject)) }
        guard subject.utf8.count <= 1 << 20 else { throw error(.limit, "\(name): the text is over 1 MiB") }
        switch name {
        case "regex_replace":
            let regex = try compile(try str(arg(args, 0, "pattern", .string(""))), ignoreCase: try boolArg(args, 2, "ignorecase", false), multiline: false)
            let replacement = try str(arg(args, 1, "replacement", .string("")))
            return .string(try substitute(regex, in: subject, with: replacement))
        case "regex_findall":
            let regex = try compile(try str(arg(args, 0, "regex", .string(""))), ignoreCase: try boolArg(args, 2, "ignorecase", false),
                                    multiline: try boolArg(args, 1, "multiline", false))
            return .list(JinjaList(try findAll(regex, in: subject)))
        default:
            let pattern = try str(arg(args, 0, "regex", .string("")))
            let regex = try compile(pattern, ignoreCase: try boolArg(args, -1, "ignorecase", false), multiline: try boolArg(args, -1, "multiline", false))
            guard let match = try regex.firstMatch(in: subject) else { return .none }
            let groups = try args.positional.dropFirst().map { try str($0) }
            if groups.isEmpty { return .string(String(match.output[0].substring ?? "")) }
            return .list(JinjaList(try groups.map { reference in .string(try group(reference, of: match)) }))
        }
    }

    /// The pattern compiled as Python reads it; a syntax error or a pattern that could take exponential time is refused.
    func compile(_ pattern: String, ignoreCase: Bool, multiline: Bool) throws -> Regex<AnyRegexOutput> {
        if let problem = Self.exponentialRisk(pattern) { throw error(.value, "regex '\(pattern)': \(problem)") }
        do {
            var regex = try Regex(pattern).matchingSemantics(.unicodeScalar)
            if ignoreCase { regex = regex.ignoresCase() }
            if multiline { regex = regex.anchorsMatchLineEndings() }
            return regex
        } catch {
            throw self.error(.value, "regex '\(pattern)' does not compile: \(error)")
        }
    }

    /// Why `pattern` could backtrack exponentially, nil when it cannot so: a repeated group that holds a quantifier
    /// (`(a+)+`), or that holds alternatives other than distinct single characters (`(a|a)*`, `(a|aa)+`, `(\\w|a)*`;
    /// `(a|b)+` is fine, being `[ab]+`).
    static func exponentialRisk(_ pattern: String) -> String? {
        let s = Array(pattern.unicodeScalars)
        var stack: [(start: Int, quantified: Bool)] = []  // per open group: where it opened, whether it holds a quantifier
        var i = 0, inClass = false
        func quantifierAt(_ j: Int) -> Bool { j < s.count && (s[j] == "*" || s[j] == "+" || s[j] == "{" || s[j] == "?") }
        func repeatsAt(_ j: Int) -> Bool { quantifierAt(j) && (s[j] != "?" || (j + 1 < s.count && s[j + 1] == "?")) }
        while i < s.count {
            let c = s[i]
            if c == "\\" { i += 2; continue }
            if inClass { if c == "]" { inClass = false }; i += 1; continue }
            switch c {
            case "[": inClass = true
            case "(": stack.append((i, false))
            case ")":
                let group = stack.popLast() ?? (i, false)
                if repeatsAt(i + 1) {
                    if group.quantified { return "a repeated group that repeats inside (such as (a+)+) can take exponential time; Folio refuses it" }
                    if !distinctSingleCharacters(Array(s[(group.start + 1)..<i])) {
                        return "a repeated group of alternatives that can match the same text (such as (a|aa)+) can take exponential time; Folio refuses it"
                    }
                }
                if group.quantified || quantifierAt(i + 1), !stack.isEmpty { stack[stack.count - 1].quantified = true }
            case "*", "+", "{":
                if !stack.isEmpty { stack[stack.count - 1].quantified = true }
            default: break
            }
            i += 1
        }
        return nil
    }

    /// Whether a group's body has no top-level alternation, or only alternatives that are distinct single characters.
    private static func distinctSingleCharacters(_ body: [Unicode.Scalar]) -> Bool {
        guard body.contains("|") else { return true }
        var branches: [[Unicode.Scalar]] = [[]], depth = 0, inClass = false, k = 0
        while k < body.count {
            let c = body[k]
            if c == "\\", k + 1 < body.count { branches[branches.count - 1] += [c, body[k + 1]]; k += 2; continue }
            if inClass { if c == "]" { inClass = false } } else if c == "[" { inClass = true } else if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if c == "|", depth == 0, !inClass { branches.append([]) } else { branches[branches.count - 1].append(c) }
            k += 1
        }
        var seen: Set<String> = []
        for branch in branches {
            let single = branch.count == 1 && !"()[]{}*+?|^$.".unicodeScalars.contains(branch[0])
            let escaped = branch.count == 2 && branch[0] == "\\" && !(branch[1].properties.isAlphabetic || ("0"..."9").contains(branch[1]))
            guard single || escaped, seen.insert(String(String.UnicodeScalarView(branch))).inserted else { return false }
        }
        return true
    }

    /// `re.sub(regex, replacement, subject)`: `\1`, `\g<1>`, `\g<name>` and the escapes `\n`, `\t`, `\\` expanded.
    func substitute(_ regex: Regex<AnyRegexOutput>, in subject: String, with replacement: String) throws -> String {
        var out = "", last = subject.startIndex, steps = 0
        for match in subject.matches(of: regex) {
            steps += 1
            if steps & 1023 == 0 { try step() }
            out += subject[last..<match.range.lowerBound]
            out += try expand(replacement, match)
            last = match.range.upperBound
            guard out.utf8.count <= limits.maxOutputBytes else { throw error(.limit, "regex_replace: the result is over the output limit") }
        }
        return out + subject[last...]
    }

    func expand(_ template: String, _ match: Regex<AnyRegexOutput>.Match) throws -> String {
        let s = Array(template.unicodeScalars)
        var out = String.UnicodeScalarView(), i = 0
        while i < s.count {
            guard s[i] == "\\", i + 1 < s.count else { out.append(s[i]); i += 1; continue }
            let c = s[i + 1]
            if ("0"..."9").contains(c) {
                var j = i + 1, digits = ""
                while j < s.count, digits.count < 2, ("0"..."9").contains(s[j]) { digits.unicodeScalars.append(s[j]); j += 1 }
                out.append(contentsOf: try group(digits, of: match).unicodeScalars)
                i = j
            } else if c == "g", i + 2 < s.count, s[i + 2] == "<", let close = s[(i + 3)...].firstIndex(of: ">") {
                out.append(contentsOf: try group(String(String.UnicodeScalarView(s[(i + 3)..<close])), of: match).unicodeScalars)
                i = close + 1
            } else {
                switch c {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "\\": out.append("\\")
                default:
                    if c.isASCII && c.properties.isAlphabetic { throw error(.value, "bad escape \\\(c) in the replacement") }
                    out.append("\\"); out.append(c)
                }
                i += 2
            }
        }
        return String(out)
    }

    /// The text of group `reference` (`1`, `\1`, `\g<name>`, `name`) in `match`; "" for a group that did not take part.
    func group(_ reference: String, of match: Regex<AnyRegexOutput>.Match) throws -> String {
        var name = reference
        if name.hasPrefix("\\g<"), name.hasSuffix(">") { name = String(name.dropFirst(3).dropLast()) } else if name.hasPrefix("\\") { name = String(name.dropFirst()) }
        if let index = Int(name) {
            guard index >= 0, index < match.output.count else { throw error(.value, "invalid group reference \(index)") }
            return match.output[index].substring.map(String.init) ?? ""
        }
        guard let element = match.output[name] else { throw error(.value, "unknown group name '\(name)'") }
        return element.substring.map(String.init) ?? ""
    }

    /// `re.findall`: the whole matches, or the one group's text, or a tuple of every group's.
    func findAll(_ regex: Regex<AnyRegexOutput>, in subject: String) throws -> [JinjaValue] {
        var out: [JinjaValue] = []
        for match in subject.matches(of: regex) {
            if out.count & 1023 == 1023 { try step() }
            let groups = match.output.count - 1
            switch groups {
            case 0: out.append(.string(String(match.output[0].substring ?? "")))
            case 1: out.append(.string(match.output[1].substring.map(String.init) ?? ""))
            default: out.append(.tuple((1...groups).map { .string(match.output[$0].substring.map(String.init) ?? "") }))
            }
        }
        return out
    }

    /// Python's `re.escape`: every character but ASCII letters, digits and `_` gets a backslash (as 3.7+ does for
    /// the special ones only).
    static func pythonEscape(_ text: String) -> String {
        let special = Set("()[]{}?*+-|^$\\.&~# \t\n\r\u{0B}\u{0C}".unicodeScalars)
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if special.contains(s) { out.append("\\") }
            out.append(s)
        }
        return String(out)
    }
}
