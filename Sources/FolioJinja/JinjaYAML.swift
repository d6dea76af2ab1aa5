// `to_yaml` and `to_nice_yaml` as jinja2-ansible-filters write them: PyYAML's `yaml.dump(value, allow_unicode=True,
// sort_keys=True, …)`, its emitter followed step by step (scalar analysis, the choice of plain, single- or double-quoted
// style, lines folded past 80 columns, indentless sequences in mappings, flow style for collections of scalars when
// `default_flow_style` is None). Values are Jinja's: None, booleans, numbers, strings, lists, tuples and dicts.

struct JinjaYAMLEmitter {
    let bestIndent: Int
    let bestWidth = 80
    /// nil: flow style for collections whose items are all scalars (PyYAML's default); true/false: always or never.
    let defaultFlowStyle: Bool?
    let render: JinjaRenderer

    private(set) var output = ""
    private var column = 0
    private var whitespace = true
    private var indention = true
    private var openEnded = false
    private var indent: Int?
    private var indents: [Int?] = []
    private var flowLevel = 0
    private var rootContext = false
    private var mappingContext = false
    private var simpleKeyContext = false

    init(indent: Int, defaultFlowStyle: Bool?, render: JinjaRenderer) {
        bestIndent = (2...9).contains(indent) ? indent : 2
        self.defaultFlowStyle = defaultFlowStyle
        self.render = render
    }

    /// The value dumped as one YAML document.
    mutating func dump(_ value: JinjaValue) throws -> String {
        try node(value, root: true, depth: 0)
        writeIndent()
        if openEnded {
            writeIndicator("...", needWhitespace: true)
            writeIndent()
        }
        return output
    }

    // MARK: Nodes

    private enum Node { case scalar(text: String, plainImplicit: Bool), sequence([JinjaValue]), mapping([(JinjaValue, JinjaValue)]) }

    private func classify(_ v: JinjaValue) throws -> Node {
        switch v {
        case .none: return .scalar(text: "null", plainImplicit: true)
        case .bool(let b): return .scalar(text: b ? "true" : "false", plainImplicit: true)
        case .int(let i): return .scalar(text: String(i), plainImplicit: true)
        case .bigInt(let b): return .scalar(text: b.description, plainImplicit: true)
        case .float(let d): return .scalar(text: Self.floatText(d), plainImplicit: true)
        case .string(let s), .markup(let s): return .scalar(text: s, plainImplicit: !Self.resolvesToOtherThanString(s))
        case .list, .tuple: return .sequence(try render.iterate(v))
        case .dict(let d):
            return .mapping(d.entries.sorted { JinjaValue.pyLess($0.key, $1.key) ?? false }.map { ($0.key, $0.value) })
        case .undefined(let u): throw render.undefinedError(u)
        default: throw render.error(.value, "cannot represent an object: \(v.typeName)")
        }
    }

    private mutating func node(_ v: JinjaValue, root: Bool = false, sequence: Bool = false, mapping: Bool = false, simpleKey: Bool = false,
                               depth: Int) throws {
        guard depth < 100 else { throw render.error(.value, "value nested too deeply for YAML") }
        rootContext = root
        mappingContext = mapping
        simpleKeyContext = simpleKey
        switch try classify(v) {
        case let .scalar(text, plain):
            increaseIndent(flow: true)
            try scalar(text, plainImplicit: plain)
            indent = indents.popLast() ?? nil
        case .sequence(let items):
            let flow = try flowStyle(items)
            if flowLevel > 0 || flow || items.isEmpty { try flowSequence(items, depth: depth) } else { try blockSequence(items, depth: depth) }
        case .mapping(let pairs):
            let flow = try flowStyle(pairs.flatMap { [$0.0, $0.1] })
            if flowLevel > 0 || flow || pairs.isEmpty { try flowMapping(pairs, depth: depth) } else { try blockMapping(pairs, depth: depth) }
        }
    }

    private func flowStyle(_ items: [JinjaValue]) throws -> Bool {
        if let defaultFlowStyle { return defaultFlowStyle }
        for item in items { if case .scalar = try classify(item) { continue } else { return false } }
        return true
    }

    private mutating func increaseIndent(flow: Bool = false, indentless: Bool = false) {
        indents.append(indent)
        if let current = indent {
            if !indentless { indent = current + bestIndent }
        } else {
            indent = flow ? bestIndent : 0
        }
    }

    private mutating func flowSequence(_ items: [JinjaValue], depth: Int) throws {
        writeIndicator("[", needWhitespace: true, whitespace: true)
        flowLevel += 1
        increaseIndent(flow: true)
        for (i, item) in items.enumerated() {
            if i > 0 { writeIndicator(",", needWhitespace: false) }
            if column > bestWidth { writeIndent() }
            try node(item, sequence: true, depth: depth + 1)
        }
        indent = indents.popLast() ?? nil
        flowLevel -= 1
        writeIndicator("]", needWhitespace: false)
    }

    private mutating func flowMapping(_ pairs: [(JinjaValue, JinjaValue)], depth: Int) throws {
        writeIndicator("{", needWhitespace: true, whitespace: true)
        flowLevel += 1
        increaseIndent(flow: true)
        for (i, (key, value)) in pairs.enumerated() {
            if i > 0 { writeIndicator(",", needWhitespace: false) }
            if column > bestWidth { writeIndent() }
            if try isSimpleKey(key) {
                try node(key, mapping: true, simpleKey: true, depth: depth + 1)
                writeIndicator(":", needWhitespace: false)
            } else {
                writeIndicator("?", needWhitespace: true)
                try node(key, mapping: true, depth: depth + 1)
                if column > bestWidth { writeIndent() }
                writeIndicator(":", needWhitespace: true)
            }
            try node(value, mapping: true, depth: depth + 1)
        }
        indent = indents.popLast() ?? nil
        flowLevel -= 1
        writeIndicator("}", needWhitespace: false)
    }

    private mutating func blockSequence(_ items: [JinjaValue], depth: Int) throws {
        increaseIndent(flow: false, indentless: mappingContext && !indention)
        for item in items {
            writeIndent()
            writeIndicator("-", needWhitespace: true, indention: true)
            try node(item, sequence: true, depth: depth + 1)
        }
        indent = indents.popLast() ?? nil
    }

    private mutating func blockMapping(_ pairs: [(JinjaValue, JinjaValue)], depth: Int) throws {
        increaseIndent(flow: false)
        for (key, value) in pairs {
            writeIndent()
            if try isSimpleKey(key) {
                try node(key, mapping: true, simpleKey: true, depth: depth + 1)
                writeIndicator(":", needWhitespace: false)
            } else {
                writeIndicator("?", needWhitespace: true, indention: true)
                try node(key, mapping: true, depth: depth + 1)
                writeIndent()
                writeIndicator(":", needWhitespace: true, indention: true)
            }
            try node(value, mapping: true, depth: depth + 1)
        }
        indent = indents.popLast() ?? nil
    }

    /// PyYAML's `check_simple_key`: a short scalar on one line, or an empty collection.
    private func isSimpleKey(_ key: JinjaValue) throws -> Bool {
        switch try classify(key) {
        case let .scalar(text, _):
            let analysis = ScalarAnalysis(text)
            return text.unicodeScalars.count < 128 && !analysis.empty && !analysis.multiline
        case .sequence(let items): return items.isEmpty
        case .mapping(let pairs): return pairs.isEmpty
        }
    }

    // MARK: Scalars

    /// What PyYAML's `analyze_scalar` finds in a scalar's text.
    struct ScalarAnalysis {
        var empty = false, multiline = false
        var allowFlowPlain = true, allowBlockPlain = true, allowSingleQuoted = true

        static func isBreak(_ c: Unicode.Scalar) -> Bool { c == "\n" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}" }
        /// The end of the text (nil) or a line break.
        static func isBreakOrEnd(_ c: Unicode.Scalar?) -> Bool { c.map(isBreak) ?? true }
        static func isSpaceOrBreak(_ c: Unicode.Scalar?) -> Bool {
            guard let c else { return true }
            return c == "\0" || c == " " || c == "\t" || c == "\r" || isBreak(c)
        }

        init(_ text: String) {
            let s = Array(text.unicodeScalars)
            if s.isEmpty {
                empty = true
                allowFlowPlain = false
                return
            }
            var blockIndicators = false, flowIndicators = false, lineBreaks = false, special = false
            var leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false
            var breakSpace = false, spaceBreak = false
            if text.hasPrefix("---") || text.hasPrefix("...") { blockIndicators = true; flowIndicators = true }
            var precededByWhitespace = true
            var followedByWhitespace = s.count == 1 || Self.isSpaceOrBreak(s[1])
            var previousSpace = false, previousBreak = false
            for (index, ch) in s.enumerated() {
                if index == 0 {
                    if "#,[]{}&*!|>'\"%@`".unicodeScalars.contains(ch) { flowIndicators = true; blockIndicators = true }
                    if ch == "?" || ch == ":" {
                        flowIndicators = true
                        if followedByWhitespace { blockIndicators = true }
                    }
                    if ch == "-", followedByWhitespace { flowIndicators = true; blockIndicators = true }
                } else {
                    if ",?[]{}".unicodeScalars.contains(ch) { flowIndicators = true }
                    if ch == ":" {
                        flowIndicators = true
                        if followedByWhitespace { blockIndicators = true }
                    }
                    if ch == "#", precededByWhitespace { flowIndicators = true; blockIndicators = true }
                }
                if Self.isBreak(ch) { lineBreaks = true }
                if !(ch == "\n" || (0x20...0x7E).contains(ch.value)) {
                    let v = ch.value
                    let printable = ch == "\u{85}" || (0xA0...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000..<0x10FFFF).contains(v)
                    if !printable || v == 0xFEFF { special = true }  // allow_unicode: printable non-ASCII is fine
                }
                if ch == " " {
                    if index == 0 { leadingSpace = true }
                    if index == s.count - 1 { trailingSpace = true }
                    if previousBreak { breakSpace = true }
                    previousSpace = true; previousBreak = false
                } else if Self.isBreak(ch) {
                    if index == 0 { leadingBreak = true }
                    if index == s.count - 1 { trailingBreak = true }
                    if previousSpace { spaceBreak = true }
                    previousSpace = false; previousBreak = true
                } else {
                    previousSpace = false; previousBreak = false
                }
                precededByWhitespace = Self.isSpaceOrBreak(ch)
                followedByWhitespace = index + 2 >= s.count || Self.isSpaceOrBreak(s[index + 2])
            }
            multiline = lineBreaks
            if leadingSpace || leadingBreak || trailingSpace || trailingBreak { allowFlowPlain = false; allowBlockPlain = false }
            if breakSpace { allowFlowPlain = false; allowBlockPlain = false; allowSingleQuoted = false }
            if spaceBreak || special { allowFlowPlain = false; allowBlockPlain = false; allowSingleQuoted = false }
            if lineBreaks { allowFlowPlain = false; allowBlockPlain = false }
            if flowIndicators { allowFlowPlain = false }
            if blockIndicators { allowBlockPlain = false }
        }
    }

    private mutating func scalar(_ text: String, plainImplicit: Bool) throws {
        let analysis = ScalarAnalysis(text)
        let split = !simpleKeyContext
        if plainImplicit, !(simpleKeyContext && (analysis.empty || analysis.multiline)),
           (flowLevel > 0 && analysis.allowFlowPlain) || (flowLevel == 0 && analysis.allowBlockPlain) {
            writePlain(text, split: split)
        } else if analysis.allowSingleQuoted, !(simpleKeyContext && analysis.multiline) {
            writeSingleQuoted(text, split: split)
        } else {
            writeDoubleQuoted(text, split: split)
        }
    }

    private mutating func write(_ s: String) { output += s }

    private mutating func writeIndicator(_ indicator: String, needWhitespace: Bool, whitespace: Bool = false, indention: Bool = false) {
        let data = self.whitespace || !needWhitespace ? indicator : " " + indicator
        self.whitespace = whitespace
        self.indention = self.indention && indention
        column += data.unicodeScalars.count
        openEnded = false
        write(data)
    }

    private mutating func writeIndent() {
        let target = indent ?? 0
        if !indention || column > target || (column == target && !whitespace) { writeLineBreak() }
        if column < target {
            whitespace = true
            write(String(repeating: " ", count: target - column))
            column = target
        }
    }

    private mutating func writeLineBreak(_ data: String = "\n") {
        whitespace = true
        indention = true
        column = 0
        write(data)
    }

    private mutating func writePlain(_ text: String, split: Bool) {
        if rootContext { openEnded = true }
        guard !text.isEmpty else { return }
        if !whitespace {
            column += 1
            write(" ")
        }
        whitespace = false
        indention = false
        let s = Array(text.unicodeScalars)
        var spaces = false, start = 0, end = 0
        while end <= s.count {
            let ch: Unicode.Scalar? = end < s.count ? s[end] : nil
            if spaces {
                if ch != " " {
                    if start + 1 == end, column > bestWidth, split {
                        writeIndent()
                        whitespace = false
                        indention = false
                    } else {
                        write(String(String.UnicodeScalarView(s[start..<end])))
                        column += end - start
                    }
                    start = end
                }
            } else if ch == " " || ScalarAnalysis.isBreakOrEnd(ch) {
                write(String(String.UnicodeScalarView(s[start..<end])))
                column += end - start
                start = end
            }
            if let ch { spaces = ch == " " }
            end += 1
        }
    }

    private mutating func writeBreaks(_ s: [Unicode.Scalar], _ start: Int, _ end: Int) {
        if s[start] == "\n" { writeLineBreak() }
        for br in s[start..<end] { writeLineBreak(br == "\n" ? "\n" : String(br)) }
        writeIndent()
    }

    private mutating func writeSingleQuoted(_ text: String, split: Bool) {
        writeIndicator("'", needWhitespace: true)
        let s = Array(text.unicodeScalars)
        var spaces = false, breaks = false, start = 0, end = 0
        while end <= s.count {
            let ch: Unicode.Scalar? = end < s.count ? s[end] : nil
            if spaces {
                if ch == nil || ch != " " {
                    if start + 1 == end, column > bestWidth, split, start != 0, end != s.count {
                        writeIndent()
                    } else {
                        write(String(String.UnicodeScalarView(s[start..<end])))
                        column += end - start
                    }
                    start = end
                }
            } else if breaks {
                if ch == nil || !ScalarAnalysis.isBreakOrEnd(ch) {
                    writeBreaks(s, start, end)
                    start = end
                }
            } else if ch == " " || ch == "'" || ScalarAnalysis.isBreakOrEnd(ch) {
                if start < end {
                    write(String(String.UnicodeScalarView(s[start..<end])))
                    column += end - start
                    start = end
                }
            }
            if ch == "'" {
                write("''")
                column += 2
                start = end + 1
            }
            if let ch {
                spaces = ch == " "
                breaks = ScalarAnalysis.isBreak(ch)
            }
            end += 1
        }
        writeIndicator("'", needWhitespace: false)
    }

    static let escapes: [Unicode.Scalar: String] = [
        "\0": "0", "\u{07}": "a", "\u{08}": "b", "\t": "t", "\n": "n", "\u{0B}": "v", "\u{0C}": "f", "\r": "r", "\u{1B}": "e",
        "\"": "\"", "\\": "\\", "\u{85}": "N", "\u{A0}": "_", "\u{2028}": "L", "\u{2029}": "P",
    ]

    private mutating func writeDoubleQuoted(_ text: String, split: Bool) {
        writeIndicator("\"", needWhitespace: true)
        let s = Array(text.unicodeScalars)
        var start = 0, end = 0
        while end <= s.count {
            let ch: Unicode.Scalar? = end < s.count ? s[end] : nil
            let escaped: Bool = {
                guard let ch else { return true }
                if "\"\\\u{85}\u{2028}\u{2029}\u{FEFF}".unicodeScalars.contains(ch) { return true }
                let v = ch.value
                return !((0x20...0x7E).contains(v) || (0xA0...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v))
            }()
            if escaped {
                if start < end {
                    write(String(String.UnicodeScalarView(s[start..<end])))
                    column += end - start
                    start = end
                }
                if let ch {
                    let data: String
                    if let e = Self.escapes[ch] { data = "\\" + e } else if ch.value <= 0xFF {
                        data = "\\x" + JinjaValue.hex(ch.value, width: 2).uppercased()
                    } else if ch.value <= 0xFFFF {
                        data = "\\u" + JinjaValue.hex(ch.value, width: 4).uppercased()
                    } else {
                        data = "\\U" + JinjaValue.hex(ch.value, width: 8).uppercased()
                    }
                    column += data.count
                    write(data)
                    start = end + 1
                }
            }
            if end > 0, end < s.count - 1, ch == " " || start >= end, column + (end - start) > bestWidth, split {
                var data = (start < end ? String(String.UnicodeScalarView(s[start..<end])) : "") + "\\"  // Python's text[start:end]
                if start < end { start = end }
                column += data.unicodeScalars.count
                write(data)
                writeIndent()
                whitespace = false
                indention = false
                if s[start] == " " {
                    data = "\\"
                    column += 1
                    write(data)
                }
            }
            end += 1
        }
        writeIndicator("\"", needWhitespace: false)
    }

    // MARK: What a plain scalar would read back as

    /// Whether PyYAML's implicit resolvers would read `s`, written plain, as something other than a string (a
    /// boolean, number, null, timestamp, merge key or `=`): then it is quoted.
    static func resolvesToOtherThanString(_ s: String) -> Bool {
        if s.isEmpty || ["~", "null", "Null", "NULL", "<<", "="].contains(s) { return true }
        let bools = ["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF"]
        if bools.contains(s) { return true }
        return s.wholeMatch(of: floatPattern) != nil || s.wholeMatch(of: intPattern) != nil || s.wholeMatch(of: timestampPattern) != nil
    }

    // Regex is not Sendable; these three are literals, built once and only ever read (matching does not mutate them).
    nonisolated(unsafe) static let floatPattern = /[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)/
    nonisolated(unsafe) static let intPattern = /[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+/
    nonisolated(unsafe) static let timestampPattern = /[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?/

    /// PyYAML's float text: `.nan`, `.inf`, `-.inf`, else Python's repr in lower case with `.0` before a bare exponent.
    static func floatText(_ d: Double) -> String {
        if d.isNaN { return ".nan" }
        if d.isInfinite { return d < 0 ? "-.inf" : ".inf" }
        let text = JinjaValue.floatRepr(d).lowercased()
        if !text.contains("."), let e = text.firstIndex(of: "e") { return text[..<e] + ".0" + text[e...] }
        return text
    }
}

extension JinjaRenderer {
    /// `to_yaml` (`default_flow_style` None, indent 2) and `to_nice_yaml` (block style, indent 4 by default).
    func yamlFilter(_ name: String, _ v: JinjaValue, _ args: JinjaArguments) throws -> JinjaValue {
        let nice = name == "to_nice_yaml"
        let indent = try intArg(args, nice ? 0 : -1, "indent", nice ? 4 : 2)
        var flow: Bool? = nice ? false : nil
        if !nice, let given = args.value(-1, "default_flow_style") { flow = given.isNone ? nil : try truthy(given) }
        var emitter = JinjaYAMLEmitter(indent: indent, defaultFlowStyle: flow, render: self)
        let text = try emitter.dump(v)
        guard text.utf8.count <= limits.maxOutputBytes else { throw error(.limit, "\(name): the result is over the output limit") }
        return .string(text)
    }
}
