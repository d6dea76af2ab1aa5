/// A variable or section name: `.` (implicit iterator) or dot-separated keys.
struct MustacheName: Sendable {
    /// The name as written (trimmed).
    let raw: String
    /// Dot-separated parts; empty for the implicit iterator `.`.
    let parts: [String]

    init(_ raw: String) {
        self.raw = raw
        if raw == "." {
            parts = []
        } else if !raw.utf8.contains(UInt8(ascii: ".")) {
            parts = [raw]
        } else {
            parts = raw.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
    }
}

/// A partial or parent reference, static (`{{>x}}`) or dynamic (`{{>*x}}`, resolved from the context).
struct TemplateReference: Sendable {
    let name: MustacheName
    let isDynamic: Bool
}

/// The compiled form of a template.
indirect enum MustacheNode: Sendable {
    case text([UInt8])
    case variable(MustacheName, escaped: Bool, SourceLocation)
    case section(MustacheName, inverted: Bool, children: [MustacheNode], SourceLocation)
    /// `indent` is non-nil only for standalone partials: it prefixes each line of the partial.
    case partial(TemplateReference, indent: [UInt8]?, SourceLocation)
    /// A parent (`{{<x}}`) with its block overrides.
    case parent(TemplateReference, indent: [UInt8]?, overrides: [String: [MustacheNode]], SourceLocation)
    /// A block (`{{$x}}`): default content plus how an override is re-indented here.
    case block(String, children: [MustacheNode], indent: [UInt8], indentFirstLine: Bool, SourceLocation)
}

/// Parses template source (UTF-8 bytes) into `MustacheNode`s in one pass.
struct MustacheParser {
    static let maxNesting = 100

    private enum FrameKind { case root, section, inverted, parent, block }

    private struct Frame {
        var kind: FrameKind
        var rawName: String
        var location: SourceLocation
        var children: [MustacheNode] = []
        var reference: TemplateReference? = nil
        /// Parent: whitespace before the opening tag, when only whitespace precedes it on its line.
        var leadingWhitespace: [UInt8]? = nil
        /// Block: the opening tag was standalone (or, inside a parent, ended its line).
        var openEndsLine = false
        var inParentBody = false
    }

    private let bytes: [UInt8]
    private let file: String
    private var openDelimiter: [UInt8] = Array("{{".utf8)
    private var closeDelimiter: [UInt8] = Array("}}".utf8)
    private var frames: [Frame]
    // Incremental line/column tracking (tags are located in increasing order).
    private var scannedUpTo = 0
    private var currentLine = 1
    private var currentLineStart = 0

    init(source: String, name: String) {
        bytes = Array(source.utf8)
        file = name
        frames = [Frame(kind: .root, rawName: "", location: SourceLocation(file: name, line: 1, column: 1))]
    }

    private static let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D

    private static func isBlank(_ b: UInt8) -> Bool { b == Self.space || b == Self.tab }

    private mutating func location(at offset: Int) -> SourceLocation {
        let target = min(max(offset, 0), bytes.count)
        if target < scannedUpTo {  // not expected, but stay correct
            scannedUpTo = 0
            currentLine = 1
            currentLineStart = 0
        }
        var index = scannedUpTo
        while index < target {
            if bytes[index] == Self.newline {
                currentLine += 1
                currentLineStart = index + 1
            }
            index += 1
        }
        scannedUpTo = target
        var column = 1
        var i = currentLineStart
        while i < target {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourceLocation(file: file, line: currentLine, column: column)
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start >= 0 else { return nil }
        let last = bytes.count - needle.count
        var i = start
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    private func string(_ range: Range<Int>) -> String {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.lowerBound <= range.upperBound else { return "" }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    private static func trimmed(_ s: String) -> String {
        var scalars = Substring(s).unicodeScalars
        while let f = scalars.first, f == " " || f == "\t" || f == "\n" || f == "\r" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" || l == "\n" || l == "\r" { scalars.removeLast() }
        return String(scalars)
    }

    private mutating func append(_ node: MustacheNode) {
        let top = frames.count - 1
        guard top >= 0 else { return }
        frames[top].children.append(node)
    }

    private mutating func appendText(_ range: Range<Int>) {
        guard range.lowerBound < range.upperBound, range.lowerBound >= 0, range.upperBound <= bytes.count else { return }
        let top = frames.count - 1
        guard top >= 0 else { return }
        if case .text(let previous)? = frames[top].children.last {
            frames[top].children[frames[top].children.count - 1] = .text(previous + bytes[range])
        } else {
            frames[top].children.append(.text(Array(bytes[range])))
        }
    }

    /// Parses `{{>name}}` / `{{>*name}}` content into a reference; the raw form (`*name`) matches close tags.
    private static func reference(from content: String) -> (TemplateReference, String) {
        let name = trimmed(content)
        if name.hasPrefix("*") {
            let inner = trimmed(String(name.dropFirst()))
            return (TemplateReference(name: MustacheName(inner), isDynamic: true), "*" + inner)
        }
        return (TemplateReference(name: MustacheName(name), isDynamic: false), name)
    }

    mutating func parse() throws -> [MustacheNode] {
        var pos = 0
        var textStart = 0
        var previousTagEnd = 0
        let n = bytes.count

        while let tagStart = find(openDelimiter, from: pos) {
            let loc = location(at: tagStart)
            let afterOpen = tagStart + openDelimiter.count
            let sigil: UInt8? = afterOpen < n ? bytes[afterOpen] : nil
            var contentStart = afterOpen
            var contentEnd: Int
            var tagEnd: Int

            // Locate the end of the tag.
            if sigil == UInt8(ascii: "{") {
                contentStart = afterOpen + 1
                guard let end = find([UInt8(ascii: "}")] + closeDelimiter, from: contentStart) else {
                    throw loc.error("unclosed tag: missing '}\(String(decoding: closeDelimiter, as: UTF8.self))'")
                }
                contentEnd = end
                tagEnd = end + 1 + closeDelimiter.count
            } else {
                if let s = sigil, "#^/!><$&=".utf8.contains(s) { contentStart = afterOpen + 1 }
                guard let end = find(closeDelimiter, from: contentStart) else {
                    throw loc.error("unclosed tag: missing '\(String(decoding: closeDelimiter, as: UTF8.self))'")
                }
                contentEnd = end
                tagEnd = end + closeDelimiter.count
            }
            let content = string(contentStart..<contentEnd)

            // Standalone analysis.
            var lineStart = tagStart
            while lineStart > previousTagEnd && Self.isBlank(bytes[lineStart - 1]) { lineStart -= 1 }
            let leftClear = lineStart == 0 || (lineStart - 1 >= previousTagEnd && bytes[lineStart - 1] == Self.newline)
            var lineEnd = tagEnd
            while lineEnd < n && Self.isBlank(bytes[lineEnd]) { lineEnd += 1 }
            var rightClear = false
            if lineEnd == n {
                rightClear = true
            } else if bytes[lineEnd] == Self.newline {
                rightClear = true
                lineEnd += 1
            } else if bytes[lineEnd] == Self.carriageReturn, lineEnd + 1 < n, bytes[lineEnd + 1] == Self.newline {
                rightClear = true
                lineEnd += 2
            }
            let indentation = leftClear ? Array(bytes[lineStart..<tagStart]) : []
            let topKind = frames.last?.kind ?? .root
            let inParentBody = topKind == .parent

            /// Finishes a tag that may stand alone on its line.
            func finish(standalone: Bool, _ textStart: inout Int, _ pos: inout Int, parser: inout MustacheParser) {
                if standalone {
                    parser.appendText(textStart..<lineStart)
                    textStart = lineEnd
                    pos = lineEnd
                } else {
                    parser.appendText(textStart..<tagStart)
                    textStart = tagEnd
                    pos = tagEnd
                }
            }

            switch sigil {
            case UInt8(ascii: "!"):
                finish(standalone: leftClear && rightClear, &textStart, &pos, parser: &self)

            case UInt8(ascii: "="):
                guard content.hasSuffix("="), content.count >= 1 else {
                    throw loc.error("unbalanced set-delimiter tag: expected a closing '='")
                }
                let inner = Self.trimmed(String(content.dropLast()))
                let parts = inner.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                guard parts.count == 2, let newOpen = parts.first, let newClose = parts.last,
                    !newOpen.contains("="), !newClose.contains("=")
                else {
                    throw loc.error("bad set-delimiter tag '\(content.dropLast())': expected two delimiters separated by whitespace")
                }
                finish(standalone: leftClear && rightClear, &textStart, &pos, parser: &self)
                openDelimiter = Array(newOpen.utf8)
                closeDelimiter = Array(newClose.utf8)

            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                let name = Self.trimmed(content)
                guard !name.isEmpty else { throw loc.error("empty section name") }
                try checkNesting(loc)
                finish(standalone: leftClear && rightClear, &textStart, &pos, parser: &self)
                frames.append(Frame(kind: sigil == UInt8(ascii: "#") ? .section : .inverted, rawName: name, location: loc))

            case UInt8(ascii: ">"):
                let (ref, raw) = Self.reference(from: content)
                guard !raw.isEmpty, raw != "*" else { throw loc.error("empty partial name") }
                let standalone = leftClear && rightClear
                finish(standalone: standalone, &textStart, &pos, parser: &self)
                append(.partial(ref, indent: standalone ? indentation : nil, loc))

            case UInt8(ascii: "<"):
                let (ref, raw) = Self.reference(from: content)
                guard !raw.isEmpty, raw != "*" else { throw loc.error("empty parent name") }
                try checkNesting(loc)
                // Whether the pair is standalone is known only at the close tag: hold the indentation back.
                appendText(textStart..<(leftClear ? lineStart : tagStart))
                textStart = tagEnd
                pos = tagEnd
                var frame = Frame(kind: .parent, rawName: raw, location: loc)
                frame.reference = ref
                frame.leadingWhitespace = leftClear ? indentation : nil
                frames.append(frame)

            case UInt8(ascii: "$"):
                let name = Self.trimmed(content)
                guard !name.isEmpty else { throw loc.error("empty block name") }
                try checkNesting(loc)
                var frame = Frame(kind: .block, rawName: name, location: loc)
                frame.inParentBody = inParentBody
                if inParentBody {
                    // An argument passed to a parent: left side is irrelevant, a line end after it is part of the tag.
                    appendText(textStart..<tagStart)
                    textStart = rightClear ? lineEnd : tagEnd
                    pos = textStart
                    frame.openEndsLine = rightClear
                } else {
                    let standalone = leftClear && rightClear
                    finish(standalone: standalone, &textStart, &pos, parser: &self)
                    frame.openEndsLine = standalone
                    frame.leadingWhitespace = leftClear ? indentation : nil
                }
                frames.append(frame)

            case UInt8(ascii: "/"):
                let closing = Self.closeName(content)
                guard frames.count > 1, let open = frames.last else {
                    throw loc.error("close tag '\(closing)' has no open section")
                }
                guard open.rawName == closing else {
                    throw loc.error(
                        "mismatched close tag '\(closing)': the open section is '\(open.rawName)' (line \(open.location.line), column \(open.location.column))")
                }
                switch open.kind {
                case .parent:
                    appendText(textStart..<tagStart)
                    frames.removeLast()
                    let standalone = open.leadingWhitespace != nil && rightClear
                    textStart = standalone ? lineEnd : tagEnd
                    pos = textStart
                    var overrides: [String: [MustacheNode]] = [:]
                    for child in open.children {
                        if case .block(let name, let children, _, _, _) = child { overrides[name] = children }
                    }
                    guard let ref = open.reference else { break }
                    if !standalone, let ws = open.leadingWhitespace, !ws.isEmpty { append(.text(ws)) }
                    append(.parent(ref, indent: standalone ? (open.leadingWhitespace ?? []) : nil, overrides: overrides, open.location))
                case .block where open.inParentBody:
                    appendText(textStart..<(leftClear ? lineStart : tagStart))
                    textStart = tagEnd
                    pos = tagEnd
                    guard let done = frames.popLast() else { break }
                    var children = done.children
                    if done.openEndsLine, case .text(let first)? = children.first {
                        let intrinsic = Array(first.prefix(while: { Self.isBlank($0) }))
                        if !intrinsic.isEmpty { children = Self.outdent(children, by: intrinsic) }
                    }
                    append(.block(done.rawName, children: children, indent: [], indentFirstLine: false, done.location))
                case .block:
                    let standalone = leftClear && rightClear
                    finish(standalone: standalone, &textStart, &pos, parser: &self)
                    guard let done = frames.popLast() else { break }
                    var indent: [UInt8] = []
                    var firstLine = false
                    if done.openEndsLine {
                        // Standalone opening tag: the default content's first line sets the indentation.
                        firstLine = true
                        if let first = done.children.first {
                            if case .text(let text) = first { indent = Array(text.prefix(while: { Self.isBlank($0) })) }
                        } else {
                            indent = done.leadingWhitespace ?? []
                        }
                    } else if let ws = done.leadingWhitespace {
                        indent = ws
                    }
                    append(.block(done.rawName, children: done.children, indent: indent, indentFirstLine: firstLine, done.location))
                case .section, .inverted, .root:
                    finish(standalone: leftClear && rightClear, &textStart, &pos, parser: &self)
                    guard let done = frames.popLast() else { break }
                    append(.section(MustacheName(done.rawName), inverted: done.kind == .inverted, children: done.children, done.location))
                }

            default:
                let escaped = !(sigil == UInt8(ascii: "&") || sigil == UInt8(ascii: "{"))
                let name = Self.trimmed(content)
                guard !name.isEmpty else { throw loc.error("empty tag") }
                appendText(textStart..<tagStart)
                textStart = tagEnd
                pos = tagEnd
                append(.variable(MustacheName(name), escaped: escaped, loc))
            }
            previousTagEnd = tagEnd
        }

        if let open = frames.last, frames.count > 1 {
            let what: String
            switch open.kind {
            case .parent: what = "parent"
            case .block: what = "block"
            default: what = "section"
            }
            throw open.location.error("unclosed \(what) '\(open.rawName)'")
        }
        appendText(textStart..<n)
        return frames.first?.children ?? []
    }

    private static func closeName(_ content: String) -> String {
        let name = trimmed(content)
        if name.hasPrefix("*") { return "*" + trimmed(String(name.dropFirst())) }
        return name
    }

    private func checkNesting(_ loc: SourceLocation) throws {
        if frames.count > Self.maxNesting {
            throw loc.error("sections nested more than \(Self.maxNesting) levels deep")
        }
    }

    /// Removes `indent` from the start of every template line in `nodes` (block arguments are outdented
    /// at their definition site) and from the re-indentation of nested blocks.
    static func outdent(_ nodes: [MustacheNode], by indent: [UInt8]) -> [MustacheNode] {
        var atLineStart = true
        return outdent(nodes, by: indent, atLineStart: &atLineStart)
    }

    private static func outdent(_ nodes: [MustacheNode], by indent: [UInt8], atLineStart: inout Bool) -> [MustacheNode] {
        var result: [MustacheNode] = []
        result.reserveCapacity(nodes.count)
        for node in nodes {
            switch node {
            case .text(let text):
                var out: [UInt8] = []
                out.reserveCapacity(text.count)
                var i = 0
                while i < text.count {
                    if atLineStart, text.count - i >= indent.count, text[i..<(i + indent.count)].elementsEqual(indent) {
                        i += indent.count
                    }
                    atLineStart = false
                    guard i < text.count else { break }
                    let b = text[i]
                    out.append(b)
                    if b == 0x0A { atLineStart = true }
                    i += 1
                }
                result.append(.text(out))
            case .section(let name, let inverted, let children, let loc):
                let inner = outdent(children, by: indent, atLineStart: &atLineStart)
                result.append(.section(name, inverted: inverted, children: inner, loc))
            case .block(let name, let children, let blockIndent, let firstLine, let loc):
                let inner = outdent(children, by: indent, atLineStart: &atLineStart)
                var newIndent = blockIndent
                if blockIndent.starts(with: indent) { newIndent = Array(blockIndent.dropFirst(indent.count)) }
                result.append(.block(name, children: inner, indent: newIndent, indentFirstLine: firstLine, loc))
            case .partial(_, let indentation, _), .parent(_, let indentation, _, _):
                atLineStart = indentation != nil
                result.append(node)
            case .variable:
                atLineStart = false
                result.append(node)
            }
        }
        return result
    }
}
