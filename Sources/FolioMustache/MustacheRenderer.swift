import Foundation

/// Options that change how a template renders.
public struct MustacheRenderOptions: Sendable {
    /// When true, a name missing from the data is an error instead of rendering empty.
    public var strict: Bool
    /// When true (the default), `{{x}}` escapes HTML; turn off for templates of code files.
    public var escapeHTML: Bool
    /// The deepest allowed nesting of partials and parents.
    public var maxDepth: Int

    /// Creates options; the defaults are lenient, HTML-escaping and 64 levels deep.
    public init(strict: Bool = false, escapeHTML: Bool = true, maxDepth: Int = 64) {
        self.strict = strict
        self.escapeHTML = escapeHTML
        self.maxDepth = maxDepth
    }
}

/// A parsed Mustache template, reusable across renders.
public struct MustacheTemplate: Sendable {
    /// The template's name or path, used in error messages.
    public let name: String
    let nodes: [MustacheNode]

    /// Parses `source`; throws a located `MustacheError` on syntax errors.
    public init(_ source: String, name: String = "<template>") throws {
        self.name = name
        var parser = MustacheParser(source: source, name: name)
        nodes = try parser.parse()
    }

    /// Renders against `data`, loading partials and parents through `partials`.
    public func render(
        _ data: MustacheValue, partials: any MustachePartialLoader = NoPartials(), options: MustacheRenderOptions = .init()
    ) throws -> String {
        let renderer = MustacheRenderer(root: data, loader: partials, options: options)
        try renderer.render(nodes)
        return String(decoding: renderer.output, as: UTF8.self)
    }
}

/// The state of one render: output buffer, context stack, indentation, block overrides and partial cache.
final class MustacheRenderer {
    private(set) var output: [UInt8] = []
    private var stack: [MustacheValue]
    private let loader: any MustachePartialLoader
    private let options: MustacheRenderOptions
    private var indent: [UInt8] = []
    /// True when the last template text written ended a line (the next output gets `indent`).
    private var atLineStart = true
    private var overrides: [String: [MustacheNode]] = [:]
    private var depth = 0
    private var cache: [String: [MustacheNode]?] = [:]

    init(root: MustacheValue, loader: any MustachePartialLoader, options: MustacheRenderOptions) {
        stack = [root]
        self.loader = loader
        self.options = options
        output.reserveCapacity(4096)
    }

    func render(_ nodes: [MustacheNode]) throws {
        for node in nodes {
            switch node {
            case .text(let text):
                writeTemplateText(text)

            case .variable(let name, let escaped, let loc):
                guard let value = try lookup(name, loc) else { continue }
                writeValue(value, escape: escaped && options.escapeHTML)

            case .section(let name, let inverted, let children, let loc):
                let value = try lookup(name, loc)
                if inverted {
                    if !(value?.isTruthy ?? false) { try render(children) }
                    continue
                }
                guard let value, value.isTruthy else { continue }
                if case .array(let items) = value {
                    for item in items {
                        stack.append(item)
                        try render(children)
                        stack.removeLast()
                    }
                } else {
                    stack.append(value)
                    try render(children)
                    stack.removeLast()
                }

            case .partial(let ref, let indentation, let loc):
                guard let nodes = try load(ref, loc) else { continue }
                try renderIncluded(nodes, indentation: indentation, loc: loc, ref: ref)

            case .parent(let ref, let indentation, let blockOverrides, let loc):
                guard let nodes = try load(ref, loc) else { continue }
                let saved = overrides
                // Outer (earlier) arguments win over the parent's own ones.
                overrides = blockOverrides.merging(saved) { _, outer in outer }
                defer { overrides = saved }
                try renderIncluded(nodes, indentation: indentation, loc: loc, ref: ref)

            case .block(let name, let children, let blockIndent, let indentFirstLine, _):
                guard let argument = overrides[name] else {
                    try render(children)
                    continue
                }
                let savedIndent = indent
                indent += blockIndent
                if indentFirstLine { atLineStart = true }
                try render(argument)
                indent = savedIndent
            }
        }
    }

    private func renderIncluded(_ nodes: [MustacheNode], indentation: [UInt8]?, loc: SourceLocation, ref: TemplateReference) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= options.maxDepth else {
            throw loc.error("partials nested more than \(options.maxDepth) levels deep (recursion through '\(ref.name.raw)' without an end?)")
        }
        let savedIndent = indent
        if let indentation {
            indent += indentation
            atLineStart = true
        }
        try render(nodes)
        indent = savedIndent
    }

    private func load(_ ref: TemplateReference, _ loc: SourceLocation) throws -> [MustacheNode]? {
        var name = ref.name.raw
        if ref.isDynamic {
            guard let value = try lookup(ref.name, loc) else { return nil }
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
            throw loc.error("cannot load partial '\(name)': \(error.localizedDescription)")
        }
        guard let source else {
            cache[name] = .some(nil)
            return nil
        }
        let template = try MustacheTemplate(source, name: name)
        cache[name] = template.nodes
        return template.nodes
    }

    private func lookup(_ name: MustacheName, _ loc: SourceLocation) throws -> MustacheValue? {
        let found = resolve(name)
        if found == nil && options.strict {
            throw loc.error("missing name '\(name.raw)'")
        }
        return found
    }

    private func resolve(_ name: MustacheName) -> MustacheValue? {
        guard let first = name.parts.first else { return stack.last }
        var found: MustacheValue?
        for frame in stack.reversed() {
            if case .object(let dict) = frame, let value = dict[first] {
                found = value
                break
            }
        }
        guard var current = found else { return nil }
        for part in name.parts.dropFirst() {
            guard let next = current.member(part) else { return nil }
            current = next
        }
        return current
    }

    // MARK: Output

    private func writeTemplateText(_ text: [UInt8]) {
        guard !text.isEmpty else { return }
        if indent.isEmpty {
            output.append(contentsOf: text)
            atLineStart = text.last == 0x0A
            return
        }
        var start = 0
        while start < text.count {
            var end = start
            while end < text.count && text[end] != 0x0A { end += 1 }
            let lineEnd = end < text.count ? end + 1 : end
            let isBlankLine = end == start || (end == start + 1 && text[start] == 0x0D && end < text.count)
            if atLineStart && !isBlankLine { output.append(contentsOf: indent) }
            output.append(contentsOf: text[start..<lineEnd])
            atLineStart = end < text.count
            start = lineEnd
        }
    }

    private func writeValue(_ value: MustacheValue, escape: Bool) {
        let text = value.renderedText
        guard !text.isEmpty else { return }
        if atLineStart && !indent.isEmpty { output.append(contentsOf: indent) }
        atLineStart = false
        let utf8 = text.utf8
        guard escape, utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            output.append(contentsOf: utf8)
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])  // &amp;
            case UInt8(ascii: "<"): output.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])  // &lt;
            case UInt8(ascii: ">"): output.append(contentsOf: [0x26, 0x67, 0x74, 0x3B])  // &gt;
            case UInt8(ascii: "\""): output.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])  // &quot;
            case UInt8(ascii: "'"): output.append(contentsOf: [0x26, 0x23, 0x33, 0x39, 0x3B])  // &#39;
            default: output.append(byte)
            }
        }
    }
}
