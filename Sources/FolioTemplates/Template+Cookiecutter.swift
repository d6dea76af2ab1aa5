import FoundationEssentials
import FolioBasics
import FolioCore
import FolioGit
import FolioJinja

extension Template {
    /// Loads the cookiecutter template at `path` of `tree` (its `cookiecutter.json` at `prefix`): the project folder
    /// (the first folder at the root whose name holds `cookiecutter`, `{{` and `}}`, as cookiecutter finds it), its
    /// files, `templates/` for includes and the hooks' names. The manifest Folio asks from is made from the JSON.
    static func loadCookiecutter(from tree: some TemplateTree, path: String, config entry: TreeEntry, resolved: ResolvedSource) throws -> Template {
        let prefix = path.isEmpty ? "" : path + "/"
        let file = "\(resolved.source.name): \(prefix)cookiecutter.json"
        let config = try readingTemplate(file) { try tree.contents(of: [entry]).first ?? Data() }
        let all = try readingTemplate("\(resolved.source.name): \(path.isEmpty ? tree.name : path)") { try tree.files(under: path) }
        let folders = Set(all.compactMap { $0.path.split(separator: "/", maxSplits: 1).count == 2 ? String($0.path.split(separator: "/", maxSplits: 1)[0]) : nil })
        guard let project = folders.sorted().first(where: { $0.contains("cookiecutter") && $0.contains("{{") && $0.contains("}}") }) else {
            throw TemplateError(file, "no project folder beside it (a folder named like {{cookiecutter.project_slug}})", kind: .invalidFile)
        }
        let inside = all.filter { $0.path.hasPrefix(project + "/") }
        for entry in inside where entry.kind != .blob {
            throw TemplateError("\(resolved.source.name): \(prefix)\(entry.path)", "submodules are not allowed in templates", kind: .refusedPath)
        }
        let contents = try tree.contents(of: inside, naming: { "\(resolved.source.name): \(prefix)\($0.path)" })
        let files = zip(inside, contents).map { entry, data in
            TemplateFile(path: String(entry.path.dropFirst(project.count + 1)), data: data, mode: entry.mode)
        }
        let sharedEntries = all.filter { $0.path.hasPrefix("templates/") && $0.kind == .blob && !$0.isSymlink }
        var shared: [String: String] = [:]
        for (entry, data) in zip(sharedEntries, try tree.contents(of: sharedEntries, naming: { "\(resolved.source.name): \(prefix)\($0.path)" })) {
            if let text = String(validating: [UInt8](data), as: UTF8.self) { shared[String(entry.path.dropFirst("templates/".count))] = CookiecutterTemplate.universalNewlines(text) }
        }
        let hooks = all.filter { $0.path.hasPrefix("hooks/") && $0.kind == .blob }.map(\.path).sorted()
        var cookiecutter = CookiecutterTemplate(config: config, projectFolder: project, hooks: hooks, shared: shared)
        let hookEntries = all.filter { hooks.contains($0.path) && !$0.isSymlink }
        for (entry, data) in zip(hookEntries, try tree.contents(of: hookEntries, naming: { "\(resolved.source.name): \(prefix)\($0.path)" })) {
            cookiecutter.hookSources[entry.path] = String(decoding: data, as: UTF8.self)
        }
        _ = try cookiecutter.jinjaOptions(file: file)  // an extension or option Folio lacks refuses the template now
        let id = path.isEmpty ? CookiecutterTemplate.rootID(source: resolved.source.name) : String(path.split(separator: "/").last ?? "template")
        let manifest = try cookiecutterManifest(cookiecutter, id: id, file: file)
        var template = Template(manifest: manifest, path: path, source: resolved.source, commit: resolved.commit, ref: resolved.ref, files: files)
        template.cookiecutter = cookiecutter
        return template
    }

    /// The manifest of a cookiecutter template: its questions, and `_copy_without_render` as files copied as they are.
    static func cookiecutterManifest(_ cookiecutter: CookiecutterTemplate, id: String, file: String) throws -> TemplateManifest {
        struct Made: Encodable {
            let id: String, name: String, summary: String, variables: [CookiecutterVariable]
        }
        let safeID = String(id.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" })
        let made = Made(id: safeID.isEmpty ? "cookiecutter" : safeID, name: id, summary: "a cookiecutter template",
                        variables: try cookiecutter.variables(file: file))
        let data = try JSONEncoder().encode(made)
        return try TemplateManifest.parse(data, file: file)
    }

    /// A cookiecutter variable's default over the answers so far (cookiecutter's `render_variable`).
    func cookiecutterDefault(_ cookiecutter: CookiecutterTemplate, for variable: TemplateVariable, answers: [String: JSONValue]) throws -> JSONValue? {
        guard case let .string(text)? = variable.default, text.contains("{") else { return variable.default }
        let file = describe("cookiecutter.json")
        let environment = cookiecutter.environment(files: [])
        let context = try cookiecutter.context(answers: answers, environment: environment, file: file, before: variable.name)
        return .string(try cookiecutter.renderText(text, context: context, environment: environment, what: "\(file) (default of \(variable.name))"))
    }

    /// Renders a cookiecutter template's project folder with `answers`, as cookiecutter 2.7 writes it.
    func renderCookiecutter(_ cookiecutter: CookiecutterTemplate, answers: [String: JSONValue]) throws -> [(file: DocumentFile, source: String)] {
        let configFile = describe("cookiecutter.json")
        let environment = cookiecutter.environment(files: files)
        let context = try cookiecutter.context(answers: answers, environment: environment, file: configFile)
        let copyOnly: [String]
        if case let .list(patterns)? = context["_copy_without_render"] { copyOnly = patterns.items.compactMap(CookiecutterTemplate.scalarText) } else { copyOnly = [] }
        let forcedNewline = try Self.newLines(context["_new_lines"], file: configFile)
        var out: [(file: DocumentFile, source: String)] = []
        var planned: [(String, Bool, String)] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let where_ = describe(cookiecutter.projectFolder + "/" + file.path)
            guard let path = try cookiecutterPath(file.path, cookiecutter: cookiecutter, context: context, environment: environment, where_: where_) else { continue }
            planned.append((path, file.isSymlink, where_))
            let executable = file.mode == 0o100755
            if file.isSymlink {
                let target = String(decoding: file.data, as: UTF8.self)
                try Self.checkLink(target: target, sourcePath: file.path, outputPath: path, where_: where_)
                out.append((DocumentFile(path: path, data: Data(), symlinkTarget: target), file.path))
                continue
            }
            let copied = copyOnly.contains { CookiecutterTemplate.fnmatch($0, file.path) } || Self.holdsNUL(file.data)
            guard !copied, let text = String(validating: [UInt8](file.data), as: UTF8.self) else {
                out.append((DocumentFile(path: path, data: file.data, executable: executable), file.path))
                continue
            }
            let rendered: String
            do {
                let template = try JinjaTemplate(source: CookiecutterTemplate.universalNewlines(text), name: file.path, environment: environment)
                rendered = try template.render([("cookiecutter", .dict(context))])
            } catch let error as JinjaError {
                throw TemplateError(where_, "\(error)", kind: .invalidFile)
            }
            // Written with `_new_lines`, else the newline of the file's first line, as cookiecutter opens it.
            let newline = forcedNewline ?? Self.firstNewline(text)
            let bytes = newline == "\n" ? rendered : rendered.replacing("\n", with: newline)
            out.append((DocumentFile(path: path, data: Data(bytes.utf8), executable: executable), file.path))
        }
        try Self.checkLayout(planned)
        try Self.checkLinkChains(out.map(\.file)) { $0 }
        return out
    }

    /// cookiecutter's `_new_lines`: the newline every rendered file is written with (nil: each file's own). Only
    /// what Python's `open(newline=…)` takes; anything else is refused, as cookiecutter fails on it.
    static func newLines(_ value: JinjaValue?, file: String) throws -> String? {
        switch value {
        case nil, .none?, .bool(false)?, .string("")?: return nil
        default: break
        }
        guard case let .string(text)? = value, ["\n", "\r", "\r\n"].contains(text) else {
            throw TemplateError(file, "_new_lines must be \"\\n\", \"\\r\\n\" or \"\\r\", not \(value?.pythonRepr ?? "")", kind: .invalidFile)
        }
        return text
    }

    /// The newline the first line of `text` ends with, as Python's reader reports it (`\n` when it has none).
    static func firstNewline(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let end = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return "\n" }
        if bytes[end] == 0x0A { return "\n" }
        return end + 1 < bytes.count && bytes[end + 1] == 0x0A ? "\r\n" : "\r"
    }

    /// A path of the project folder rendered as cookiecutter renders it (the whole relative path as one template);
    /// nil when its file name renders empty (skipped) or a folder of it does (Folio drops what is inside).
    func cookiecutterPath(_ path: String, cookiecutter: CookiecutterTemplate, context: JinjaDict, environment: JinjaEnvironment, where_: String) throws -> String? {
        let rendered = path.contains("{") ? try cookiecutter.renderText(path, context: context, environment: environment, what: where_) : path
        let segments = rendered.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: \.isEmpty) else { return nil }
        try Self.checkPath(rendered, where_: where_)
        return rendered
    }

    /// The project folder's name rendered with `answers`: where cookiecutter would write the project.
    public func cookiecutterProjectName(answers: [String: JSONValue]) throws -> String? {
        guard let cookiecutter else { return nil }
        let environment = cookiecutter.environment(files: [])
        let context = try cookiecutter.context(answers: answers, environment: environment, file: describe("cookiecutter.json"))
        return try cookiecutter.renderText(cookiecutter.projectFolder, context: context, environment: environment, what: describe(cookiecutter.projectFolder))
    }

    /// `given` split for a cookiecutter template: answers to its questions, and overrides of its dict variables
    /// (`--set NAME.KEY=VALUE`, dotted to any depth, or NAME given a JSON object), one object per variable.
    func cookiecutterOverrides(_ cookiecutter: CookiecutterTemplate, _ given: [String: JSONValue]) throws
        -> (plain: [String: JSONValue], overrides: [String: JSONValue]) {
        let dicts = try cookiecutter.dictVariables(file: describe("cookiecutter.json"))
        var plain: [String: JSONValue] = [:], overrides: [String: JSONValue] = [:]
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let head = parts.first, dicts.contains(head) else { plain[name] = value; continue }
            if parts.count == 1 {
                guard case .object = value else {
                    throw TemplateError(manifest.id, "variable '\(name)' is a dictionary: give NAME.KEY=VALUE or a JSON object", kind: .invalidAnswer)
                }
                overrides[head] = Self.deepMerge(overrides[head], value)
                continue
            }
            guard !parts.contains(where: \.isEmpty) else { throw TemplateError(manifest.id, "'\(name)' is not a NAME.KEY path", kind: .invalidAnswer) }
            let nested = parts.dropFirst().reversed().reduce(value) { inner, key in .object([key: inner]) }
            overrides[head] = Self.deepMerge(overrides[head], nested)
        }
        return (plain, overrides)
    }

    /// `b` over `a`, objects merged key by key.
    static func deepMerge(_ a: JSONValue?, _ b: JSONValue) -> JSONValue {
        guard case let .object(left)? = a, case let .object(right) = b else { return b }
        return .object(left.merging(right) { old, new in deepMerge(old, new) })
    }
}
