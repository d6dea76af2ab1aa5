import FoundationEssentials
import FolioCore
import FolioJinja

/// A cookiecutter template: `cookiecutter.json` at the template's root and one project folder whose name is Jinja
/// over the answers (`{{cookiecutter.project_slug}}`). Rendered with `FolioJinja` as cookiecutter 2.7 renders it:
/// `StrictUndefined`, the trailing newline kept, names rendered path by path, `_copy_without_render` copied as is,
/// binary files copied, a file whose name renders empty skipped, each file written with its first line's newline.
public struct CookiecutterTemplate: Sendable, Equatable {
    /// `cookiecutter.json` as read.
    public let config: Data
    /// The project folder under the template's root, unrendered (its rendered name is cookiecutter's output folder).
    public let projectFolder: String
    /// The hooks under `hooks/` (`pre_gen_project.py`, …): listed, not run.
    public let hooks: [String]
    /// The hooks' sources by path (rendered with the answers before they run, as cookiecutter does).
    var hookSources: [String: String] = [:]
    /// The files of the template's `templates/` folder, for `{% include %}` (cookiecutter's `../templates`).
    let shared: [String: String]

    /// The id of a cookiecutter template at the root of the source named `source` (a path or URL for one given on
    /// the command line): its last part without `.git` (`gh:me/cookiecutter-pypackage.git` → `cookiecutter-pypackage`).
    static func rootID(source: String) -> String {
        var last = source.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? source
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.isEmpty ? source : last
    }

    /// The entries of `cookiecutter.json` in order.
    func entries(file: String) throws -> [(key: String, value: JinjaValue)] {
        let parsed: JinjaValue
        do { parsed = try JinjaValue(json: [UInt8](config)) } catch { throw TemplateError(file, "not valid JSON: \(error)", kind: .invalidFile) }
        guard case let .dict(dict) = parsed else { throw TemplateError(file, "must hold one JSON object", kind: .invalidFile) }
        return try dict.entries.map { entry in
            guard case let .string(key) = entry.key else { throw TemplateError(file, "a key is not a string", kind: .invalidFile) }
            return (key, entry.value)
        }
    }

    /// The Jinja environment cookiecutter renders with: strict undefined names, the trailing newline kept, includes
    /// from the project folder and the template's `templates/`.
    func environment(files: [TemplateFile]) -> JinjaEnvironment {
        var options = (try? jinjaOptions(file: "cookiecutter.json")) ?? JinjaOptions()
        options.extensions.formUnion(JinjaExtension.cookiecutterDefaults)  // cookiecutter's environment always has them
        options.undefined = .strict
        options.keepTrailingNewline = true
        var sources = shared
        for file in files where !file.isSymlink {
            if let text = String(validating: [UInt8](file.data), as: UTF8.self) { sources[file.path] = Self.universalNewlines(text) }
        }
        let lookup = sources
        return JinjaEnvironment(options: options, loader: { lookup[$0] })
    }

    /// The Jinja options `_jinja2_env_vars` and `_extensions` ask for. An extension Folio does not have (any but
    /// `jinja2.ext.do`, `jinja2.ext.loopcontrols`, `jinja2_time.TimeExtension`, cookiecutter's own and
    /// jinja2-ansible-filters) refuses the template in one line naming it, as does an environment option Folio's Jinja
    /// does not know: rendering without them would be wrong.
    func jinjaOptions(file: String) throws -> JinjaOptions {
        var options = JinjaOptions()
        let entries = try entries(file: file)
        if let vars = entries.first(where: { $0.key == "_jinja2_env_vars" })?.value {
            guard case let .dict(dict) = vars else { throw TemplateError(file, "_jinja2_env_vars must be an object", kind: .invalidFile) }
            do { options = try JinjaOptions(jinjaNames: dict) } catch { throw TemplateError(file, "_jinja2_env_vars: \(error)", kind: .unsupported) }
        }
        if let wanted = entries.first(where: { $0.key == "_extensions" })?.value {
            guard case let .list(list) = wanted else { throw TemplateError(file, "_extensions must be a list", kind: .invalidFile) }
            for item in list.items {
                guard case let .string(name) = item, let known = JinjaExtension(rawValue: name) else {
                    throw TemplateError(file, "needs the Jinja extension \(Self.scalarText(item) ?? "?"), which Folio does not have", kind: .unsupported)
                }
                options.extensions.insert(known)
            }
        }
        return options
    }

    /// `text` with `\r\n` and `\r` read as `\n`, as Python reads a text file.
    static func universalNewlines(_ text: String) -> String {
        guard text.utf8.contains(0x0D) else { return text }
        return text.replacing("\r\n", with: "\n").replacing("\r", with: "\n")
    }

    /// The variables Folio asks for: every key not starting with `_` whose value is not an object, in order. A
    /// string (or number) is text whose default is Jinja over earlier answers; a list is a choice, its first item
    /// the default; a boolean is yes or no.
    func variables(file: String) throws -> [CookiecutterVariable] {
        try entries(file: file).compactMap { key, value in
            guard !key.hasPrefix("_") else { return nil }
            switch value {
            case let .bool(flag): return CookiecutterVariable(name: key, type: "bool", default: .bool(flag), choices: nil)
            case let .string(text): return CookiecutterVariable(name: key, type: "string", default: .string(text), choices: nil)
            case let .int(number): return CookiecutterVariable(name: key, type: "string", default: .string(String(number)), choices: nil)
            case let .float(number): return CookiecutterVariable(name: key, type: "string", default: .string(Self.pythonFloat(number)), choices: nil)
            case let .list(list):
                let choices = try list.items.map { item -> String in
                    guard let text = Self.scalarText(item) else { throw TemplateError(file, "choice '\(key)' holds a value that is not text", kind: .invalidFile) }
                    return text
                }
                guard let first = choices.first else { throw TemplateError(file, "choice '\(key)' has no choices", kind: .invalidFile) }
                return CookiecutterVariable(name: key, type: "choice", default: .string(first), choices: choices)
            case .dict, .none: return nil
            default: throw TemplateError(file, "'\(key)' has a value cookiecutter.json cannot hold", kind: .invalidFile)
            }
        }
    }

    /// The `cookiecutter` object templates see, as cookiecutter 2.7 builds it: in the file's order `_private` values
    /// as written, `__rendered` ones rendered, the answers; then the objects (dict variables), rendered.
    /// `before`, when given, stops at that key: the context its default is rendered in (what came before it).
    func context(answers: [String: JSONValue], environment: JinjaEnvironment, file: String, before: String? = nil) throws -> JinjaDict {
        let entries = try entries(file: file)
        let dict = JinjaDict()
        for (key, raw) in entries {
            if key == before { return dict }
            if key.hasPrefix("__") {
                _ = dict.set(.string(key), try render(raw, context: dict, environment: environment, what: "\(file) (\(key))"))
            } else if key.hasPrefix("_") {
                _ = dict.set(.string(key), raw)
            } else if case .dict = raw {
                continue
            } else if let answer = answers[key] {
                _ = dict.set(.string(key), Self.jinjaValue(answer))
            }
        }
        for (key, raw) in entries where !key.hasPrefix("_") {
            guard case .dict = raw else { continue }
            var value = try render(raw, context: dict, environment: environment, what: "\(file) (\(key))")
            if case let .object(override)? = answers[key] { value = Self.merged(value, override) }
            _ = dict.set(.string(key), value)
        }
        return dict
    }

    /// A value of `cookiecutter.json` rendered over the answers so far (cookiecutter's `render_variable`).
    func render(_ raw: JinjaValue, context: JinjaDict, environment: JinjaEnvironment, what: String) throws -> JinjaValue {
        switch raw {
        case .none, .bool: return raw
        case let .dict(dict):
            let out = JinjaDict()
            for entry in dict.entries {
                let key = try render(entry.key, context: context, environment: environment, what: what)
                _ = out.set(key, try render(entry.value, context: context, environment: environment, what: what))
            }
            return .dict(out)
        case let .list(list):
            return .list(JinjaList(try list.items.map { try render($0, context: context, environment: environment, what: what) }))
        case let .string(text):
            return .string(try renderText(text, context: context, environment: environment, what: what))
        default:
            return .string(try renderText(Self.scalarText(raw) ?? "", context: context, environment: environment, what: what))
        }
    }

    func renderText(_ text: String, context: JinjaDict, environment: JinjaEnvironment, what: String) throws -> String {
        guard text.contains("{") else { return text }
        do {
            return try JinjaTemplate(source: text, name: what, environment: environment).render([("cookiecutter", .dict(context))])
        } catch let error as JinjaError {
            throw TemplateError(what, "\(error)", kind: .invalidFile)
        }
    }

    /// A dict variable with what the user gave over it: each given key replaces (or, for an object over a dict,
    /// merges into) the template's.
    static func merged(_ value: JinjaValue, _ override: [String: JSONValue]) -> JinjaValue {
        guard case let .dict(base) = value else { return jinjaValue(.object(override)) }
        let out = base.copy()
        for (key, given) in override.sorted(by: { $0.key < $1.key }) {
            if case let .object(inner) = given, let existing = out.get(.string(key)) {
                _ = out.set(.string(key), merged(existing, inner))
            } else {
                _ = out.set(.string(key), jinjaValue(given))
            }
        }
        return .dict(out)
    }

    /// The names of the dict variables (objects at the top of `cookiecutter.json`).
    func dictVariables(file: String) throws -> Set<String> {
        Set(try entries(file: file).compactMap { key, value in
            if case .dict = value, !key.hasPrefix("_") { return key } else { return nil }
        })
    }

    static func scalarText(_ value: JinjaValue) -> String? {
        switch value {
        case let .string(text): return text
        case let .int(number): return String(number)
        case let .float(number): return pythonFloat(number)
        case let .bool(flag): return flag ? "True" : "False"
        default: return nil
        }
    }

    /// Python's `str()` of a float for the values a cookiecutter.json holds.
    static func pythonFloat(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e16, let whole = Int(exactly: number) { return "\(whole).0" }
        return "\(number)"
    }

    static func jinjaValue(_ value: JSONValue) -> JinjaValue {
        switch value {
        case .null: return .none
        case let .bool(flag): return .bool(flag)
        case let .number(number):
            if number == number.rounded(), abs(number) < 9e15, let whole = Int(exactly: number) { return .int(whole) }
            return .float(number)
        case let .string(text): return .string(text)
        case let .array(items): return .list(JinjaList(items.map(jinjaValue)))
        case let .object(members): return .dict(JinjaDict(members.sorted { $0.key < $1.key }.map { ($0.key, jinjaValue($0.value)) }))
        }
    }

    /// Whether `path` (relative to the project folder) matches one of `_copy_without_render` (Python's `fnmatch`:
    /// `*` and `?` cross `/`, `[…]` classes).
    static func fnmatch(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern.unicodeScalars), s = Array(path.unicodeScalars)
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let known = memo[key] { return known }
            var result: Bool
            if i == p.count {
                result = j == s.count
            } else if p[i] == "*" {
                result = match(i + 1, j) || (j < s.count && match(i, j + 1))
            } else if j == s.count {
                result = false
            } else if p[i] == "?" {
                result = match(i + 1, j + 1)
            } else if p[i] == "[", let close = p[(i + 1)...].firstIndex(of: "]"), close > i + 1 {
                var set = Array(p[(i + 1)..<close])
                let negate = set.first == "!"
                if negate { set.removeFirst() }
                var hit = false, k = 0
                while k < set.count {
                    if k + 2 < set.count, set[k + 1] == "-" {
                        if set[k].value <= s[j].value && s[j].value <= set[k + 2].value { hit = true }
                        k += 3
                    } else {
                        if set[k] == s[j] { hit = true }
                        k += 1
                    }
                }
                result = hit != negate && match(close + 1, j + 1)
            } else {
                result = p[i] == s[j] && match(i + 1, j + 1)
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }
}

/// One question of a cookiecutter template, as Folio's `template.json` would state it.
struct CookiecutterVariable: Encodable {
    let name: String
    let type: String
    let `default`: JSONValue?
    let choices: [String]?
}
