/// Variables visible at one point of a render: a chain of scopes ending in the template's context.
final class JinjaScope {
    var vars = JinjaVars()
    let parent: JinjaScope?
    /// Names assigned at the top level of a template, in order (what an import exports).
    var assigned: [String] = []
    private var assignedNames: Set<String> = []
    /// Context values a template's own frame hides until it assigns them (what includes still see).
    var hidden: [String: JinjaValue] = [:]

    init(parent: JinjaScope?, vars: [String: JinjaValue] = [:]) {
        self.parent = parent
        if !vars.isEmpty { self.vars = JinjaVars(vars) }
    }

    func lookup(_ name: String) -> JinjaValue? {
        var s: JinjaScope? = self
        while let scope = s {
            if let v = scope.vars[name] { return v }
            s = scope.parent
        }
        return nil
    }

    /// Every visible variable, inner scopes winning (what an include with context sees).
    func flattened() -> [String: JinjaValue] {
        var chain: [JinjaScope] = []
        var s: JinjaScope? = self
        while let scope = s { chain.append(scope); s = scope.parent }
        var out: [String: JinjaValue] = [:]
        for scope in chain.reversed() {
            for (k, v) in scope.vars {
                if case .undefined(let u) = v, u.isFrameLocal {
                    if out[k] == nil, let h = scope.hidden[k] { out[k] = h }
                    continue
                }
                out[k] = v
            }
        }
        return out
    }

    func assign(_ name: String, _ value: JinjaValue) {
        if parent == nil, !assignedNames.contains(name) {
            assigned.append(name)
            assignedNames.insert(name)
        }
        vars[name] = value
    }
}

/// One template being rendered with its inheritance chain: the blocks by name (child first) and its context.
final class JinjaTemplateFrame {
    let template: JinjaTemplate
    var blocks: [String: [JinjaBlockNode]] = [:]
    var parent: JinjaTemplate?
    let context: JinjaScope

    init(template: JinjaTemplate, context: JinjaScope) {
        self.template = template
        self.context = context
        for (name, block) in template.blocks { blocks[name] = [block] }
    }
}

/// `break` and `continue`, unwinding to the loop.
enum JinjaLoopControl: Error {
    case breakLoop
    case continueLoop
}

/// One render in progress: output, limits, the template frames and the environment's behaviour.
final class JinjaRenderer {
    let environment: JinjaEnvironment
    let options: JinjaOptions
    let limits: JinjaLimits
    /// The output so far, as UTF-8 (appending bytes is cheaper than appending strings).
    var out: [UInt8] = []
    var discard = false
    var autoescape: Bool
    var depth = 0
    var steps = 0
    var line = 0
    /// The current statement's line and column (the column is reported while `line` is still that line).
    var statementLine = 0
    var column = 0
    var templateName = "<template>"
    var frames: [JinjaTemplateFrame] = []
    var loaded: [String: JinjaTemplate] = [:]
    let stack = JinjaStackGuard()

    init(environment: JinjaEnvironment) {
        self.environment = environment
        options = environment.options
        limits = environment.options.limits
        autoescape = environment.options.autoescape
    }

    var frame: JinjaTemplateFrame { frames[frames.count - 1] }

    // MARK: Errors and limits

    func error(_ kind: JinjaError.Kind, _ message: String) -> JinjaError {
        JinjaError(kind, message, template: templateName, line: line, column: line == statementLine ? column : 0)
    }

    func limitError(_ limit: JinjaLimit, _ message: String) -> JinjaError {
        JinjaError(.limit, message + " (limit \(limit.rawValue))", template: templateName, line: line,
                   column: line == statementLine ? column : 0, limit: limit)
    }

    func step(_ n: Int = 1) throws {
        steps += n
        if steps > limits.maxSteps {
            throw limitError(.maxSteps, "rendering took more than \(limits.maxSteps) steps (a huge loop, or runaway recursion?)")
        }
    }

    func checkSize(_ bytes: Int) throws {
        if bytes > limits.maxOutputBytes {
            throw limitError(.maxOutputBytes, "output or a string built while rendering passed \(limits.maxOutputBytes) bytes")
        }
    }

    /// Charges work proportional to text built (one step per KiB), so that repeating big string operations ends.
    func charge(_ value: JinjaValue) throws {
        if case .string(let s) = value, s.utf8.count >= 1024 { try step(s.utf8.count >> 10) }
        if case .markup(let s) = value, s.utf8.count >= 1024 { try step(s.utf8.count >> 10) }
    }

    /// Stops before the thread's stack runs out (deep recursion on a thread with a small stack).
    func checkStack() throws {
        if stack.exhausted { throw limitError(.maxDepth, "template recursion too deep for this thread's stack") }
    }

    func enter(_ what: String) throws {
        try checkStack()
        depth += 1
        if depth > limits.maxDepth {
            throw limitError(.maxDepth, "\(what) nested more than \(limits.maxDepth) levels deep (recursion?)")
        }
    }

    func leave() { depth -= 1 }

    static func frameLocal(_ name: String) -> JinjaValue {
        var u = JinjaUndefined(name: name)
        u.isFrameLocal = true
        return .undefined(u)
    }

    /// Binds the names a frame starts with as undefined (see `JinjaFrameNames`).
    func shadow(_ names: JinjaFrameNames, _ scope: JinjaScope) {
        for n in names.undefinedAtEntry { scope.vars[n] = Self.frameLocal(n) }
    }

    func emit(_ s: String) throws {
        guard !discard else { return }
        // The string's own UTF-8 storage copied in one go (append(contentsOf: s.utf8) walks it generically, ~190
        // instructions a call); the buffer is only read, inside the call.
        if s.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil { out.append(contentsOf: s.utf8) }
        try checkSize(out.count)
    }

    /// Renders `body` into a fresh buffer and returns what it wrote (macro calls, set blocks, filter blocks).
    func capture(_ body: () throws -> Void) throws -> String {
        let savedOut = out
        let savedDiscard = discard
        out = []
        discard = false
        defer { out = savedOut; discard = savedDiscard }
        try body()
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Templates

    func renderRoot(_ template: JinjaTemplate, context: JinjaValue) throws -> String {
        let root = JinjaScope(parent: nil)
        switch context {
        case .dict(let d):
            for (k, v) in d.entries { root.vars[k.plainString] = v }
        case .none, .undefined: break
        default: throw JinjaError(.type, "the render context must be a dict, not \(context.typeName)", template: template.name)
        }
        try renderTemplate(template, context: root)
        return String(decoding: out, as: UTF8.self)
    }

    /// Renders `template` (and the templates it extends) into the current output, with `context` as its scope.
    func renderTemplate(_ template: JinjaTemplate, context: JinjaScope) throws {
        let frame = JinjaTemplateFrame(template: template, context: context)
        frames.append(frame)
        let savedName = templateName
        let savedDiscard = discard
        templateName = template.name
        defer { frames.removeLast(); templateName = savedName; discard = savedDiscard }
        shadowRoot(template, context)
        try render(template.body, context)
        var levels = 0
        while let parent = frame.parent {
            levels += 1
            try enter("templates extending")
            frame.parent = nil
            for (name, block) in parent.blocks { frame.blocks[name, default: []].append(block) }
            discard = savedDiscard
            templateName = parent.name
            shadowRoot(parent, context)
            try render(parent.body, context)
        }
        depth -= levels
    }

    /// The template's own frame: its names assigned before any use start undefined (the context's value is hidden).
    func shadowRoot(_ template: JinjaTemplate, _ context: JinjaScope) {
        for n in template.rootNames.undefinedAtEntry {
            if let v = context.vars[n], context.hidden[n] == nil { context.hidden[n] = v }
            context.vars[n] = Self.frameLocal(n)
        }
    }

    func loadTemplate(_ name: String) throws -> JinjaTemplate? {
        if let t = loaded[name] { return t }
        guard let loader = environment.loader, let source = try loader(name) else { return nil }
        let t = try JinjaTemplate(source: source, name: name, environment: environment)
        loaded[name] = t
        return t
    }

    /// Loads the first existing template of `value` (a name, a list of names, or a template object).
    func resolveTemplate(_ value: JinjaValue, ignoreMissing: Bool = false) throws -> JinjaTemplate? {
        var names: [String] = []
        switch value {
        case .string(let s), .markup(let s): names = [s]
        case .list(let l): names = l.items.map(\.plainString)
        case .tuple(let items): names = items.map(\.plainString)
        case .undefined(let u):
            if ignoreMissing { return nil }
            throw error(.undefined, u.hint)
        default: names = [value.plainString]
        }
        for n in names {
            if let t = try loadTemplate(n) { return t }
        }
        if ignoreMissing { return nil }
        let what = names.count == 1 ? "template '\(names[0])' not found" : "none of the templates \(names) were found"
        throw error(.notFound, what)
    }
}
