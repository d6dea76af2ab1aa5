import FoundationEssentials
import FolioCore
import FolioJinja

/// A copier template: `copier.yml` (or `copier.yaml`) at the template's root, its questions and `_settings`, rendered
/// with `FolioJinja` as copier 9 renders it: files ending in `_templates_suffix` (`.jinja`) rendered and the suffix
/// dropped, others copied; every path part rendered, a part that renders empty skipping what is under it; `_exclude`
/// (gitignore patterns, rendered) over the rendered paths; the answers file from the template's own
/// `{{_copier_conf.answers_file}}.jinja`. `_tasks` and `_migrations` run only when trusted, confined (`TemplateProgram`).
public struct CopierTemplate: Sendable {
    /// The configuration file's path in the template (`copier.yml` or `copier.yaml`).
    public let configPath: String
    /// Every file of the template by path: the configuration, `!include`d YAML, includes and imports.
    let sources: [String: Data]
    /// The `_tasks` commands, as written (to list them; `Template.programs` renders them).
    public let tasks: [String]
    /// Whether the template has `_migrations` (`Template.migrations` picks those an update runs).
    public let hasMigrations: Bool

    /// The settings Folio reads from `copier.yml`, each as copier 9 does.
    static let supportedSettings: Set<String> = [
        "subdirectory", "templates_suffix", "exclude", "skip_if_exists", "answers_file", "envops", "jinja_extensions",
        "message_before_copy", "message_after_copy", "message_before_update", "message_after_update", "tasks", "migrations",
        "min_copier_version", "secret_questions", "preserve_symlinks",
    ]
    /// Settings copier has that change what it writes and Folio does not build.
    static let refusedSettings: Set<String> = ["external_data"]
    /// copier's `DEFAULT_EXCLUDE`, used when the template sets no `_exclude` and no `_subdirectory`.
    static let defaultExclude = ["copier.yaml", "copier.yml", "~*", "*.py[co]", "__pycache__", ".git", ".DS_Store", ".svn"]
    /// The keys a question may have (copier's `Question`); another is refused.
    static let questionKeys: Set<String> = [
        "type", "help", "default", "choices", "multiselect", "when", "validator", "secret", "placeholder", "multiline", "qmark", "ask",
    ]

    init(configPath: String, sources: [String: Data]) throws {
        self.configPath = configPath
        self.sources = sources
        let config = try CopierConfig(template: (configPath, sources))
        tasks = config.tasks
        hasMigrations = config.settings["migrations"] != nil
    }

    /// The parsed configuration (parsed again on each use: `JinjaValue`s are not shared between tasks).
    func config() throws -> CopierConfig { try CopierConfig(template: (configPath, sources)) }
}

/// One question of `copier.yml`, as written (its templated fields rendered when asked).
struct CopierQuestion {
    let name: String
    var type: JinjaValue = .string("")
    var help: JinjaValue = .string("")
    /// nil when the question has no default (copier's `MISSING`).
    var `default`: JinjaValue?
    var choices: JinjaValue?
    var multiselect = false
    var when: JinjaValue = .bool(true)
    var ask: JinjaValue = .bool(true)
    var validator = ""
    var secret = false
    var placeholder: JinjaValue = .string("")
}

/// `copier.yml` read: its documents merged as copier merges them, split into settings and questions.
struct CopierConfig {
    var settings: [String: JinjaValue] = [:]
    var questions: [CopierQuestion] = []
    var tasks: [String] = []

    init(template: (path: String, sources: [String: Data])) throws {
        let file = template.path
        var reader = YAMLReader()
        reader.include = { pattern, at in try Self.include(pattern, at: at, sources: template.sources, reader: reader) }
        let documents = try reader.documents(template.sources[file] ?? Data(), file: file)
        let merged = try Self.merge(documents, file: file)
        for (key, value) in merged {
            if key.hasPrefix("_") {
                let name = String(key.dropFirst())
                // copier ignores settings it does not know (templates keep YAML anchors under `_anchors:`); one it
                // knows and Folio does not build would render differently, so it is refused.
                if CopierTemplate.refusedSettings.contains(name) {
                    throw TemplateError(file, "the copier setting \(key) is not supported by Folio", kind: .unsupported)
                }
                settings[name] = value
            } else {
                questions.append(try Self.question(key, value, file: file))
            }
        }
        if case let .list(secrets)? = settings["secret_questions"] {
            let names = Set(secrets.items.compactMap { if case let .string(name) = $0 { return name } else { return nil } })
            for index in questions.indices where names.contains(questions[index].name) { questions[index].secret = true }
        }
        tasks = try Self.tasks(settings["tasks"], file: file)
    }

    /// The documents flattened (an `!include` at the top is its documents) and merged: later keys win; `_exclude`,
    /// `_jinja_extensions`, `_secret_questions` and `_skip_if_exists` are joined across documents.
    static func merge(_ documents: [JinjaValue], file: String) throws -> [(String, JinjaValue)] {
        var flat: [JinjaDict] = []
        func flatten(_ value: JinjaValue) throws {
            switch value {
            case .none: return
            case let .dict(dict): flat.append(dict)
            case let .list(list): for item in list.items { try flatten(item) }
            default: throw TemplateError(file, "a document is not a mapping of questions and settings", kind: .invalidFile)
            }
        }
        for document in documents { try flatten(document) }
        let joined: Set<String> = ["_exclude", "_jinja_extensions", "_secret_questions", "_skip_if_exists"]
        var order: [String] = [], values: [String: JinjaValue] = [:], lists: [String: [JinjaValue]] = [:]
        for dict in flat {
            for (key, value) in dict.entries {
                guard case let .string(name) = key else { throw TemplateError(file, "the key \(key.pythonRepr) is not text", kind: .invalidFile) }
                if values[name] == nil && lists[name] == nil { order.append(name) }
                if joined.contains(name) {
                    guard case let .list(items) = value else { throw TemplateError(file, "\(name) must be a list", kind: .invalidFile) }
                    lists[name, default: []] += items.items
                } else {
                    values[name] = value
                }
            }
        }
        return order.map { name in (name, lists[name].map { .list(JinjaList($0)) } ?? values[name] ?? .none) }
    }

    /// `!include PATTERN`: the documents of every YAML file of the template the glob names (relative, inside it).
    static func include(_ pattern: String, at: String, sources: [String: Data], reader: YAMLReader) throws -> [JinjaValue] {
        guard !pattern.hasPrefix("/"), !pattern.split(separator: "/").contains("..") else {
            throw TemplateError(at, "!include \(pattern) must name files inside the template", kind: .refusedPath)
        }
        var nested = reader
        nested.maxValues = reader.maxValues / 2
        guard nested.maxValues > 1000 else { throw TemplateError(at, "!include nests too deeply", kind: .invalidFile) }
        var out: [JinjaValue] = []
        for path in sources.keys.sorted() where CopierPaths.glob(pattern, path) {
            for document in try nested.documents(sources[path] ?? Data(), file: path) {
                if case .none = document { continue }
                if case let .list(items) = document { out += items.items } else { out.append(document) }
            }
        }
        return out
    }

    static func question(_ name: String, _ value: JinjaValue, file: String) throws -> CopierQuestion {
        var question = CopierQuestion(name: name)
        guard case let .dict(spec) = value else {
            question.default = value
            return question
        }
        for (key, field) in spec.entries {
            guard case let .string(key) = key, CopierTemplate.questionKeys.contains(key) else {
                throw TemplateError(file, "question '\(name)' has \(key.pythonRepr), which copier questions do not have", kind: .invalidFile)
            }
            switch key {
            case "type": question.type = field
            case "help": question.help = field
            case "default": question.default = field
            case "choices": question.choices = field
            case "multiselect": question.multiselect = Self.flag(field)
            case "when": question.when = field
            case "ask": question.ask = field
            case "validator":
                guard case let .string(text) = field else { throw TemplateError(file, "question '\(name)': validator must be text", kind: .invalidFile) }
                question.validator = text
            case "secret": question.secret = Self.flag(field)
            case "placeholder": question.placeholder = field
            default: break  // multiline, qmark: how a prompt looks only
            }
        }
        if question.secret, question.default == nil {
            throw TemplateError(file, "question '\(name)' is secret and has no default (copier requires one)", kind: .invalidFile)
        }
        return question
    }

    static func flag(_ value: JinjaValue) -> Bool {
        if case let .bool(flag) = value { return flag }
        return CopierValues.castToBool(value)
    }

    /// `_tasks` as their commands read (a string, a list of words, or `{command:, when:}`).
    static func tasks(_ value: JinjaValue?, file: String) throws -> [String] {
        guard let value else { return [] }
        guard case let .list(list) = value else { throw TemplateError(file, "_tasks must be a list", kind: .invalidFile) }
        return list.items.map { task in
            switch task {
            case let .string(command): return command
            case let .list(words): return words.items.map(\.pythonString).joined(separator: " ")
            case let .dict(spec): return spec["command"].map { if case let .list(w) = $0 { w.items.map(\.pythonString).joined(separator: " ") } else { $0.pythonString } } ?? "?"
            default: return task.pythonString
            }
        }
    }
}
