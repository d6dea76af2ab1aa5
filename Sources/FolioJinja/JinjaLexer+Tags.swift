/// The inside of `{% … %}`, `{{ … }}` and line statements: names, numbers, strings and operators.
extension JinjaLexer {
    mutating func lexInside(_ tag: Tag) throws {
        var balance: [Unicode.Scalar] = []
        while true {
            if balance.isEmpty, let end = matchEnd(tag) {
                let endColumn = pos - lineStart + 1
                let endLine = line
                advance(pos, end)
                lineStarting = end > 0 && src[end - 1] == "\n"
                tokens.append(JinjaToken(kind: tag == .variable ? .variableEnd : .blockEnd, text: "", line: endLine, column: endColumn))
                pos = end
                return
            }
            guard pos < src.count else {
                if tag == .lineStatement {
                    tokens.append(JinjaToken(kind: .blockEnd, text: "", line: line))
                    return
                }
                throw fail("unexpected end of template, expected end of \(tag == .variable ? "print statement" : "block")")
            }
            let c = src[pos]
            if isPythonSpace(c) {
                let e = skipSpaces(pos)
                advance(pos, e)
                pos = e
                continue
            }
            if case (var token, let end)? = try lexNumber() {
                token.column = pos - lineStart + 1
                tokens.append(token)
                pos = end
                continue
            }
            if Self.isNameStart(c) {
                var e = pos + 1
                while e < src.count, Self.isNameContinue(src[e]) { e += 1 }
                tokens.append(JinjaToken(kind: .name, text: text(pos, e), line: line, column: pos - lineStart + 1))
                pos = e
                continue
            }
            if c == "'" || c == "\"" {
                try lexString(quote: c)
                continue
            }
            try lexOperator(&balance)
        }
    }

    /// `_` or XID_Start, ASCII answered without the Unicode tables.
    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        case 0..<0x80: return false
        default: return c.properties.isXIDStart
        }
    }

    /// `_` or XID_Continue, ASCII answered without the Unicode tables.
    static func isNameContinue(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        case 0..<0x80: return false
        default: return c.properties.isXIDContinue
        }
    }

    func matchEnd(_ tag: Tag) -> Int? {
        switch tag {
        case .block: return matchBlockEnd(pos, blockEnd)
        case .variable:
            if pos < src.count, src[pos] == "-", starts(variableEnd, at: pos + 1) { return skipSpaces(pos + 1 + variableEnd.count) }
            return starts(variableEnd, at: pos) ? pos + variableEnd.count : nil
        case .lineStatement:
            let e = skipSpaces(pos)
            if e == src.count { return e }
            var lastNewline: Int?
            for i in pos..<e where src[i] == "\n" { lastNewline = i }
            return lastNewline.map { $0 + 1 }
        default: return nil
        }
    }

    mutating func lexOperator(_ balance: inout [Unicode.Scalar]) throws {
        let c = src[pos]
        let next: Unicode.Scalar = pos + 1 < src.count ? src[pos + 1] : "\u{0}"
        var op: String
        switch (c, next) {
        case ("/", "/"): op = "//"
        case ("*", "*"): op = "**"
        case ("=", "="): op = "=="
        case ("!", "="): op = "!="
        case (">", "="): op = ">="
        case ("<", "="): op = "<="
        default:
            guard "+-/*%~[](){}><=.:|,;".unicodeScalars.contains(c) else {
                throw fail("unexpected char \(JinjaValue.stringRepr(String(Character(c)))) at \(pos)")
            }
            op = String(c)
        }
        switch c {
        case "(": balance.append(")")
        case "[": balance.append("]")
        case "{": balance.append("}")
        case ")", "]", "}":
            guard let expected = balance.popLast() else { throw fail("unexpected '\(op)'") }
            guard expected == c else { throw fail("unexpected '\(op)', expected '\(expected)'") }
        default: break
        }
        tokens.append(JinjaToken(kind: .op, text: op, line: line, column: pos - lineStart + 1))
        pos += op.unicodeScalars.count
    }

    func isDigit(_ p: Int) -> Bool { p < src.count && src[p].value >= 0x30 && src[p].value <= 0x39 }

    /// `(\d+_)*\d+`: digits possibly separated by single underscores; the end, or nil.
    func digitRun(_ p: Int) -> Int? {
        guard isDigit(p) else { return nil }
        var q = p
        while true {
            while isDigit(q) { q += 1 }
            if q < src.count, src[q] == "_", isDigit(q + 1) { q += 1; continue }
            return q
        }
    }

    /// A float or integer literal at `pos`, as Jinja2's `float_re` and `integer_re` read them.
    func lexNumber() throws -> (JinjaToken, Int)? {
        guard isDigit(pos) else { return nil }
        if let f = floatEnd(), pos == 0 || src[pos - 1] != "." {
            let literal = text(pos, f).filter { $0 != "_" }
            guard let d = Double(literal) else { throw fail("invalid float literal \(literal)") }
            return (JinjaToken(kind: .float, text: literal, line: line, floatValue: d), f)
        }
        return try lexInteger()
    }

    func floatEnd() -> Int? {
        guard let intEnd = digitRun(pos) else { return nil }
        var q = intEnd
        var fraction = false
        if q < src.count, src[q] == ".", let f = digitRun(q + 1) { q = f; fraction = true }
        if q < src.count, src[q] == "e" || src[q] == "E" {
            var r = q + 1
            if r < src.count, src[r] == "+" || src[r] == "-" { r += 1 }
            if let e = digitRun(r) { return e }
        }
        return fraction ? q : nil
    }

    func lexInteger() throws -> (JinjaToken, Int)? {
        var radix = 10
        var q = pos
        var digits = ""
        if src[pos] == "0", pos + 1 < src.count, let r = ["b": 2, "B": 2, "o": 8, "O": 8, "x": 16, "X": 16][Character(src[pos + 1])] {
            radix = r
            q = pos + 2
            while q < src.count {
                if src[q] == "_", q + 1 < src.count, Int(String(src[q + 1]), radix: radix) != nil { q += 1; continue }
                guard Int(String(src[q]), radix: radix) != nil else { break }
                digits.unicodeScalars.append(src[q])
                q += 1
            }
            if digits.isEmpty { radix = 10; q = pos; digits = "" } else {
                return (try integerToken(digits, radix: radix), q)
            }
        }
        if src[pos] == "0" {
            q = pos + 1
            while q + 1 < src.count, src[q] == "_", src[q + 1] == "0" { q += 2 }
            while q < src.count, src[q] == "0" { q += 1 }
            return (JinjaToken(kind: .integer, text: "0", line: line, intValue: 0), q)
        }
        guard let e = digitRun(pos) else { return nil }
        return (try integerToken(text(pos, e).filter { $0 != "_" }, radix: 10), e)
    }

    func integerToken(_ digits: String, radix: Int) throws -> JinjaToken {
        if let v = Int(digits, radix: radix) { return JinjaToken(kind: .integer, text: digits, line: line, intValue: v) }
        guard let big = JinjaBigInt(digits, radix: radix), !big.tooLarge else { throw fail("integer literal \(digits) is too large") }
        return JinjaToken(kind: .integer, text: digits, line: line, bigValue: big)
    }

    mutating func lexString(quote: Unicode.Scalar) throws {
        var q = pos + 1
        var out = String.UnicodeScalarView()
        while q < src.count, src[q] != quote {
            if src[q] == "\\" {
                guard q + 1 < src.count else { break }
                q = try unescape(at: q, into: &out)
                continue
            }
            if src[q] == "\n" { out.append(contentsOf: options.newlineSequence.unicodeScalars) } else { out.append(src[q]) }
            q += 1
        }
        guard q < src.count else { throw fail("unexpected char \(JinjaValue.stringRepr(String(Character(quote)))) at \(pos)") }
        tokens.append(JinjaToken(kind: .string, text: String(out), line: line, column: pos - lineStart + 1))
        advance(pos, q)
        pos = q + 1
    }

    /// Python's `unicode-escape` for the escape at `q`; returns the position after it.
    func unescape(at q: Int, into out: inout String.UnicodeScalarView) throws -> Int {
        let e = src[q + 1]
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", "\"": "\"", "a": "\u{07}", "b": "\u{08}",
            "f": "\u{0C}", "v": "\u{0B}", "\n": "\n",
        ]
        if e == "\n" { return q + 2 }
        if let s = simple[e] { out.append(s); return q + 2 }
        let width: Int? = e == "x" ? 2 : e == "u" ? 4 : e == "U" ? 8 : nil
        if let width {
            guard q + 2 + width <= src.count, let v = UInt32(text(q + 2, q + 2 + width), radix: 16), let s = Unicode.Scalar(v) else {
                throw fail("truncated \\\(e) escape")
            }
            out.append(s)
            return q + 2 + width
        }
        if e.value >= 0x30 && e.value <= 0x37 {
            var r = q + 1
            var v: UInt32 = 0
            while r < src.count, r < q + 4, src[r].value >= 0x30 && src[r].value <= 0x37 { v = v * 8 + src[r].value - 0x30; r += 1 }
            out.append(Unicode.Scalar(v) ?? "\u{FFFD}")
            return r
        }
        out.append("\\")
        out.append(e)
        return q + 2
    }
}
