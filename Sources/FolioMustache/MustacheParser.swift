import FoundationEssentials
import Glibc

/// Parses template source (UTF-8 bytes) into a `MustacheProgram` in one pass, in time linear in the source: tags are
/// found left to right, line and column are tracked incrementally, text nodes are ranges of the source (adjacent
/// text becomes one node), and every node goes into one array.
struct MustacheParser {
    static let maxNesting = 100

    private enum FrameKind { case root, section, inverted, parent, block }

    private struct Frame {
        var kind: FrameKind
        var rawName: String
        /// Section and block: where the source spells `rawName` (lets a close tag spelled alike match without strings).
        var nameRange: Range<Int>? = nil
        var location: SourceLocation
        /// Where the frame's own node is in `ops` (reserved when it opened, written when it closes); -1 for the root.
        var op = -1
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

    private let source: [UInt8]
    /// `source`'s bytes, while `parse()` runs (read through a pointer: no reference counting, no bounds checks).
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private let file: String
    private static let defaultOpen: [UInt8] = Array("{{".utf8), defaultClose: [UInt8] = Array("}}".utf8)
    private var openDelimiter = defaultOpen
    private var closeDelimiter = defaultClose
    /// The delimiters are `{{` and `}}`: `plainVariables()` can read tags.
    private var defaultDelimiters = true
    private var frames: [Frame]
    /// The nodes so far, in source order (see `MustacheOp`).
    private var ops: [MustacheOp] = []
    /// Text that is not a range of the source.
    private var extra: [UInt8] = []
    /// The names the nodes index.
    private var nameTable: [MustacheName] = []
    private var details: [MustacheOpDetails] = []
    /// Text read but not yet added as a node: one range of the source while the pieces are contiguous (the usual
    /// case), copied to the end of `extra` (from `pendingCopyStart` on) once they are not.
    private var pendingRange: Range<Int>? = nil
    private var pendingCopyStart: Int? = nil
    /// Where the next text to keep begins.
    private var textStart = 0
    /// Where the search for the next tag begins.
    private var position = 0
    private var previousTagEnd = 0
    // Incremental line/column tracking (tags are located in increasing order).
    private var scannedUpTo = 0
    private var currentLine = 1
    private var currentColumn = 1
    /// Every byte of the source is ASCII: a column is a byte.
    private var isASCII = false
    /// The names met so far with their spelling and index in `nameTable`, reused for later tags spelling the same
    /// name (a template names few things many times).
    /// A spelling is a range of the source, or of `spelledApart` for names that come as strings (`inSource` false).
    private var names: [(spelling: Range<Int>, inSource: Bool, index: Int)] = []
    private var spelledApart: [UInt8] = []

    init(source: String, name: String) {
        self.init(bytes: Array(source.utf8), name: name)
    }

    init(bytes: [UInt8], name: String) {
        source = bytes
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

    mutating func parse() throws -> MustacheProgram {
        let source = self.source
        return try source.withUnsafeBufferPointer { buffer in
            bytes = buffer
            isASCII = Self.isASCII(buffer)
            // About one node per 8 bytes of a template with a tag or two per line: mostly no regrowth.
            ops.reserveCapacity(min(max(buffer.count / 8, 4), 4096))
            defer { bytes = UnsafeBufferPointer(start: nil, count: 0) }
            return try parseBytes()
        }
    }

    private mutating func parseBytes() throws -> MustacheProgram {
        while true {
            plainVariables()
            guard let tag = try nextTag() else { break }
            try handle(tag)
            previousTagEnd = tag.end
        }
        try checkAllClosed()
        appendText(textStart..<bytes.count)
        flushText()
        return MustacheProgram(ops: ops, source: source, extra: extra, names: nameTable, details: details)
    }

    /// Reads the plain variable tags (`{{name}}` with the default delimiters) from `position` on, as `nextTag()` and
    /// `handle(_:)` would, until a tag of another kind, one they would refuse, or the end of the source: the general
    /// path takes over there (most tags of a template are plain variables, and this path is several times cheaper).
    private mutating func plainVariables() {
        guard defaultDelimiters, let base = bytes.baseAddress else { return }
        let count = bytes.count
        while let start = Self.findPair(UInt8(ascii: "{"), in: base, count: count, from: position) {
            let afterOpen = start + 2
            guard afterOpen < count, base[afterOpen] != UInt8(ascii: "{"), !Self.isSigil(base[afterOpen]),
                  let end = Self.findPair(UInt8(ascii: "}"), in: base, count: count, from: afterOpen) else { return }
            var lower = afterOpen, upper = end
            while lower < upper && Self.isTrimmable(base[lower]) { lower += 1 }
            while upper > lower && Self.isTrimmable(base[upper - 1]) { upper -= 1 }
            guard lower < upper else { return }
            let at = position(at: start)
            if pendingRange == nil && pendingCopyStart == nil {
                if textStart < start { ops.append(.text(textStart..<start, inExtra: false)) }
            } else {
                appendText(textStart..<start)
                flushText()
            }
            skip(to: end + 2)
            ops.append(MustacheOp(kind: .variable, flag: true, first: name(lower..<upper), span: 0, position: at))
            previousTagEnd = end + 2
        }
    }

    /// The first offset at or after `start` where `byte` appears twice in a row (as `find(_:from:)` finds it).
    @inline(__always)
    private static func findPair(_ byte: UInt8, in base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int? {
        var i = start
        while i >= 0 && i <= count - 2 {
            guard let hit = memchr(base + i, Int32(byte), count - 1 - i) else { return nil }
            i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if base[i + 1] == byte { return i }
            i += 1
        }
        return nil
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
        guard let base = bytes.baseAddress else { return TagPosition(line: currentLine, column: currentColumn) }
        var index = scannedUpTo
        // Whole lines with `memchr`, then the columns of the last one (every byte but UTF-8 continuations).
        while index < target, let hit = memchr(base + index, Int32(Self.newline), target - index) {
            index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            currentLine += 1
            currentColumn = 1
        }
        currentColumn += isASCII ? target - index : Self.scalarCount(UnsafeBufferPointer(start: base + index, count: target - index))
        scannedUpTo = target
        return TagPosition(line: currentLine, column: currentColumn)
    }

    /// Whether every byte of `text` is below 0x80 (eight at a time).
    private static func isASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        var any: UInt64 = 0
        var index = 0
        while index + 8 <= text.count {
            any |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        while index < text.count {
            any |= UInt64(base[index])
            index += 1
        }
        return any & 0x8080_8080_8080_8080 == 0
    }

    /// How many bytes of `text` are not UTF-8 continuation bytes (`10xxxxxx`), eight at a time.
    private static func scalarCount(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = text.baseAddress else { return 0 }
        var continuations = 0
        var index = 0
        while index + 8 <= text.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Bit 7 of each byte where bit 7 is set and bit 6 is not (the shift brings bit 6 under bit 7).
            continuations += (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
            index += 8
        }
        while index < text.count {
            if base[index] & 0xC0 == 0x80 { continuations += 1 }
            index += 1
        }
        return text.count - continuations
    }

    /// The first offset at or after `start` where `needle` begins (candidates found with `memchr`).
    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start >= 0, let base = bytes.baseAddress else { return nil }
        let last = bytes.count - needle.count
        guard start <= last else { return nil }
        return needle.withUnsafeBufferPointer { needle -> Int? in
            var i = start
            while i <= last {
                guard let hit = memchr(base + i, Int32(first), last - i + 1) else { return nil }
                i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var j = 1
                while j < needle.count && base[i + j] == needle[j] { j += 1 }
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

    /// The index in `nameTable` of the name spelled by `range` of the source (already trimmed), reusing one met before.
    private mutating func name(_ range: Range<Int>) -> Int {
        if let base = bytes.baseAddress {
            var k = names.count - 1
            while k >= 0 {
                let known = names[k]
                k -= 1
                guard known.spelling.count == range.count else { continue }
                if known.inSource {
                    if Self.same(base + known.spelling.lowerBound, base + range.lowerBound, count: range.count) { return known.index }
                } else if spelledApart[known.spelling].elementsEqual(bytes[range]) {
                    return known.index
                }
            }
        }
        let made = MustacheName(String(decoding: bytes[range], as: UTF8.self))
        if names.isEmpty { names.reserveCapacity(8) }
        if names.count < Self.maxRememberedNames { names.append((range, true, nameTable.count)) }
        nameTable.append(made)
        return nameTable.count - 1
    }

    /// Whether the `count` bytes at `a` and at `b` are the same (a name is usually shorter than 16 bytes: compared as
    /// two words that may overlap, which is cheaper than calling `memcmp`).
    @inline(__always)
    private static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        func word(_ p: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 { UnsafeRawPointer(p + offset).loadUnaligned(as: UInt64.self) }
        func half(_ p: UnsafePointer<UInt8>, _ offset: Int) -> UInt32 { UnsafeRawPointer(p + offset).loadUnaligned(as: UInt32.self) }
        switch count {
        case 8...16: return word(a, 0) == word(b, 0) && word(a, count - 8) == word(b, count - 8)
        case 4..<8: return half(a, 0) == half(b, 0) && half(a, count - 4) == half(b, count - 4)
        case 0..<4:
            for i in 0..<count where a[i] != b[i] { return false }
            return true
        default: return memcmp(a, b, count) == 0
        }
    }

    /// The index in `nameTable` of the name `raw`, reusing one met before.
    private mutating func name(_ raw: String) -> Int {
        for known in names.reversed() where nameTable[known.index].raw == raw { return known.index }
        if names.count < Self.maxRememberedNames {
            let start = spelledApart.count
            spelledApart.append(contentsOf: raw.utf8)
            names.append((start..<spelledApart.count, false, nameTable.count))
        }
        nameTable.append(MustacheName(raw))
        return nameTable.count - 1
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
        if pendingCopyStart != nil {
            extra.append(contentsOf: bytes[range])
        } else if let pending = pendingRange {
            if pending.upperBound == range.lowerBound {
                pendingRange = pending.lowerBound..<range.upperBound
            } else {
                pendingCopyStart = extra.count
                extra.append(contentsOf: bytes[pending])
                extra.append(contentsOf: bytes[range])
                pendingRange = nil
            }
        } else {
            pendingRange = range
        }
    }

    /// Adds the gathered text as one node.
    private mutating func flushText() {
        if let start = pendingCopyStart {
            ops.append(.text(start..<extra.count, inExtra: true))
        } else if let range = pendingRange {
            ops.append(.text(range, inExtra: false))
        }
        pendingCopyStart = nil
        pendingRange = nil
    }

    private mutating func append(_ op: MustacheOp) {
        flushText()
        ops.append(op)
    }

    /// Adds `details` for a node, returning their index.
    private mutating func add(_ details: MustacheOpDetails) -> Int {
        self.details.append(details)
        return self.details.count - 1
    }

    /// Opens `frame` inside the innermost one, reserving the place of its node (written by `close(_:)`).
    private mutating func push(_ frame: Frame) {
        flushText()
        var frame = frame
        frame.op = ops.count
        ops.append(.text(0..<0, inExtra: false))
        frames.append(frame)
    }

    /// Closes the innermost frame; its contents are the nodes after its own.
    private mutating func pop() -> Frame? {
        flushText()
        return frames.popLast()
    }

    /// The node of `frame`, just popped: `kind` with `first`, containing every node added since it opened.
    private mutating func write(_ frame: Frame, _ kind: MustacheOp.Kind, flag: Bool = false, first: Int) {
        ops[frame.op] = MustacheOp(kind: kind, flag: flag, first: first, span: ops.count - frame.op - 1, position: TagPosition(frame.location))
    }

    /// The bytes of the text node `op`.
    private func text(of op: MustacheOp) -> [UInt8] {
        op.flag ? Array(extra[op.first..<(op.first + op.span)]) : Array(bytes[op.first..<(op.first + op.span)])
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
        append(MustacheOp(kind: .variable, flag: escaped, first: self.name(name), span: 0, position: tag.position))
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
        defaultDelimiters = openDelimiter == Self.defaultOpen && closeDelimiter == Self.defaultClose
    }

    private mutating func openSection(_ tag: Tag) throws {
        let spelled = trimmedRange(tag.content)
        let name = string(spelled)
        guard !name.isEmpty else { throw located(tag).error("empty section name") }
        try checkNesting(located(tag))
        consume(tag, standalone: isStandalone(tag))
        push(Frame(kind: tag.sigil == UInt8(ascii: "#") ? .section : .inverted, rawName: name, nameRange: spelled, location: located(tag)))
    }

    private mutating func partial(_ tag: Tag) throws {
        let (reference, raw) = Self.reference(from: content(tag))
        guard !raw.isEmpty, raw != "*" else { throw located(tag).error("empty partial name") }
        consume(tag, standalone: isStandalone(tag))
        let details = add(MustacheOpDetails(reference: reference, indent: isStandalone(tag) ? indentation(tag) : nil))
        append(MustacheOp(kind: .partial, flag: false, first: details, span: 0, position: tag.position))
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
        let spelled = trimmedRange(tag.content)
        let name = string(spelled)
        guard !name.isEmpty else { throw located(tag).error("empty block name") }
        try checkNesting(located(tag))
        var frame = Frame(kind: .block, rawName: name, nameRange: spelled, location: located(tag))
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
        if let open = frames.last, frames.count > 1, closesAlike(tag, open) {
            try closeMatched(tag, open)
            return
        }
        let closing = Self.closeName(content(tag))
        guard frames.count > 1, let open = frames.last else {
            throw located(tag).error("close tag '\(closing)' has no open section")
        }
        guard open.rawName == closing else {
            throw located(tag).error(
                "mismatched close tag '\(closing)': the open section is '\(open.rawName)' (line \(open.location.line), column \(open.location.column))")
        }
        try closeMatched(tag, open)
    }

    /// Whether `tag`'s name is spelled byte for byte as `open`'s (then the names are equal as strings too; other
    /// spellings, and `*`, are compared as strings by `close(_:)`).
    private func closesAlike(_ tag: Tag, _ open: Frame) -> Bool {
        guard let spelled = open.nameRange, let base = bytes.baseAddress else { return false }
        let closing = trimmedRange(tag.content)
        guard closing.count == spelled.count, let first = closing.first, bytes[first] != UInt8(ascii: "*") else { return false }
        return memcmp(base + closing.lowerBound, base + spelled.lowerBound, closing.count) == 0
    }

    private mutating func closeMatched(_ tag: Tag, _ open: Frame) throws {
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
        var frame = open
        if !standalone, let whitespace = open.leadingWhitespace, !whitespace.isEmpty {
            // The indentation held back is text before the parent.
            let start = extra.count
            extra.append(contentsOf: whitespace)
            ops.insert(.text(start..<extra.count, inExtra: true), at: frame.op)
            frame.op += 1
        }
        var overrides: [String: Int] = [:]
        var child = frame.op + 1
        while child < ops.count {
            if ops[child].kind == .block { overrides[details[ops[child].first].blockName] = child - frame.op }
            child = ops[child].next(at: child)
        }
        let details = add(MustacheOpDetails(reference: open.reference, indent: standalone ? (open.leadingWhitespace ?? []) : nil, overrides: overrides))
        write(frame, .parent, first: details)
    }

    /// Closes a block passed as an argument to a parent: its lines are outdented by its own first line's indentation.
    private mutating func closeArgument(_ tag: Tag) {
        appendText(textStart..<(isLeftClear(tag) ? tagLineStart(tag) : tag.start))
        skip(to: tag.end)
        guard let done = pop() else { return }
        let contents = (done.op + 1)..<ops.count
        if done.openEndsLine, let first = contents.first, ops[first].kind == .text {
            let intrinsic = Array(text(of: ops[first]).prefix(while: { Self.isBlank($0) }))
            if !intrinsic.isEmpty { outdent(contents, by: intrinsic) }
        }
        write(done, .block, first: add(MustacheOpDetails(indent: [], blockName: done.rawName, indentFirstLine: false)))
    }

    private mutating func closeBlock(_ tag: Tag) {
        consume(tag, standalone: isStandalone(tag))
        guard let done = pop() else { return }
        var indent: [UInt8] = []
        var firstLine = false
        if done.openEndsLine {
            // Standalone opening tag: the default content's first line sets the indentation.
            firstLine = true
            if done.op + 1 < ops.count {
                if ops[done.op + 1].kind == .text { indent = Array(text(of: ops[done.op + 1]).prefix(while: { Self.isBlank($0) })) }
            } else {
                indent = done.leadingWhitespace ?? []
            }
        } else if let whitespace = done.leadingWhitespace {
            indent = whitespace
        }
        write(done, .block, first: add(MustacheOpDetails(indent: indent, blockName: done.rawName, indentFirstLine: firstLine)))
    }

    private mutating func closeSection(_ tag: Tag) {
        consume(tag, standalone: isStandalone(tag))
        guard let done = pop() else { return }
        write(done, .section, flag: done.kind == .inverted, first: name(done.rawName))
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

    /// Removes `indent` from the start of every template line in the nodes `range` (block arguments are outdented
    /// at their definition site) and from the re-indentation of nested blocks; what parents contain is left alone.
    private mutating func outdent(_ range: Range<Int>, by indent: [UInt8]) {
        var atLineStart = true
        var index = range.lowerBound
        while index < range.upperBound {
            let op = ops[index]
            switch op.kind {
            case .text:
                let text = Array(self.text(of: op))
                let start = extra.count
                var i = 0
                while i < text.count {
                    if atLineStart, text.count - i >= indent.count, text[i..<(i + indent.count)].elementsEqual(indent) {
                        i += indent.count
                    }
                    atLineStart = false
                    guard i < text.count else { break }
                    let b = text[i]
                    extra.append(b)
                    if b == 0x0A { atLineStart = true }
                    i += 1
                }
                ops[index] = .text(start..<extra.count, inExtra: true)
            case .block:
                let blockIndent = details[op.first].indent ?? []
                if blockIndent.starts(with: indent) { details[op.first].indent = Array(blockIndent.dropFirst(indent.count)) }
            case .partial, .parent:
                atLineStart = details[op.first].indent != nil
            case .variable:
                atLineStart = false
            case .section:
                break
            }
            // Into sections and blocks, past what a parent contains.
            index = op.kind == .parent ? op.next(at: index) : index + 1
        }
    }
}
