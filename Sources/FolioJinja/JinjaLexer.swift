/// The kinds of token the parser sees.
enum JinjaTokenKind: Equatable {
    case data, blockBegin, blockEnd, variableBegin, variableEnd
    case name, string, integer, float, op, eof
}

/// One token, with the line it starts on.
struct JinjaToken {
    var kind: JinjaTokenKind
    var text: String
    var line: Int
    var intValue = 0
    var floatValue = 0.0
    var bigValue: JinjaBigInt?
    /// The 1-based column (Unicode scalars) the token starts at.
    var column = 0
}

/// Splits a template into tokens the way Jinja2's lexer does: the earliest tag wins (the longest delimiter at a
/// tie), `-` strips whitespace, `+` keeps it, `trim_blocks` and `lstrip_blocks` apply to block and comment tags.
struct JinjaLexer {
    enum Tag: Equatable { case comment, block, variable, lineStatement, lineComment }

    let options: JinjaOptions
    let name: String
    var src: [Unicode.Scalar] = []
    /// The same text as UTF-8, and where each scalar of `src` starts in it (one more entry for the end), so that
    /// token text is copied as bytes rather than appended scalar by scalar.
    var utf8: [UInt8] = []
    var offsets: [Int] = []
    /// Whether a scalar may begin a root tag (the first scalar of a delimiter); others are skipped at once.
    var tagStarts: Set<Unicode.Scalar> = []
    var pos = 0
    var line = 1
    /// Where the current line starts in `src`, for columns.
    var lineStart = 0
    var tokens: [JinjaToken] = []
    var lineStarting = true
    let rules: [(Tag, [Unicode.Scalar])]
    let blockStart, blockEnd, variableEnd, commentEnd: [Unicode.Scalar]

    init(options: JinjaOptions, name: String) {
        self.options = options
        self.name = name
        func s(_ t: String) -> [Unicode.Scalar] { Array(t.unicodeScalars) }
        var rules: [(Int, String, Tag, [Unicode.Scalar])] = [
            (options.commentStart.unicodeScalars.count, "comment_begin", .comment, s(options.commentStart)),
            (options.blockStart.unicodeScalars.count, "block_begin", .block, s(options.blockStart)),
            (options.variableStart.unicodeScalars.count, "variable_begin", .variable, s(options.variableStart)),
        ]
        if let p = options.lineStatementPrefix { rules.append((p.unicodeScalars.count, "linestatement_begin", .lineStatement, s(p))) }
        if let p = options.lineCommentPrefix { rules.append((p.unicodeScalars.count, "linecomment_begin", .lineComment, s(p))) }
        rules.sort { ($0.0, $0.1) > ($1.0, $1.1) }
        self.rules = rules.map { ($0.2, $0.3) }
        blockStart = s(options.blockStart)
        blockEnd = s(options.blockEnd)
        variableEnd = s(options.variableEnd)
        commentEnd = s(options.commentEnd)
        // Line statements and line comments may begin after spaces: every scalar is a candidate then.
        if options.lineStatementPrefix == nil, options.lineCommentPrefix == nil {
            tagStarts = Set(self.rules.compactMap { $0.1.first })
        }
    }

    /// Whether the root scan must try the tags at `p` (false only when no delimiter can start there).
    func mayStartTag(_ p: Int) -> Bool { tagStarts.isEmpty || tagStarts.contains(src[p]) }

    func fail(_ message: String) -> JinjaError {
        JinjaError(.syntax, message, template: name, line: line, column: pos - lineStart + 1)
    }

    /// Normalizes newlines to `\n` and drops one trailing newline unless `keep_trailing_newline`.
    static func normalize(_ source: String, keepTrailingNewline: Bool) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(source.unicodeScalars.count)
        var previousCR = false
        for s in source.unicodeScalars {
            if s == "\r" { out.append("\n"); previousCR = true; continue }
            if s == "\n" && previousCR { previousCR = false; continue }
            previousCR = false
            out.append(s)
        }
        if !keepTrailingNewline, out.last == "\n" { out.removeLast() }
        return out
    }

    /// The normalized scalars, their UTF-8 bytes and where each scalar starts; ASCII without `\r` (nothing to
    /// normalize but the trailing newline) is taken from its bytes directly.
    static func prepare(_ source: String, keepTrailingNewline: Bool) -> (scalars: [Unicode.Scalar], bytes: [UInt8], offsets: [Int]) {
        var bytes = Array(source.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else {
            let scalars = normalize(source, keepTrailingNewline: keepTrailingNewline)
            let (encoded, offsets) = encode(scalars)
            return (scalars, encoded, offsets)
        }
        if !keepTrailingNewline, bytes.last == 0x0A { bytes.removeLast() }
        return (bytes.map { Unicode.Scalar($0) }, bytes, Array(0...bytes.count))
    }

    /// The scalars' UTF-8 bytes and where each scalar starts among them.
    static func encode(_ scalars: [Unicode.Scalar]) -> (bytes: [UInt8], offsets: [Int]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        for s in scalars {
            offsets.append(bytes.count)
            if s.value < 0x80 { bytes.append(UInt8(truncatingIfNeeded: s.value)) } else { UTF8.encode(s) { bytes.append($0) } }
        }
        offsets.append(bytes.count)
        return (bytes, offsets)
    }

    mutating func tokenize(_ source: String) throws -> [JinjaToken] {
        (src, utf8, offsets) = Self.prepare(source, keepTrailingNewline: options.keepTrailingNewline)
        // About one token per eight characters in templates like the benchmark's: fewer regrowths of the array.
        tokens.reserveCapacity(src.count / 8 + 16)
        while pos < src.count {
            try lexRoot()
        }
        tokens.append(JinjaToken(kind: .eof, text: "", line: line))
        return tokens
    }

    // MARK: Scanning helpers

    func starts(_ s: [Unicode.Scalar], at p: Int) -> Bool {
        guard p + s.count <= src.count, !s.isEmpty else { return false }
        for i in 0..<s.count where src[p + i] != s[i] { return false }
        return true
    }

    func skipSpaces(_ p: Int) -> Int {
        var q = p
        while q < src.count, isPythonSpace(src[q]) { q += 1 }
        return q
    }

    func text(_ from: Int, _ to: Int) -> String {
        String(decoding: utf8[offsets[from]..<offsets[to]], as: UTF8.self)
    }

    mutating func emitData(_ scalars: ArraySlice<Unicode.Scalar>) {
        guard !scalars.isEmpty else { return }
        var view = String.UnicodeScalarView()
        let newline = options.newlineSequence
        if newline == "\n" {
            tokens.append(JinjaToken(kind: .data, text: text(scalars.startIndex, scalars.endIndex), line: line))
            advance(scalars.startIndex, scalars.endIndex)
            return
        } else {
            for s in scalars {
                if s == "\n" { view.append(contentsOf: newline.unicodeScalars) } else { view.append(s) }
            }
        }
        tokens.append(JinjaToken(kind: .data, text: String(view), line: line))
        advance(scalars.startIndex, scalars.endIndex)
    }

    /// `raw_begin`: block start, sign, `raw`, and the block end (`-` eats following whitespace; no trim_blocks).
    func matchRawBegin(_ p: Int) -> (end: Int, sign: Unicode.Scalar?)? {
        guard starts(blockStart, at: p) else { return nil }
        var q = p + blockStart.count
        var sign: Unicode.Scalar?
        if q < src.count, src[q] == "-" || src[q] == "+" { sign = src[q]; q += 1 }
        q = skipSpaces(q)
        guard starts(Array("raw".unicodeScalars), at: q) else { return nil }
        q = skipSpaces(q + 3)
        if q < src.count, src[q] == "-", starts(blockEnd, at: q + 1) { return (skipSpaces(q + 1 + blockEnd.count), sign) }
        if starts(blockEnd, at: q) { return (q + blockEnd.count, sign) }
        return nil
    }

    /// The root tag starting at `p`, if any: its kind, where it ends and its whitespace sign.
    func matchTag(_ p: Int) -> (Tag, end: Int, sign: Unicode.Scalar?)? {
        for (tag, delimiter) in rules {
            var q = p
            switch tag {
            case .lineStatement:
                guard p == 0 || src[p - 1] == "\n" else { continue }
                while q < src.count, src[q] == " " || src[q] == "\t" || src[q] == "\u{0B}" { q += 1 }
            case .lineComment:
                guard p == 0 || src[p - 1] == "\n" || !isPythonSpace(src[p - 1]) else { continue }
                while q < src.count, isPythonSpace(src[q]), src[q] != "\n", src[q] != "\r" { q += 1 }
            default: break
            }
            guard starts(delimiter, at: q) else { continue }
            q += delimiter.count
            var sign: Unicode.Scalar?
            if q < src.count, src[q] == "-" || src[q] == "+" { sign = src[q]; q += 1 }
            return (tag, q, sign)
        }
        return nil
    }

    /// Applies `-` and `lstrip_blocks` to the text before a tag.
    func strippedEnd(_ from: Int, _ to: Int, sign: Unicode.Scalar?, lstrip: Bool) -> Int {
        if sign == "-" {
            var e = to
            while e > from, isPythonSpace(src[e - 1]) { e -= 1 }
            return e
        }
        guard sign != "+", options.lstripBlocks, lstrip else { return to }
        var lPos = to
        while lPos > from, src[lPos - 1] != "\n" { lPos -= 1 }
        guard lPos > from || lineStarting else { return to }
        guard lPos < to, (lPos..<to).allSatisfy({ isPythonSpace(src[$0]) }) else { return to }
        return lPos
    }

    // MARK: Root state

    mutating func lexRoot() throws {
        var p = pos
        while p < src.count {
            if !mayStartTag(p) { p += 1; continue }
            if let raw = matchRawBegin(p) {
                let end = strippedEnd(pos, p, sign: raw.sign, lstrip: true)
                emitData(src[pos..<end])
                advance(end, raw.end)
                lineStarting = raw.end > 0 && src[raw.end - 1] == "\n"
                pos = raw.end
                try lexRaw()
                return
            }
            if let (tag, end, sign) = matchTag(p) {
                let textEnd = strippedEnd(pos, p, sign: sign, lstrip: tag != .variable)
                emitData(src[pos..<textEnd])
                advance(textEnd, p)
                lineStarting = false
                let tagLine = line
                let tagColumn = p - lineStart + 1
                advance(p, end)
                pos = end
                switch tag {
                case .comment: try lexComment()
                case .lineComment: lexLineComment()
                case .block:
                    tokens.append(JinjaToken(kind: .blockBegin, text: "", line: tagLine, column: tagColumn))
                    try lexInside(.block)
                case .variable:
                    tokens.append(JinjaToken(kind: .variableBegin, text: "", line: tagLine, column: tagColumn))
                    try lexInside(.variable)
                case .lineStatement:
                    tokens.append(JinjaToken(kind: .blockBegin, text: "", line: tagLine, column: tagColumn))
                    try lexInside(.lineStatement)
                }
                return
            }
            p += 1
        }
        emitData(src[pos..<src.count])
        lineStarting = src.last == "\n"
        pos = src.count
    }

    /// Counts the lines between `from` and `to`, noting where the last one starts.
    mutating func advance(_ from: Int, _ to: Int) {
        guard from < to else { return }
        for i in from..<to where src[i] == "\n" {
            line += 1
            lineStart = i + 1
        }
    }

    func countNewlines(_ from: Int, _ to: Int) -> Int {
        guard from < to else { return 0 }
        var n = 0
        for i in from..<to where src[i] == "\n" { n += 1 }
        return n
    }

    /// The end of a block or comment tag at `p`: `+end`, `-end` and following whitespace, or `end` and one newline
    /// under trim_blocks.
    func matchBlockEnd(_ p: Int, _ end: [Unicode.Scalar]) -> Int? {
        if p < src.count, src[p] == "+", starts(end, at: p + 1) { return p + 1 + end.count }
        if p < src.count, src[p] == "-", starts(end, at: p + 1) { return skipSpaces(p + 1 + end.count) }
        if starts(end, at: p) {
            var q = p + end.count
            if options.trimBlocks, q < src.count, src[q] == "\n" { q += 1 }
            return q
        }
        return nil
    }

    mutating func lexComment() throws {
        var p = pos
        while p < src.count {
            if let end = matchBlockEnd(p, commentEnd) {
                advance(pos, end)
                lineStarting = src[end - 1] == "\n"
                pos = end
                return
            }
            p += 1
        }
        throw fail("Missing end of comment tag")
    }

    mutating func lexLineComment() {
        var p = pos
        while p < src.count, src[p] != "\n" { p += 1 }
        if p > pos { lineStarting = src[p - 1] == "\n" }
        pos = p
    }

    mutating func lexRaw() throws {
        var p = pos
        let endraw = Array("endraw".unicodeScalars)
        while p < src.count {
            if starts(blockStart, at: p) {
                var q = p + blockStart.count
                var sign: Unicode.Scalar?
                if q < src.count, src[q] == "-" || src[q] == "+" { sign = src[q]; q += 1 }
                q = skipSpaces(q)
                if starts(endraw, at: q), let end = matchBlockEnd(skipSpaces(q + endraw.count), blockEnd) {
                    let textEnd = strippedEnd(pos, p, sign: sign, lstrip: true)
                    emitData(src[pos..<textEnd])
                    advance(textEnd, end)
                    lineStarting = src[end - 1] == "\n"
                    pos = end
                    return
                }
            }
            p += 1
        }
        throw fail("Missing end of raw directive")
    }
}
