import Foundation

/// A variable or section name: `.` (implicit iterator) or dot-separated keys.
///
/// A class, made once per distinct name of a template (the parser reuses it for every tag spelling it): nodes then
/// hold one reference, and the renderer can remember what a name resolved to by identity.
final class MustacheName: Sendable {
    /// The name as written (trimmed).
    let raw: String
    /// The first dot-separated part; nil for the implicit iterator `.`.
    let first: String?
    /// The parts after the first: empty for a plain name, which then needs no array of its own (a template of
    /// thousands of tags built and freed one array per tag).
    let rest: [String]

    /// Dot-separated parts; empty for the implicit iterator `.`.
    var parts: [String] { first.map { [$0] + rest } ?? [] }

    init(_ raw: String) {
        self.raw = raw
        if raw == "." {
            first = nil
            rest = []
        } else if !(raw.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ".")) } ?? raw.utf8.contains(UInt8(ascii: "."))) {
            first = raw
            rest = []
        } else {
            let all = raw.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            first = all.first
            rest = Array(all.dropFirst())
        }
    }
}

/// A partial or parent reference, static (`{{>x}}`) or dynamic (`{{>*x}}`, resolved from the context).
struct TemplateReference: Sendable {
    let name: MustacheName
    let isDynamic: Bool
}

/// The compiled form of a template.
/// Not `indirect`: children live in arrays already, and boxing every node cost an allocation per tag and per text.
enum MustacheNode: Sendable {
    /// Template text: usually a slice of the parsed source itself (no copy of its own).
    case text(ArraySlice<UInt8>)
    case variable(MustacheName, escaped: Bool, TagPosition)
    case section(MustacheName, inverted: Bool, children: [MustacheNode], TagPosition)
    // The rarer kinds are boxed: they are larger, and every node is as large as the largest kind.
    /// `indent` is non-nil only for standalone partials: it prefixes each line of the partial.
    indirect case partial(TemplateReference, indent: [UInt8]?, TagPosition)
    /// A parent (`{{<x}}`) with its block overrides.
    indirect case parent(TemplateReference, indent: [UInt8]?, overrides: [String: [MustacheNode]], TagPosition)
    /// A block (`{{$x}}`): default content plus how an override is re-indented here.
    indirect case block(String, children: [MustacheNode], indent: [UInt8], indentFirstLine: Bool, TagPosition)
}

/// Parses template source (UTF-8 bytes) into `MustacheNode`s in one pass, in time linear in the source: tags are
/// found left to right, line and column are tracked incrementally, and text is gathered in one buffer that is
/// never copied again (adjacent text becomes one node).
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

    /// One tag as found in the source, with what surrounds it on its line.
    private struct Tag {
        /// Offset of the opening delimiter.
        let start: Int
        /// Offset just past the closing delimiter.
        let end: Int
        /// The byte after the opening delimiter (a sigil such as `#` or `/`, or the first byte of a name).
        let sigil: UInt8?
        /// Where the bytes between the sigil and the closing delimiter are, untrimmed.
        let content: Range<Int>
        let position: TagPosition
        // What surrounds the tag on its line is worked out only for the tags that need it (`isStandalone` and
        // its parts): a variable never does, and a small `Tag` is cheaper to pass around.
    }

    private let bytes: [UInt8]
    private let file: String
    private var openDelimiter: [UInt8] = Array("{{".utf8)
    private var closeDelimiter: [UInt8] = Array("}}".utf8)
    private var frames: [Frame]
    /// The children of the innermost frame, held apart from `frames` so that appending never copies them.
    private var nodes: [MustacheNode] = []
    /// Text read but not yet added to the innermost frame: one range of the source while the pieces are
    /// contiguous (the usual case, kept as a slice of the source), copied out once they are not.
    private var pendingRange: Range<Int>? = nil
    private var pendingCopy: [UInt8]? = nil
    /// Where the next text to keep begins.
    private var textStart = 0
    /// Where the search for the next tag begins.
    private var position = 0
    private var previousTagEnd = 0
    // Incremental line/column tracking (tags are located in increasing order).
    private var scannedUpTo = 0
    private var currentLine = 1
    private var currentColumn = 1
    /// The names met so far with their spelling, reused for later tags spelling the same name (a template names
    /// few things many times).
    private var names: [(spelling: [UInt8], name: MustacheName)] = []

    init(source: String, name: String) {
        self.init(bytes: Array(source.utf8), name: name)
    }

    init(bytes: [UInt8], name: String) {
        self.bytes = bytes
        file = name
        frames = [Frame(kind: .root, rawName: "", location: SourceLocation(file: name, line: 1, column: 1))]
    }

    private static let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D

    private static func isBlank(_ b: UInt8) -> Bool { b == Self.space || b == Self.tab }

    /// One of `#^/!><$&=`: the byte after the opening delimiter that says what kind of tag it is.
    private static func isSigil(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: ">"), UInt8(ascii: "<"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    // MARK: Driving

    mutating func parse() throws -> [MustacheNode] {
        while let tag = try nextTag() {
            try handle(tag)
            previousTagEnd = tag.end
        }
        try checkAllClosed()
        appendText(textStart..<bytes.count)
        flushText()
        return nodes
    }

    private mutating func handle(_ tag: Tag) throws {
        switch tag.sigil {
        case UInt8(ascii: "!"): consume(tag, standalone: isStandalone(tag))
        case UInt8(ascii: "="): try setDelimiters(tag)
        case UInt8(ascii: "#"), UInt8(ascii: "^"): try openSection(tag)
        case UInt8(ascii: ">"): try partial(tag)
        case UInt8(ascii: "<"): try openParent(tag)
        case UInt8(ascii: "$"): try openBlock(tag)
        case UInt8(ascii: "/"): try close(tag)
        default: try variable(tag)
        }
    }

    private func checkAllClosed() throws {
        guard let open = frames.last, frames.count > 1 else { return }
        let what: String
        switch open.kind {
        case .parent: what = "parent"
        case .block: what = "block"
        default: what = "section"
        }
        throw open.location.error("unclosed \(what) '\(open.rawName)'")
    }

    // MARK: Scanning

    /// The next tag from `position`, or nil when there is none.
    private mutating func nextTag() throws -> Tag? {
        guard let start = find(openDelimiter, from: position) else { return nil }
        let position = position(at: start)
        let afterOpen = start + openDelimiter.count
        let sigil: UInt8? = afterOpen < bytes.count ? bytes[afterOpen] : nil
        let extent = try tagExtent(afterOpen: afterOpen, sigil: sigil, position)
        return Tag(start: start, end: extent.end, sigil: sigil, content: extent.content, position: position)
    }

    /// Only blanks (after the previous tag) separate the tag from the start of its line.
    private func isLeftClear(_ tag: Tag) -> Bool { blanksBefore(tag.start).clear }
    /// Where the blanks before the tag begin.
    private func tagLineStart(_ tag: Tag) -> Int { blanksBefore(tag.start).lineStart }
    /// Only blanks separate the tag from the end of its line or of the source.
    private func isRightClear(_ tag: Tag) -> Bool { blanksAfter(tag.end).clear }
    /// Just past the blanks and the line end after the tag.
    private func tagLineEnd(_ tag: Tag) -> Int { blanksAfter(tag.end).lineEnd }
    /// The tag stands alone on its line.
    private func isStandalone(_ tag: Tag) -> Bool { isLeftClear(tag) && isRightClear(tag) }

    /// The content range and end of a tag whose opening delimiter ends at `afterOpen`.
    private func tagExtent(afterOpen: Int, sigil: UInt8?, _ position: TagPosition) throws -> (content: Range<Int>, end: Int) {
        // Spelled out only for an error (building it for every tag cost a string per tag).
        var close: String { String(decoding: closeDelimiter, as: UTF8.self) }
        if sigil == UInt8(ascii: "{") {
            guard let end = find([UInt8(ascii: "}")] + closeDelimiter, from: afterOpen + 1) else {
                throw located(position).error("unclosed tag: missing '}\(close)'")
            }
            return ((afterOpen + 1)..<end, end + 1 + closeDelimiter.count)
        }
        var contentStart = afterOpen
        if let sigil, Self.isSigil(sigil) { contentStart += 1 }
        guard let end = find(closeDelimiter, from: contentStart) else { throw located(position).error("unclosed tag: missing '\(close)'") }
        return (contentStart..<end, end + closeDelimiter.count)
    }

    /// Whether only blanks since the previous tag separate `start` from its line's start, and where they begin.
    private func blanksBefore(_ start: Int) -> (clear: Bool, lineStart: Int) {
        var lineStart = start
        while lineStart > previousTagEnd && Self.isBlank(bytes[lineStart - 1]) { lineStart -= 1 }
        let clear = lineStart == 0 || (lineStart - 1 >= previousTagEnd && bytes[lineStart - 1] == Self.newline)
        return (clear, lineStart)
    }

    /// Whether only blanks follow `end` up to its line's end, and where the next line begins.
    private func blanksAfter(_ end: Int) -> (clear: Bool, lineEnd: Int) {
        let n = bytes.count
        var lineEnd = end
        while lineEnd < n && Self.isBlank(bytes[lineEnd]) { lineEnd += 1 }
        if lineEnd == n { return (true, lineEnd) }
        if bytes[lineEnd] == Self.newline { return (true, lineEnd + 1) }
        if bytes[lineEnd] == Self.carriageReturn, lineEnd + 1 < n, bytes[lineEnd + 1] == Self.newline { return (true, lineEnd + 2) }
        return (false, lineEnd)
    }

    /// The line and column of `offset`, scanning only the bytes since the previous call.
    private mutating func position(at offset: Int) -> TagPosition {
        let target = min(max(offset, 0), bytes.count)
        if target < scannedUpTo {  // not expected, but stay correct
            scannedUpTo = 0
            currentLine = 1
            currentColumn = 1
        }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var index = scannedUpTo
            // Whole lines with `memchr`, then the columns of the last one (every byte but UTF-8 continuations).
            while index < target, let hit = memchr(base + index, Int32(Self.newline), target - index) {
                index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                currentLine += 1
                currentColumn = 1
            }
            var columns = 0
            for byte in buffer[index..<target] where byte & 0xC0 != 0x80 { columns += 1 }
            currentColumn += columns
        }
        scannedUpTo = target
        return TagPosition(line: currentLine, column: currentColumn)
    }

    /// The first offset at or after `start` where `needle` begins (candidates found with `memchr`).
    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start >= 0 else { return nil }
        let last = bytes.count - needle.count
        guard start <= last else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var i = start
            while i <= last {
                guard let hit = memchr(base + i, Int32(first), last - i + 1) else { return nil }
                i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var j = 1
                while j < needle.count && buffer[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
                i += 1
            }
            return nil
        }
    }

    private func string(_ range: Range<Int>) -> String {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.lowerBound <= range.upperBound else { return "" }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// Where `position` is in this template, for errors and frames.
    private func located(_ position: TagPosition) -> SourceLocation {
        SourceLocation(file: file, line: position.line, column: position.column)
    }

    private func located(_ tag: Tag) -> SourceLocation { located(tag.position) }

    /// The name spelled by `range` of the source (already trimmed), reusing one met before.
    private mutating func name(_ range: Range<Int>) -> MustacheName {
        let found = bytes.withUnsafeBufferPointer { source -> MustacheName? in
            guard let base = source.baseAddress else { return nil }
            for index in names.indices.reversed() where names[index].spelling.count == range.count {
                let same = names[index].spelling.withUnsafeBufferPointer { known in
                    known.baseAddress.map { memcmp($0, base + range.lowerBound, range.count) == 0 } ?? true
                }
                if same { return names[index].name }
            }
            return nil
        }
        if let found { return found }
        let spelling = Array(bytes[range])
        let made = MustacheName(String(decoding: spelling, as: UTF8.self))
        if names.count < Self.maxRememberedNames { names.append((spelling, made)) }
        return made
    }

    /// The name `raw`, reusing one met before.
    private mutating func name(_ raw: String) -> MustacheName {
        for known in names.reversed() where known.name.raw == raw { return known.name }
        let made = MustacheName(raw)
        if names.count < Self.maxRememberedNames { names.append((Array(raw.utf8), made)) }
        return made
    }

    /// How many distinct names are remembered for reuse (the search for one is linear).
    private static let maxRememberedNames = 32

    /// `range` without the bytes `trimmed` removes at either end.
    private func trimmedRange(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper && Self.isTrimmable(bytes[lower]) { lower += 1 }
        while upper > lower && Self.isTrimmable(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The tag's content, untrimmed, as a string (for the rarer tags; variables use the bytes directly).
    private func content(_ tag: Tag) -> String { string(tag.content) }

    private static func trimmed(_ s: String) -> String {
        // Most tag contents have nothing to trim: return them without building a new string.
        if let first = s.utf8.first, let last = s.utf8.last, !isTrimmable(first), !isTrimmable(last) { return s }
        var scalars = Substring(s).unicodeScalars
        while let f = scalars.first, f == " " || f == "\t" || f == "\n" || f == "\r" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" || l == "\n" || l == "\r" { scalars.removeLast() }
        return String(scalars)
    }

    /// The bytes `trimmed` removes: space, tab, line feed, carriage return.
    private static func isTrimmable(_ b: UInt8) -> Bool { b == Self.space || b == Self.tab || b == Self.newline || b == Self.carriageReturn }

    // MARK: Building

    private mutating func appendText(_ range: Range<Int>) {
        guard range.lowerBound < range.upperBound, range.lowerBound >= 0, range.upperBound <= bytes.count else { return }
        if pendingCopy != nil {
            pendingCopy?.append(contentsOf: bytes[range])
        } else if let pending = pendingRange {
            if pending.upperBound == range.lowerBound {
                pendingRange = pending.lowerBound..<range.upperBound
            } else {
                var copy = Array(bytes[pending])
                copy.append(contentsOf: bytes[range])
                pendingCopy = copy
                pendingRange = nil
            }
        } else {
            pendingRange = range
        }
    }

    /// Moves the gathered text into the innermost frame as one node.
    private mutating func flushText() {
        if let copy = pendingCopy {
            nodes.append(.text(copy[...]))
        } else if let range = pendingRange {
            nodes.append(.text(bytes[range]))
        }
        pendingCopy = nil
        pendingRange = nil
    }

    private mutating func append(_ node: MustacheNode) {
        flushText()
        nodes.append(node)
    }

    /// Opens `frame` inside the innermost one, whose children are put aside in it until it is innermost again.
    private mutating func push(_ frame: Frame) {
        flushText()
        if !frames.isEmpty { swap(&frames[frames.count - 1].children, &nodes) }
        frames.append(frame)
    }

    /// Closes the innermost frame, returned with its children.
    private mutating func pop() -> Frame? {
        flushText()
        guard var done = frames.popLast() else { return nil }
        done.children = nodes
        nodes = []
        if !frames.isEmpty { swap(&frames[frames.count - 1].children, &nodes) }
        return done
    }

    /// Continues after `offset`: text is kept from there on.
    private mutating func skip(to offset: Int) {
        textStart = offset
        position = offset
    }

    /// Keeps the text before `tag` and skips the tag, with its whole line when it stands alone.
    private mutating func consume(_ tag: Tag, standalone: Bool) {
        if standalone {
            appendText(textStart..<tagLineStart(tag))
            skip(to: tagLineEnd(tag))
        } else {
            appendText(textStart..<tag.start)
            skip(to: tag.end)
        }
    }

    /// The blanks before a tag that starts its line (empty otherwise).
    private func indentation(_ tag: Tag) -> [UInt8] {
        isLeftClear(tag) ? Array(bytes[tagLineStart(tag)..<tag.start]) : []
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

    // MARK: Tags

    private mutating func variable(_ tag: Tag) throws {
        let escaped = !(tag.sigil == UInt8(ascii: "&") || tag.sigil == UInt8(ascii: "{"))
        let name = trimmedRange(tag.content)
        guard !name.isEmpty else { throw located(tag).error("empty tag") }
        appendText(textStart..<tag.start)
        skip(to: tag.end)
        append(.variable(self.name(name), escaped: escaped, tag.position))
    }

    private mutating func setDelimiters(_ tag: Tag) throws {
        let content = content(tag)
        guard content.hasSuffix("="), content.count >= 1 else {
            throw located(tag).error("unbalanced set-delimiter tag: expected a closing '='")
        }
        let inner = Self.trimmed(String(content.dropLast()))
        let parts = inner.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard parts.count == 2, let newOpen = parts.first, let newClose = parts.last, !newOpen.contains("="), !newClose.contains("=") else {
            throw located(tag).error("bad set-delimiter tag '\(content.dropLast())': expected two delimiters separated by whitespace")
        }
        consume(tag, standalone: isStandalone(tag))
        openDelimiter = Array(newOpen.utf8)
        closeDelimiter = Array(newClose.utf8)
    }

    private mutating func openSection(_ tag: Tag) throws {
        let name = string(trimmedRange(tag.content))
        guard !name.isEmpty else { throw located(tag).error("empty section name") }
        try checkNesting(located(tag))
        consume(tag, standalone: isStandalone(tag))
        push(Frame(kind: tag.sigil == UInt8(ascii: "#") ? .section : .inverted, rawName: name, location: located(tag)))
    }

    private mutating func partial(_ tag: Tag) throws {
        let (reference, raw) = Self.reference(from: content(tag))
        guard !raw.isEmpty, raw != "*" else { throw located(tag).error("empty partial name") }
        consume(tag, standalone: isStandalone(tag))
        append(.partial(reference, indent: isStandalone(tag) ? indentation(tag) : nil, tag.position))
    }

    private mutating func openParent(_ tag: Tag) throws {
        let (reference, raw) = Self.reference(from: content(tag))
        guard !raw.isEmpty, raw != "*" else { throw located(tag).error("empty parent name") }
        try checkNesting(located(tag))
        // Whether the pair is standalone is known only at the close tag: hold the indentation back.
        appendText(textStart..<(isLeftClear(tag) ? tagLineStart(tag) : tag.start))
        skip(to: tag.end)
        var frame = Frame(kind: .parent, rawName: raw, location: located(tag))
        frame.reference = reference
        frame.leadingWhitespace = isLeftClear(tag) ? indentation(tag) : nil
        push(frame)
    }

    private mutating func openBlock(_ tag: Tag) throws {
        let name = string(trimmedRange(tag.content))
        guard !name.isEmpty else { throw located(tag).error("empty block name") }
        try checkNesting(located(tag))
        var frame = Frame(kind: .block, rawName: name, location: located(tag))
        frame.inParentBody = frames.last?.kind == .parent
        if frame.inParentBody {
            // An argument passed to a parent: left side is irrelevant, a line end after it is part of the tag.
            appendText(textStart..<tag.start)
            skip(to: isRightClear(tag) ? tagLineEnd(tag) : tag.end)
            frame.openEndsLine = isRightClear(tag)
        } else {
            consume(tag, standalone: isStandalone(tag))
            frame.openEndsLine = isStandalone(tag)
            frame.leadingWhitespace = isLeftClear(tag) ? indentation(tag) : nil
        }
        push(frame)
    }

    private mutating func close(_ tag: Tag) throws {
        let closing = Self.closeName(content(tag))
        guard frames.count > 1, let open = frames.last else {
            throw located(tag).error("close tag '\(closing)' has no open section")
        }
        guard open.rawName == closing else {
            throw located(tag).error(
                "mismatched close tag '\(closing)': the open section is '\(open.rawName)' (line \(open.location.line), column \(open.location.column))")
        }
        switch open.kind {
        case .parent: closeParent(tag)
        case .block where open.inParentBody: closeArgument(tag)
        case .block: closeBlock(tag)
        case .section, .inverted, .root: closeSection(tag)
        }
    }

    private mutating func closeParent(_ tag: Tag) {
        appendText(textStart..<tag.start)
        guard let open = pop() else { return }
        let standalone = open.leadingWhitespace != nil && isRightClear(tag)
        skip(to: standalone ? tagLineEnd(tag) : tag.end)
        var overrides: [String: [MustacheNode]] = [:]
        for child in open.children {
            if case .block(let name, let children, _, _, _) = child { overrides[name] = children }
        }
        guard let reference = open.reference else { return }
        if !standalone, let whitespace = open.leadingWhitespace, !whitespace.isEmpty { append(.text(whitespace[...])) }
        append(.parent(reference, indent: standalone ? (open.leadingWhitespace ?? []) : nil, overrides: overrides, TagPosition(open.location)))
    }

    /// Closes a block passed as an argument to a parent: its lines are outdented by its own first line's indentation.
    private mutating func closeArgument(_ tag: Tag) {
        appendText(textStart..<(isLeftClear(tag) ? tagLineStart(tag) : tag.start))
        skip(to: tag.end)
        guard let done = pop() else { return }
        var children = done.children
        if done.openEndsLine, case .text(let first)? = children.first {
            let intrinsic = Array(first.prefix(while: { Self.isBlank($0) }))
            if !intrinsic.isEmpty { children = Self.outdent(children, by: intrinsic) }
        }
        append(.block(done.rawName, children: children, indent: [], indentFirstLine: false, TagPosition(done.location)))
    }

    private mutating func closeBlock(_ tag: Tag) {
        consume(tag, standalone: isStandalone(tag))
        guard let done = pop() else { return }
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
        } else if let whitespace = done.leadingWhitespace {
            indent = whitespace
        }
        append(.block(done.rawName, children: done.children, indent: indent, indentFirstLine: firstLine, TagPosition(done.location)))
    }

    private mutating func closeSection(_ tag: Tag) {
        consume(tag, standalone: isStandalone(tag))
        guard let done = pop() else { return }
        append(.section(name(done.rawName), inverted: done.kind == .inverted, children: done.children, TagPosition(done.location)))
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
            case .text(let slice):
                let text = Array(slice)
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
                result.append(.text(out[...]))
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
