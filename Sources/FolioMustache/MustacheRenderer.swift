import FoundationEssentials
import FolioBasics
import Glibc

/// Bounds on one render, so that no template or data can make it run or grow without end.
///
/// The defaults are far above what real templates need (a 10 MB template with a million tags takes about a million
/// steps and a second; Folio's bundled templates take a few hundred steps and nest less than ten deep) and low enough
/// that a runaway template stops within seconds and without exhausting memory.
public struct MustacheLimits: Sendable, Equatable {
    /// 64 MiB: larger than any file a template should produce, small enough to hold in memory comfortably.
    public static let defaultMaxOutputBytes = 64 << 20
    /// 100 levels of sections, partials, parents and blocks inside one another; a template's own sections may nest
    /// 100 deep as well, so together they bound the render's recursion.
    public static let defaultMaxDepth = 100
    /// 20 million tags and section repetitions: about four seconds of work on a slow machine.
    public static let defaultMaxSteps = 20_000_000
    /// The largest `maxDepth` accepted: deeper recursion could exhaust a thread's stack.
    public static let depthCeiling = 1_000

    /// The most bytes a render may produce.
    public var maxOutputBytes: Int
    /// The deepest nesting of sections, partials, parents and blocks while rendering (capped at `depthCeiling`).
    public var maxDepth: Int
    /// The most tags and section repetitions a render may go through.
    public var maxSteps: Int

    /// Creates limits; the defaults are `defaultMaxOutputBytes`, `defaultMaxDepth` and `defaultMaxSteps`.
    public init(maxOutputBytes: Int = defaultMaxOutputBytes, maxDepth: Int = defaultMaxDepth, maxSteps: Int = defaultMaxSteps) {
        self.maxOutputBytes = maxOutputBytes
        self.maxDepth = maxDepth
        self.maxSteps = maxSteps
    }
}

/// Options that change how a template renders.
public struct MustacheRenderOptions: Sendable {
    /// When true, a name missing from the data is an error instead of rendering empty.
    public var strict: Bool
    /// When true (the default), `{{x}}` escapes HTML; turn off for templates of code files.
    public var escapeHTML: Bool
    /// How much output, nesting and work a render may take.
    public var limits: MustacheLimits

    /// The deepest allowed nesting of sections, partials, parents and blocks (`limits.maxDepth`).
    public var maxDepth: Int {
        get { limits.maxDepth }
        set { limits.maxDepth = newValue }
    }

    /// Creates options; the defaults are lenient, HTML-escaping and within the default limits.
    public init(strict: Bool = false, escapeHTML: Bool = true, limits: MustacheLimits = MustacheLimits()) {
        self.strict = strict
        self.escapeHTML = escapeHTML
        self.limits = limits
    }

    /// Creates options with the default limits except for the nesting depth.
    public init(strict: Bool = false, escapeHTML: Bool = true, maxDepth: Int) {
        self.init(strict: strict, escapeHTML: escapeHTML, limits: MustacheLimits(maxDepth: maxDepth))
    }
}

/// A parsed Mustache template, reusable across renders.
public struct MustacheTemplate: Sendable {
    /// The template's name or path, used in error messages.
    public let name: String
    let program: MustacheProgram
    /// The size of the source in bytes: the first guess at the size of the output.
    let sourceSize: Int

    /// Parses `source`; throws a located `MustacheError` on syntax errors.
    public init(_ source: String, name: String = "<template>") throws {
        try self.init(utf8: Array(source.utf8), name: name)
    }

    /// Parses source given as UTF-8 bytes (the caller has checked they are UTF-8: text is kept byte for byte, names
    /// are decoded with invalid sequences replaced); throws a located `MustacheError` on syntax errors.
    public init(utf8 source: [UInt8], name: String = "<template>") throws {
        self.name = name
        sourceSize = source.count
        var parser = MustacheParser(bytes: source, name: name)
        program = try parser.parse()
    }

    /// Renders against `data`, loading partials and parents through `partials`.
    public func render(
        _ data: MustacheValue, partials: any MustachePartialLoader = NoPartials(), options: MustacheRenderOptions = .init()
    ) throws -> String {
        String(decoding: try renderUTF8(data, partials: partials, options: options), as: UTF8.self)
    }

    /// `render(_:partials:options:)` as UTF-8 bytes, without building a string (the output of a UTF-8 template
    /// rendered with string values is UTF-8).
    public func renderUTF8(
        _ data: MustacheValue, partials: any MustachePartialLoader = NoPartials(), options: MustacheRenderOptions = .init()
    ) throws -> [UInt8] {
        var renderer = MustacheRenderer(root: data, loader: partials, options: options, name: name,
                                        expectedSize: min(sourceSize + sourceSize / 4, options.limits.maxOutputBytes))
        try renderer.render(program, program.all)
        return renderer.output.bytes
    }
}

/// The state of one render: output buffer, context stack, indentation, block overrides, partial cache, and the
/// counters that enforce `MustacheLimits`.
///
/// A struct with mutating methods rather than a class: the output buffer and counters are written for every node,
/// and a class's stored properties pay a dynamic exclusivity check on each such access.
struct MustacheRenderer: ~Copyable {
    /// What a name resolved to from the root, and the bytes its variable tags write, as ranges of `rootText` (escaped
    /// for HTML or not; a negative start while unknown).
    private struct RootEntry {
        var name: MustacheName? = nil
        /// `name`'s address (unique while `name` holds it).
        var identity: UInt = 0
        var value: MustacheValue? = nil
        var plainStart = -1, plainEnd = -1
        var escapedStart = -1, escapedEnd = -1

        func text(escaped: Bool) -> Range<Int>? {
            let (start, end) = escaped ? (escapedStart, escapedEnd) : (plainStart, plainEnd)
            return start < 0 ? nil : start..<end
        }

        mutating func remember(_ range: Range<Int>, escaped: Bool) {
            if escaped {
                (escapedStart, escapedEnd) = (range.lowerBound, range.upperBound)
            } else {
                (plainStart, plainEnd) = (range.lowerBound, range.upperBound)
            }
        }
    }

    /// Nodes of a partial, parent or block argument, with the index in `files` of the template they were parsed from.
    private struct Loaded {
        let program: MustacheProgram
        let range: Range<Int>
        let file: Int
    }

    private(set) var output: MustacheOutput
    private var stack: [MustacheValue]
    /// How many frames above the root are objects: while none is, a name resolves from the root alone.
    private var objectFrames = 0
    private let loader: any MustachePartialLoader
    private let options: MustacheRenderOptions
    private let limits: MustacheLimits
    /// The template being rendered, named in limit errors.
    private let name: String
    private var indent: [UInt8] = []
    /// True when the last template text written ended a line (the next output gets `indent`).
    private var atLineStart = true
    /// Block arguments in force, by block name, each with the template (index in `files`) that wrote it.
    private var overrides: [String: Loaded] = [:]
    private var depth = 0
    private var steps = 0
    /// The files of the templates met so far: the rendered one first, then partials and parents as loaded.
    private var files: [String]
    /// The template (index in `files`) whose nodes are being rendered: the file of their positions.
    private var file = 0
    /// The tag being rendered and its template, for saying where a limit was reached.
    private var current: (position: TagPosition, file: Int)?
    private var cache: [String: Loaded?] = [:]
    /// What names resolved to from the root, by the name's identity (direct-mapped on its address; a template's
    /// few names are looked up over and over). Used only while no object frame is above the root.
    /// `rootIndex` maps a slot to an entry of `root` (-1: none); both are made at the first lookup, and `root` holds
    /// only the entries in use (an array of 32 entries cost more to make and free than most renders of a path).
    private var rootIndex: [Int] = []
    private var root: [RootEntry] = []
    private var rootText: [UInt8] = []
    private static let rootResolutionSlots = 32

    init(root: MustacheValue, loader: any MustachePartialLoader, options: MustacheRenderOptions, name: String, expectedSize: Int) {
        stack = []
        // Sections over objects push onto it: room for a few without growing.
        stack.reserveCapacity(8)
        stack.append(root)
        self.loader = loader
        self.options = options
        var limits = options.limits
        limits.maxDepth = min(limits.maxDepth, MustacheLimits.depthCeiling)
        self.limits = limits
        self.name = name
        files = [name]
        output = MustacheOutput(capacity: expectedSize)
    }

    /// Renders the nodes `range` of `program` (siblings, each with its contents).
    mutating func render(_ program: MustacheProgram, _ range: Range<Int>) throws {
        // The nodes and the source through pointers for the whole range: reading them costs no reference counting.
        try program.ops.withUnsafeBufferPointer { ops in
            try program.source.withUnsafeBufferPointer { source in
                try program.names.withUnsafeBytes { names in
                    try render(program, range, ops: ops, source: source, names: names)
                }
            }
        }
    }

    /// `names` holds the program's names (references) as bytes: a tag's name is told by its address without taking
    /// a reference to it.
    private mutating func render(
        _ program: MustacheProgram, _ range: Range<Int>, ops: UnsafeBufferPointer<MustacheOp>, source: UnsafeBufferPointer<UInt8>,
        names: UnsafeRawBufferPointer
    ) throws {
        var index = range.lowerBound
        while index < range.upperBound {
            let at = index
            let op = ops[at]
            index = op.next(at: at)
            try step()
            switch op.kind {
            case .text where !op.flag:
                writeTemplateText(UnsafeBufferPointer(rebasing: source[op.first..<(op.first + op.span)]))
            case .text:
                program.withText(op) { writeTemplateText($0) }
            case .variable:
                current = (op.position, file)
                let escape = op.flag && options.escapeHTML
                let identity = names.load(fromByteOffset: op.first * MemoryLayout<MustacheName>.stride, as: UInt.self)
                if let known = rootText(identity: identity, escape: escape) {
                    writeRootText(known)
                    break
                }
                guard try renderVariable(program.names[op.first], escape: escape, op.position) else { continue }
            case .section:
                current = (op.position, file)
                try deeper { try $0.renderSection(program.names[op.first], inverted: op.flag, program, op.contents(at: at), op.position) }
            case .partial, .parent, .block:
                guard try renderContainer(op, at: at, program) else { continue }
            }
            try checkOutput()
        }
    }

    // The less common paths are functions of their own, kept out of `render`: every level of a recursive render
    // (sections, partials) holds a frame of it on the stack, and a smaller frame lets a thread go deeper.

    /// A variable tag whose bytes are not remembered yet; false when the name is missing (nothing written).
    @inline(never)
    private mutating func renderVariable(_ name: MustacheName, escape: Bool, _ at: TagPosition) throws -> Bool {
        if let known = rootText(name, escape: escape) {
            writeRootText(known)
            return true
        }
        guard let value = try lookup(name, at) else { return false }
        writeValue(value, escape: escape)
        return true
    }

    /// A partial, parent or block node at `index`; false when a partial or parent loads nothing.
    @inline(never)
    private mutating func renderContainer(_ op: MustacheOp, at index: Int, _ program: MustacheProgram) throws -> Bool {
        current = (op.position, file)
        switch op.kind {
        case .partial, .parent:
            let details = program.details[op.first]
            guard let ref = details.reference, let loaded = try load(ref, op.position) else { return false }
            try deeper {
                if op.kind == .partial {
                    try $0.renderIncluded(loaded, indentation: details.indent)
                } else {
                    try $0.renderParent(loaded, indentation: details.indent, program, index, details.overrides)
                }
            }
        case .block:
            let details = program.details[op.first]
            try deeper {
                try $0.renderBlock(details.blockName, program, op.contents(at: index), indent: details.indent ?? [], indentFirstLine: details.indentFirstLine)
            }
        case .text, .variable, .section:
            break
        }
        return true
    }

    @inline(never)
    private mutating func renderSection(
        _ name: MustacheName, inverted: Bool, _ program: MustacheProgram, _ children: Range<Int>, _ at: TagPosition
    ) throws {
        let value = try lookup(name, at)
        if inverted {
            if !(value?.isTruthy ?? false) { try render(program, children) }
            return
        }
        guard let value, value.isTruthy else { return }
        guard case .array(let items) = value else {
            try renderWithContext(value, program, children)
            return
        }
        for item in items {
            try step()
            try renderWithContext(item, program, children)
        }
    }

    private mutating func renderWithContext(_ value: MustacheValue, _ program: MustacheProgram, _ children: Range<Int>) throws {
        let isObject: Bool
        if case .object = value { isObject = true } else { isObject = false }
        stack.append(value)
        if isObject { objectFrames += 1 }
        defer {
            stack.removeLast()
            if isObject { objectFrames -= 1 }
        }
        try render(program, children)
    }

    /// Renders a parent with the arguments of its tag (at `tag` in `program`, the current template) added to those in
    /// force.
    private mutating func renderParent(
        _ parent: Loaded, indentation: [UInt8]?, _ program: MustacheProgram, _ tag: Int, _ blockOverrides: [String: Int]
    ) throws {
        let saved = overrides
        // Outer (earlier) arguments win over the parent's own ones.
        for (key, offset) in blockOverrides where overrides[key] == nil {
            overrides[key] = Loaded(program: program, range: program.ops[tag + offset].contents(at: tag + offset), file: file)
        }
        defer { overrides = saved }
        try renderIncluded(parent, indentation: indentation)
    }

    private mutating func renderBlock(
        _ name: String, _ program: MustacheProgram, _ children: Range<Int>, indent blockIndent: [UInt8], indentFirstLine: Bool
    ) throws {
        guard let argument = overrides[name] else {
            try render(program, children)
            return
        }
        let savedIndent = indent, savedFile = file
        defer {
            indent = savedIndent
            file = savedFile
        }
        indent += blockIndent
        if indentFirstLine { atLineStart = true }
        file = argument.file
        try render(argument.program, argument.range)
    }

    private mutating func renderIncluded(_ included: Loaded, indentation: [UInt8]?) throws {
        let savedIndent = indent, savedFile = file
        defer {
            indent = savedIndent
            file = savedFile
        }
        if let indentation {
            indent += indentation
            atLineStart = true
        }
        file = included.file
        try render(included.program, included.range)
    }

    // MARK: Limits

    /// Runs `body` one level deeper (a section, partial, parent or block), refusing to go past `maxDepth`.
    @inline(__always)
    private mutating func deeper(_ body: (inout Self) throws -> Void) throws {
        depth += 1
        defer { depth -= 1 }
        try checkDepth()
        try body(&self)
    }

    /// Refuses to go past `maxDepth` (the caller has just gone one level deeper).
    private func checkDepth() throws {
        guard depth <= limits.maxDepth else {
            throw limitError(.maxDepth, "sections, partials and blocks nested more than \(limits.maxDepth) levels deep"
                + (current.map { " (recursion through '\(files[$0.file])' without an end?)" } ?? ""))
        }
    }

    /// Counts one tag or section repetition against `maxSteps`.
    private mutating func step() throws {
        steps += 1
        guard steps <= limits.maxSteps else {
            throw limitError(.maxSteps, "rendering took more than \(limits.maxSteps) steps (sections repeated over nested lists, or a recursive partial?)")
        }
    }

    private func checkOutput() throws {
        guard output.count > limits.maxOutputBytes else { return }
        throw limitError(.maxOutputBytes, "output passed the limit of \(limits.maxOutputBytes) bytes")
    }

    /// An error naming the limit, the tag where rendering stopped, and the template being rendered.
    private func limitError(_ limit: MustacheLimit, _ what: String) -> MustacheError {
        var message = what + " (limit \(limit.rawValue))"
        guard let current else { return MustacheError(file: name, message: message, limit: limit) }
        let file = files[current.file]
        if file != name { message += " while rendering \(name)" }
        return MustacheError(file: file, line: current.position.line, column: current.position.column, message: message, limit: limit)
    }

    /// `position` in the template being rendered, for errors.
    private func located(_ position: TagPosition) -> SourceLocation {
        SourceLocation(file: files[file], line: position.line, column: position.column)
    }

    private mutating func load(_ ref: TemplateReference, _ at: TagPosition) throws -> Loaded? {
        var name = ref.name.raw
        if ref.isDynamic {
            guard let value = try lookup(ref.name, at) else { return nil }
            name = value.renderedText
            if name.isEmpty { return nil }
        }
        if let cached = cache[name] { return cached }
        let source: String?
        do {
            source = try loader.template(named: name)
        } catch let error as MustacheError {
            throw error
        } catch {
            throw located(at).error("cannot load partial '\(name)': \(errorText(error))")
        }
        guard let source else {
            cache[name] = .some(nil)
            return nil
        }
        let template = try MustacheTemplate(source, name: name)
        files.append(name)
        let loaded = Loaded(program: template.program, range: template.program.all, file: files.count - 1)
        cache[name] = loaded
        return loaded
    }

    private mutating func lookup(_ name: MustacheName, _ at: TagPosition) throws -> MustacheValue? {
        let found = objectFrames == 0 && name.first != nil ? resolveFromRoot(name) : resolve(name)
        if found == nil && options.strict {
            throw located(at).error("missing name '\(name.raw)'")
        }
        return found
    }

    /// `resolve(name)` while no object frame is above the root: remembered per name, since it cannot change.
    private mutating func resolveFromRoot(_ name: MustacheName) -> MustacheValue? {
        root[rootEntry(name)].value
    }

    /// The index in `root` of `name`'s entry, made (resolving the name) when there is none. A name looks in its slot
    /// and the next few (names whose addresses share a slot would otherwise push each other out at every tag); when
    /// all are taken by other names, it replaces the entry in its own slot.
    private mutating func rootEntry(_ name: MustacheName) -> Int {
        if rootIndex.isEmpty { rootIndex = Array(repeating: -1, count: Self.rootResolutionSlots) }
        let identity = UInt(bitPattern: ObjectIdentifier(name))
        let home = Self.rootSlot(identity: identity)
        var slot = home
        for _ in 0..<Self.rootProbes {
            let index = rootIndex[slot]
            if index < 0 { break }
            if root[index].identity == identity { return index }
            slot = (slot + 1) & (Self.rootResolutionSlots - 1)
        }
        let entry = RootEntry(name: name, identity: identity, value: resolve(name))
        if rootIndex[slot] < 0 {
            rootIndex[slot] = root.count
            root.append(entry)
            return root.count - 1
        }
        let index = rootIndex[home]
        root[index] = entry
        return index
    }

    /// How many slots a name looks in.
    private static let rootProbes = 4

    private static func rootSlot(identity: UInt) -> Int { Int(truncatingIfNeeded: identity >> 4) & (rootResolutionSlots - 1) }

    /// `rootText(_:escape:)` when already known for the name at address `identity`; nil otherwise.
    @inline(__always)
    private func rootText(identity: UInt, escape: Bool) -> Range<Int>? {
        guard objectFrames == 0, !rootIndex.isEmpty else { return nil }
        let home = Self.rootSlot(identity: identity)
        let index = rootIndex[home]
        guard index >= 0 else { return nil }
        if root[index].identity == identity { return root[index].text(escaped: escape) }
        return rootText(identity: identity, escape: escape, after: home)
    }

    /// `rootText(identity:escape:)` in the slots after `home`.
    @inline(never)
    private func rootText(identity: UInt, escape: Bool, after home: Int) -> Range<Int>? {
        var slot = home
        for _ in 1..<Self.rootProbes {
            slot = (slot + 1) & (Self.rootResolutionSlots - 1)
            let index = rootIndex[slot]
            guard index >= 0 else { return nil }
            if root[index].identity == identity { return root[index].text(escaped: escape) }
        }
        return nil
    }

    /// What `{{name}}` writes (a range of `rootText`) while no object frame is above the root, when the name is found;
    /// nil when it is not (or cannot be resolved from the root): the caller then takes the general path.
    private mutating func rootText(_ name: MustacheName, escape: Bool) -> Range<Int>? {
        guard objectFrames == 0, name.first != nil else { return nil }
        let index = rootEntry(name)
        guard let value = root[index].value else { return nil }
        if let known = root[index].text(escaped: escape) { return known }
        let start = rootText.count
        Self.appendValue(value, escape: escape, to: &rootText)
        let range = start..<rootText.count
        root[index].remember(range, escaped: escape)
        return range
    }

    /// The bytes `writeValue(value, escape:)` writes (after any indentation), appended to `bytes`.
    private static func appendValue(_ value: MustacheValue, escape: Bool, to bytes: inout [UInt8]) {
        if !escape, case .string(let text) = value {
            bytes.append(contentsOf: text.utf8)
            return
        }
        let text = value.renderedText
        guard escape else {
            bytes.append(contentsOf: text.utf8)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])  // &amp;
            case UInt8(ascii: "<"): bytes.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])  // &lt;
            case UInt8(ascii: ">"): bytes.append(contentsOf: [0x26, 0x67, 0x74, 0x3B])  // &gt;
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])  // &quot;
            case UInt8(ascii: "'"): bytes.append(contentsOf: [0x26, 0x23, 0x33, 0x39, 0x3B])  // &#39;
            default: bytes.append(byte)
            }
        }
    }

    /// Writes `range` of `rootText` as `writeValue` writes a value: nothing when empty, after the indentation at a
    /// line's start.
    private mutating func writeRootText(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if atLineStart && !indent.isEmpty { output.append(indent) }
        atLineStart = false
        rootText.withUnsafeBufferPointer { output.append(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private func resolve(_ name: MustacheName) -> MustacheValue? {
        guard let first = name.first else { return stack.last }
        var found: MustacheValue?
        for frame in stack.reversed() {
            if case .object(let dict) = frame, let value = dict[first] {
                found = value
                break
            }
        }
        guard var current = found else { return nil }
        for part in name.rest {
            guard let next = current.member(part) else { return nil }
            current = next
        }
        return current
    }

    // MARK: Output

    private mutating func writeTemplateText(_ text: UnsafeBufferPointer<UInt8>) {
        guard !text.isEmpty else { return }
        if indent.isEmpty {
            output.append(text)
            atLineStart = text.last == 0x0A
            return
        }
        let count = text.count
        var start = 0
        while start < count {
            var end = start
            while end < count && text[end] != 0x0A { end += 1 }
            let lineEnd = end < count ? end + 1 : end
            let isBlankLine = end == start || (end == start + 1 && text[start] == 0x0D && end < count)
            if atLineStart && !isBlankLine { output.append(indent) }
            output.append(UnsafeBufferPointer(rebasing: text[start..<lineEnd]))
            atLineStart = end < count
            start = lineEnd
        }
    }

    private mutating func writeValue(_ value: MustacheValue, escape: Bool) {
        if !escape, case .string(let text) = value {
            // The usual case, copied straight from the string's UTF-8.
            guard !text.isEmpty else { return }
            if atLineStart && !indent.isEmpty { output.append(indent) }
            atLineStart = false
            if text.utf8.withContiguousStorageIfAvailable({ output.append($0) }) == nil { output.append(Array(text.utf8)) }
            return
        }
        let text = value.renderedText
        guard !text.isEmpty else { return }
        if atLineStart && !indent.isEmpty { output.append(indent) }
        atLineStart = false
        let utf8 = text.utf8
        guard escape, utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            if utf8.withContiguousStorageIfAvailable({ output.append($0) }) == nil { output.append(Array(utf8)) }
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append([0x26, 0x61, 0x6D, 0x70, 0x3B])  // &amp;
            case UInt8(ascii: "<"): output.append([0x26, 0x6C, 0x74, 0x3B])  // &lt;
            case UInt8(ascii: ">"): output.append([0x26, 0x67, 0x74, 0x3B])  // &gt;
            case UInt8(ascii: "\""): output.append([0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])  // &quot;
            case UInt8(ascii: "'"): output.append([0x26, 0x23, 0x33, 0x39, 0x3B])  // &#39;
            default: output.append(byte)
            }
        }
    }
}
