import FoundationEssentials
import FolioBasics
import FolioCore
import FolioJinja

extension CopierTemplate {
    /// The environment copier renders with: keep_trailing_newline, copier's default extensions (the Ansible
    /// filters) and `_jinja_extensions`, `_envops`, the whole template as the loader's root.
    func environment(config: CopierConfig, file: String, limits: JinjaLimits? = nil) throws -> JinjaEnvironment {
        var options = JinjaOptions()
        if case let .dict(envops)? = config.settings["envops"] {
            let named = JinjaDict()
            for (key, value) in envops.entries {
                if case .string("undefined") = key, case let .string(kind) = value {
                    guard ["jinja2.Undefined", "jinja2.StrictUndefined"].contains(kind) else {
                        throw TemplateError(file, "_envops: undefined \(kind) is not one copier takes", kind: .invalidFile)
                    }
                    _ = named.set(key, .string(String(kind.dropFirst("jinja2.".count))))
                } else {
                    _ = named.set(key, value)
                }
            }
            do { options = try JinjaOptions(jinjaNames: named) } catch { throw TemplateError(file, "_envops: \(error)", kind: .unsupported) }
        } else if config.settings["envops"] != nil {
            throw TemplateError(file, "_envops must be a mapping", kind: .invalidFile)
        }
        if config.settings["envops"].flatMap({ if case let .dict(d) = $0 { d["keep_trailing_newline"] } else { nil } }) == nil {
            options.keepTrailingNewline = true
        }
        options.extensions.formUnion(JinjaExtension.copierDefaults)
        if case let .list(wanted)? = config.settings["jinja_extensions"] {
            for item in wanted.items {
                guard case let .string(name) = item, let known = JinjaExtension(rawValue: name) else {
                    throw TemplateError(file, "needs the Jinja extension \(item.pythonString), which Folio does not have", kind: .unsupported)
                }
                options.extensions.insert(known)
            }
        }
        if let limits { options.limits = limits }
        var texts: [String: String] = [:]
        for (path, data) in sources { if let text = String(validating: [UInt8](data), as: UTF8.self) { texts[path] = text } }
        let lookup = texts
        return JinjaEnvironment(options: options, loader: { lookup[$0] })
    }
}

/// One run of a copier template's questionnaire and render, as copier's `Worker` does it: each question in order,
/// its `when`, default, choices and validator rendered over the answers so far; a question whose `when` is false
/// still takes its default (copier's computed values) but is left out of the answers file.
final class CopierSession {
    let template: Template
    let copier: CopierTemplate
    let config: CopierConfig
    let environment: JinjaEnvironment
    let file: String
    private let folderName: String
    private(set) var answers: [(name: String, value: JinjaValue)] = [] { didSet { cachedContext = nil; cachedAnswersFile = nil } }
    private(set) var hidden: Set<String> = [] { didSet { cachedContext = nil; cachedAnswersFile = nil } }
    private var cachedAnswersFile: String?
    private var cachedContext: [(String, JinjaValue)]?

    init(template: Template, copier: CopierTemplate, folderName: JSONValue?) throws {
        self.template = template
        self.copier = copier
        config = try copier.config()
        file = template.describe(copier.configPath)
        let limits = JinjaLimits(maxOutputBytes: template.renderLimits.maxOutputBytes, maxDepth: 64, maxSteps: 2_000_000)
        environment = try copier.environment(config: config, file: file, limits: limits)
        if case let .string(name)? = folderName { self.folderName = name } else { self.folderName = "" }
    }

    // MARK: Questions

    /// Answers every question: `given` first (checked as copier checks `--data`), then defaults or the prompt.
    func ask(given: [String: JSONValue], mode: AnswerMode, variables: [TemplateVariable]) throws {
        answers = []
        hidden = []
        for question in config.questions {
            let variable = variables.first { $0.name == question.name }
            if let value = try answer(question, given: given[question.name], mode: mode, variable: variable) {
                answers.append((question.name, value))
            }
        }
    }

    private func answer(_ question: CopierQuestion, given: JSONValue?, mode: AnswerMode, variable: TemplateVariable?) throws -> JinjaValue? {
        let type = try typeName(question)
        let when = try flag(question.when, what: "when of \(question.name)")
        let fallback = try defaultAnswer(question, type: type, validate: when)
        if !when {
            hidden.insert(question.name)
            if fallback == nil { return nil }
        }
        if let given {
            let value = try parse(question, CopierValues.jinja(given, type: type), type: type)
            try validate(question, value)
            return value
        }
        if !(try flag(question.ask, what: "ask of \(question.name)")) || !when { return fallback }
        switch mode {
        case .defaults:
            guard let fallback else {
                throw TemplateError(template.manifest.id, "no answer for '\(question.name)' and no default", kind: .missingAnswer(variable: question.name))
            }
            return fallback
        case let .ask(prompt):
            guard let variable else { return fallback }
            var problem: String?
            while true {
                let text = try prompt(variable, fallback.map { Self.shown($0, type: type) }, problem)
                if text.isEmpty, let fallback { return fallback }
                do {
                    let value = try parse(question, .string(text), type: type)
                    try validate(question, value)
                    return value
                } catch let error as TemplateError {
                    problem = error.message
                }
            }
        }
    }

    /// A form's view of `given` (answers as typed): the questions a `when` hides, each given answer's problem (its
    /// type, choices or `validator`, worded as the prompt words it), and each question's default over the answers
    /// before it — in order, as `ask` goes, an answer refused counting as not given. Never throws: a question whose
    /// `when` or default cannot be rendered gets that as its problem.
    func check(given: [String: JSONValue]) -> CopierFormCheck {
        answers = []
        hidden = []
        var out = CopierFormCheck()
        for question in config.questions {
            do {
                let type = try typeName(question)
                let when = try flag(question.when, what: "when of \(question.name)")
                let fallback = try defaultAnswer(question, type: type, validate: false)
                if let fallback { out.defaults[question.name] = try formText(fallback, question: question, type: type) }
                if !when { hidden.insert(question.name); out.hidden.insert(question.name) }
                var value = fallback
                if when, let typed = given[question.name] {
                    do {
                        let parsed = try parse(question, CopierValues.jinja(typed, type: type), type: type)
                        try validate(question, parsed)
                        value = parsed
                    } catch let error as TemplateError {
                        out.problems[question.name] = error.message
                    }
                }
                if let value { answers.append((question.name, value)) }
            } catch {
                out.problems[question.name] = (error as? TemplateError)?.message ?? "\(error)"
            }
        }
        return out
    }

    /// A value as a form holds it, the way the answers Folio records are shown (`TemplateVariable.display`): a
    /// `json` or `yaml` answer as its JSON text; a choice (or a multiselect's items) by its label, as the form lists
    /// the choices.
    private func formText(_ value: JinjaValue, question: CopierQuestion, type: String) throws -> String {
        if ["json", "yaml"].contains(type), let text = try? JinjaTemplate(source: "{{ value | to_json }}", environment: environment).render([("value", value)]) {
            return text
        }
        if let choices = try choices(question, type: type) {
            func label(_ item: JinjaValue) -> String? {
                choices.first { (try? CopierValues.cast($0.value, type: type)).map { JinjaValue.pythonEquals($0, item) } ?? false }?.label
            }
            if case let .list(items) = value, question.multiselect {
                let labels = items.items.compactMap(label)
                if labels.count == items.items.count { return labels.joined(separator: ",") }
            } else if let text = label(value) {
                return text
            }
        }
        return CopierValues.json(value).map(TemplateVariable.display) ?? Self.shown(value, type: type)
    }

    /// The default of `name` once `after` is answered (nil when it has none).
    func defaultValue(of name: String, after given: [String: JSONValue]) throws -> JSONValue? {
        answers = []
        for question in config.questions {
            let type = try typeName(question)
            if question.name == name { return try defaultAnswer(question, type: type, validate: false).flatMap(CopierValues.json) }
            if let value = given[question.name] { answers.append((question.name, try parse(question, CopierValues.jinja(value, type: type), type: type))) }
        }
        return nil
    }

    /// The answers as Folio records them: every value (the hidden computed ones too, so a later render is the
    /// same), and the destination's folder name copier's `_folder_name` gave.
    /// A `json` or `yaml` answer is recorded as its JSON text, which keeps its mappings' order (copier's
    /// rendering shows it) and reads back as the same value.
    func recorded() -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        let structured = Set(config.questions.filter { ["json", "yaml"].contains((try? typeName($0)) ?? "") }.map(\.name))
        for (name, value) in answers {
            if structured.contains(name), let text = try? JinjaTemplate(source: "{{ value | to_json }}", environment: environment).render([("value", value)]) {
                out[name] = .string(text)
            } else if let json = CopierValues.json(value) {
                out[name] = json
            }
        }
        out["_folder_name"] = .string(folderName)
        return out
    }

    private func typeName(_ question: CopierQuestion) throws -> String {
        let raw = try renderValue(question.type, what: "type of \(question.name)")
        let name = raw.pythonString.isEmpty ? Self.inferredType(question.default) : raw.pythonString
        guard CopierValues.types.contains(name) else {
            throw TemplateError(file, "question '\(question.name)' has the type \(name), which copier does not have", kind: .invalidFile)
        }
        return name
    }

    /// copier's type from the default's Python type: `str`, `int`, `float`, `bool`, else `yaml`.
    static func inferredType(_ value: JinjaValue?) -> String {
        switch value {
        case .string?: return "str"
        case .int?: return "int"
        case .float?: return "float"
        case .bool?: return "bool"
        default: return "yaml"
        }
    }

    /// The type when it is written plainly (for the manifest); templated types read as text.
    static func staticTypeName(_ question: CopierQuestion) -> String {
        if case let .string(name) = question.type, !name.isEmpty { return name.contains("{") ? "str" : name }
        return inferredType(question.default)
    }

    /// The choices' labels when they are written plainly (for the manifest); nil when there are none or they are
    /// templated.
    static func staticChoiceLabels(_ question: CopierQuestion) -> [String]? {
        guard let choices = question.choices else { return nil }
        var labels: [String] = []
        switch choices {
        case let .dict(dict): labels = dict.entries.map { $0.key.pythonString }
        case let .list(list):
            for item in list.items {
                if case let .list(pair) = item, pair.items.count == 2 { labels.append(pair.items[0].pythonString) } else { labels.append(item.pythonString) }
            }
        default: return nil
        }
        guard !labels.isEmpty, !labels.contains(where: { $0.contains("{") }), Set(labels).count == labels.count else { return nil }
        return labels
    }

    private func defaultAnswer(_ question: CopierQuestion, type: String, validate check: Bool) throws -> JinjaValue? {
        guard let raw = question.default else { return nil }
        let value = try parse(question, try renderValue(raw, what: "default of \(question.name)"), type: type)
        if check, !question.secret { try validate(question, value) }
        return value
    }

    /// copier's `parse_answer`: cast to the type, a label taken for its value, checked against the choices (a
    /// multiselect's items in the choices' order).
    private func parse(_ question: CopierQuestion, _ value: JinjaValue, type: String) throws -> JinjaValue {
        let choices = try self.choices(question, type: type)
        func fail(_ why: String) -> TemplateError { TemplateError(template.manifest.id, "variable '\(question.name)': \(why)", kind: .invalidAnswer) }
        func one(_ item: JinjaValue) throws -> JinjaValue {
            if let choices, case let .string(text) = item, let labelled = choices.first(where: { $0.label == text }),
               !choices.contains(where: { JinjaValue.pythonEquals($0.value, item) }) {
                return (try? CopierValues.cast(labelled.value, type: type)) ?? labelled.value
            }
            let cast: JinjaValue
            do { cast = try CopierValues.cast(item, type: type) } catch let error as CopierValues.CastError { throw fail(error.why) }
            guard let choices else { return cast }
            guard choices.contains(where: { (try? CopierValues.cast($0.value, type: type)).map { JinjaValue.pythonEquals($0, cast) } ?? false }) else {
                throw fail("\(cast.pythonRepr) is not in [\(choices.map(\.value.pythonRepr).joined(separator: ", "))]")
            }
            return cast
        }
        guard question.multiselect else { return try one(value) }
        var items: [JinjaValue]
        switch value {
        case let .list(list): items = list.items
        case let .string(text): items = Self.shallowList(text)
        default: items = [value]
        }
        items = try items.map(one)
        let ordered = (choices ?? []).compactMap { try? CopierValues.cast($0.value, type: type) }.filter { choice in items.contains { JinjaValue.pythonEquals($0, choice) } }
        return .list(JinjaList(choices == nil ? items : ordered))
    }

    /// A multiselect answer typed as text: a YAML flow list (`[a, b]`) or comma-separated words.
    static func shallowList(_ text: String) -> [JinjaValue] {
        if let parsed = try? YAMLReader().documents(Data(text.utf8), file: "answer").first, case let .list(list) = parsed { return list.items }
        return text.split(separator: ",").map { .string($0.trimming(.whitespaces)) }.filter { if case .string("") = $0 { false } else { true } }
    }

    /// The choices rendered: label and value, as copier formats them (a dict is label → value; a pair list too).
    private func choices(_ question: CopierQuestion, type: String) throws -> [(label: String, value: JinjaValue)]? {
        guard var raw = question.choices else { return nil }
        if case let .string(text) = raw {
            let rendered = try renderString(text, what: "choices of \(question.name)")
            raw = (try? YAMLReader().documents(Data(rendered.utf8), file: "choices").first) ?? .none
        }
        var pairs: [(JinjaValue, JinjaValue)] = []
        switch raw {
        case let .dict(dict): pairs = dict.entries.map { ($0.key, $0.value) }
        case let .list(list):
            for item in list.items {
                if case let .list(pair) = item, pair.items.count == 2 { pairs.append((pair.items[0], pair.items[1])) } else { pairs.append((item, item)) }
            }
        default: throw TemplateError(file, "question '\(question.name)': choices must be a list or a mapping", kind: .invalidFile)
        }
        if pairs.isEmpty { return nil }
        return try pairs.map { label, value in
            if case .dict = value { throw TemplateError(file, "question '\(question.name)': choices with validators are not supported by Folio", kind: .unsupported) }
            return (try renderValue(label, what: "choices of \(question.name)").pythonString, try renderValue(value, what: "choices of \(question.name)"))
        }
    }

    private func validate(_ question: CopierQuestion, _ value: JinjaValue) throws {
        guard !question.validator.isEmpty else { return }
        let message = try renderString(question.validator, what: "validator of \(question.name)", extra: [(question.name, value)])
            .trimming(.whitespacesAndNewlines)
        if !message.isEmpty {
            throw TemplateError(template.manifest.id, "variable '\(question.name)': \(message)", kind: .invalidAnswer)
        }
    }

    private func flag(_ value: JinjaValue, what: String) throws -> Bool {
        if case let .bool(flag) = value { return flag }
        return CopierValues.castToBool(try renderValue(value, what: what))
    }

    /// A value as the prompt shows it for editing.
    static func shown(_ value: JinjaValue, type: String) -> String {
        switch value {
        case let .bool(flag) where type == "bool": return flag ? "yes" : "no"
        case let .list(list): return list.items.map(\.pythonString).joined(separator: ",")
        case .none: return ""
        default: return value.pythonString
        }
    }

    // MARK: Rendering

    /// copier's `_copier_answers`: `_commit` (a git source), `_src_path`, and the answers neither hidden nor secret.
    func rememberedAnswers() -> JinjaDict {
        let out = JinjaDict()
        if let commit = copierCommit { _ = out.set(.string("_commit"), .string(commit)) }
        _ = out.set(.string("_src_path"), .string(template.source.location))
        let secret = Set(config.questions.filter(\.secret).map(\.name))
        for (name, value) in answers where !hidden.contains(name) && !secret.contains(name) { _ = out.set(.string(name), value) }
        return out
    }

    /// copier's `_commit` (`git describe --tags --always`) for a template read from git: the version tag it was
    /// resolved at, `TAG-N-gHASH` for a commit N past the nearest tag, else the commit's abbreviated id; nil for a
    /// plain folder (which copier records without one).
    var copierCommit: String? {
        guard template.source.isRemote || template.ref != nil else { return nil }
        if let ref = template.ref, SemanticVersion(ref) != nil { return ref }
        return template.describedCommit ?? String(template.commit.prefix(7))
    }

    /// The answers file's path (`_answers_file`, rendered; `.copier-answers.yml` by default).
    func answersFile() throws -> String {
        if let cachedAnswersFile { return cachedAnswersFile }
        guard let raw = config.settings["answers_file"] else { return ".copier-answers.yml" }
        let path = try renderString(raw.pythonString, what: "_answers_file", answersFile: "")
        cachedAnswersFile = path
        return path
    }

    /// What templates see: the answers, `_copier_answers`, `_copier_conf`, `_folder_name`, `_copier_python`,
    /// `_copier_phase`.
    func context(extra: [(String, JinjaValue)] = [], answersFile: String? = nil) throws -> [(String, JinjaValue)] {
        // Built once per set of answers: every path part and file renders in it.
        if answersFile == nil, let cachedContext { return cachedContext + extra }
        let made = try makeContext(answersFile: answersFile)
        if answersFile == nil { cachedContext = made }
        return made + extra
    }

    private func makeContext(answersFile: String?) throws -> [(String, JinjaValue)] {
        let conf = JinjaDict()
        _ = conf.set(.string("answers_file"), .string(try answersFile ?? self.answersFile()))
        _ = conf.set(.string("src_path"), .string(template.source.location))
        _ = conf.set(.string("dst_path"), .string(folderName))
        _ = conf.set(.string("sep"), .string("/"))
        _ = conf.set(.string("os"), .string("linux"))
        _ = conf.set(.string("vcs_ref"), template.ref.map(JinjaValue.string) ?? .none)
        _ = conf.set(.string("vcs_ref_hash"), copierCommit == nil ? .none : .string(template.commit))
        _ = conf.set(.string("defaults"), .bool(true))
        var out: [(String, JinjaValue)] = answers.map { ($0.name, $0.value) }
        out += [("_copier_answers", .dict(rememberedAnswers())), ("_copier_conf", .dict(conf)), ("_folder_name", .string(folderName)),
                ("_copier_python", .string("python3")), ("_copier_phase", .string("render"))]
        return out
    }

    func renderString(_ text: String, what: String, extra: [(String, JinjaValue)] = [], answersFile: String? = nil) throws -> String {
        guard text.contains("{") else { return text }
        return try template.renderJinjaText(text, context: try context(extra: extra, answersFile: answersFile), environment: environment, where_: "\(file) (\(what))")
    }

    /// copier's `render_value`: text rendered, a list item by item, anything else as it is.
    func renderValue(_ value: JinjaValue, what: String) throws -> JinjaValue {
        switch value {
        case let .string(text): return .string(try renderString(text, what: what))
        case let .list(list): return .list(JinjaList(try list.items.map { try renderValue($0, what: what) }))
        default: return value
        }
    }
}
