import FoundationEssentials
import Glibc

/// A variable or section name: `.` (implicit iterator) or dot-separated keys.
///
/// A class, made once per distinct name of a template (the parser reuses it for every tag spelling it): the renderer
/// can remember what a name resolved to by identity.
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

/// One node of a compiled template: plain values only (no references), so that the array of a template's nodes is
/// built, read and freed without reference counting.
///
/// Nodes are in source order, and a section, parent or block is followed by the nodes inside it (`span` of them):
/// its contents are the range after it, and its next sibling comes right after that range.
struct MustacheOp: Sendable {
    enum Kind: UInt8, Sendable {
        /// Template text: `first..<first + span` of the source, or of `extra` when `flag` is set.
        case text
        /// `{{name}}`: `first` indexes `names`; `flag` says whether it escapes HTML.
        case variable
        /// `{{#name}}` (or `{{^name}}` when `flag` is set): `first` indexes `names`.
        case section
        /// `{{>name}}`: `first` indexes `details`.
        case partial
        /// `{{<name}}`: `first` indexes `details`; the contents hold its block arguments.
        case parent
        /// `{{$name}}`: `first` indexes `details`; the contents are its default.
        case block
    }

    var kind: Kind
    var flag: Bool
    /// What `kind` says: where the text starts, or the index of the name or of the details.
    var first: Int
    /// The length of the text, or how many nodes a section, parent or block contains (at any depth).
    var span: Int
    var position: TagPosition

    static func text(_ range: Range<Int>, inExtra: Bool) -> MustacheOp {
        MustacheOp(kind: .text, flag: inExtra, first: range.lowerBound, span: range.count, position: TagPosition(line: 0, column: 0))
    }

    /// The range of the nodes inside this one, when it is at `index`.
    func contents(at index: Int) -> Range<Int> { (index + 1)..<(index + 1 + span) }

    /// The index of the next sibling of this node, when it is at `index`: past its contents.
    func next(at index: Int) -> Int {
        switch kind {
        case .section, .parent, .block: return index + 1 + span
        case .text, .variable, .partial: return index + 1
        }
    }
}

/// What a partial, parent or block node needs beyond a `MustacheOp` (these tags are rare: kept apart, so that every
/// node stays small and free of references).
struct MustacheOpDetails: Sendable {
    /// Partial and parent: what to load.
    var reference: TemplateReference?
    /// Partial and parent: non-nil only when standalone, the indentation prefixed to each line of what is included.
    /// Block: how an override is re-indented here (never nil).
    var indent: [UInt8]?
    /// Block: its name.
    var blockName = ""
    /// Block: the override's first line is indented too.
    var indentFirstLine = false
    /// Parent: its block arguments, by block name, as the offset of the block node from the parent's node (the last
    /// of a name wins). Relative, so that the parser can move a parent's nodes.
    var overrides: [String: Int] = [:]
}

/// The compiled form of a template: its nodes in one array (see `MustacheOp`), with the bytes and names they refer to.
///
/// A class, so that a template, a loaded partial or a block argument holds it with one reference.
final class MustacheProgram: Sendable {
    let ops: [MustacheOp]
    /// The template's source: text nodes are ranges of it.
    let source: [UInt8]
    /// Text that is not a range of the source (joined pieces, outdented block arguments).
    let extra: [UInt8]
    /// The names of variables, sections and references, each once.
    let names: [MustacheName]
    let details: [MustacheOpDetails]

    init(ops: [MustacheOp], source: [UInt8], extra: [UInt8], names: [MustacheName], details: [MustacheOpDetails]) {
        self.ops = ops
        self.source = source
        self.extra = extra
        self.names = names
        self.details = details
    }

    /// All the nodes at the top level.
    var all: Range<Int> { 0..<ops.count }

    /// Calls `body` with the bytes of the text node `op`.
    @inline(__always)
    func withText<R>(_ op: MustacheOp, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let bytes = op.flag ? extra : source
        return try bytes.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[op.first..<(op.first + op.span)]))
        }
    }
}
