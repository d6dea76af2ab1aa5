import FoundationEssentials
import FolioBasics
import FolioCore
import FolioJinja
import FolioGit

extension Template {
    /// Loads the copier template whose `copier.yml` (or `copier.yaml`) is `config` at `path` of `tree`: every file
    /// of its folder (copier reads includes from the whole template, and copies from `_subdirectory`), checked now:
    /// a setting, question key, type or Jinja extension Folio does not have refuses the template in one line.
    static func loadCopier(from tree: some TemplateTree, path: String, config entry: TreeEntry, resolved: ResolvedSource) throws -> Template {
        let prefix = path.isEmpty ? "" : path + "/"
        let configName = String(entry.path.dropFirst(prefix.count))
        let all = try readingTemplate("\(resolved.source.name): \(path.isEmpty ? tree.name : path)") { try tree.files(under: path) }
        let inside = all.filter { !$0.path.hasPrefix(".git/") && $0.path != ".git" }
        for entry in inside where entry.kind != .blob {
            throw TemplateError("\(resolved.source.name): \(prefix)\(entry.path)", "submodules are not allowed in templates", kind: .refusedPath)
        }
        let contents = try tree.contents(of: inside, naming: { "\(resolved.source.name): \(prefix)\($0.path)" })
        let files = zip(inside, contents).map { TemplateFile(path: $0.path, data: $1, mode: $0.mode) }
        var sources: [String: Data] = [:]
        for file in files where !file.isSymlink { sources[file.path] = file.data }
        let copier = try CopierTemplate(configPath: configName, sources: sources)
        let config = try copier.config()
        _ = try copier.environment(config: config, file: configName)  // an extension or option Folio lacks refuses it now
        let id = path.isEmpty ? CookiecutterTemplate.rootID(source: resolved.source.name) : String(path.split(separator: "/").last ?? "template")
        let manifest = try copierManifest(config, id: id, file: "\(resolved.source.name): \(prefix)\(configName)")
        var template = Template(manifest: manifest, path: path, source: resolved.source, commit: resolved.commit, ref: resolved.ref, files: files)
        template.copier = copier
        if let git = tree as? GitTemplateTree, let commit = ObjectID(hex: resolved.commit) {
            template.describedCommit = try? git.repository.describeWithTags(commit)
        }
        return template
    }

    /// The manifest Folio asks from: each question with its type, help, choices (by label) and secrecy; defaults,
    /// conditions and validators stay copier's, evaluated over the answers as they come.
    static func copierManifest(_ config: CopierConfig, id: String, file: String) throws -> TemplateManifest {
        struct Variable: Encodable {
            let name: String, type: String, help: String?, choices: [String]?, secret: Bool?
        }
        struct Made: Encodable { let id: String, name: String, summary: String, variables: [Variable] }
        let variables = config.questions.map { question -> Variable in
            let labels = CopierSession.staticChoiceLabels(question)
            let typeName = CopierSession.staticTypeName(question)
            let type = labels != nil ? (question.multiselect ? "multichoice" : "choice") : typeName == "bool" ? "bool" : typeName == "int" ? "int" : "string"
            var help: String?
            if case let .string(text) = question.help, !text.isEmpty, !text.contains("{") { help = text }
            return Variable(name: question.name, type: type, help: help, choices: labels, secret: question.secret ? true : nil)
        }
        let safeID = String(id.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" })
        let made = Made(id: safeID.isEmpty ? "copier" : safeID, name: id, summary: "a copier template", variables: variables)
        return try TemplateManifest.parse(try JSONEncoder().encode(made), file: file)
    }

    /// The answers of a copier template, asked in its order as copier asks them (see `CopierSession`).
    func copierAnswers(_ copier: CopierTemplate, given: [String: JSONValue], mode: AnswerMode, context: [String: JSONValue]) throws -> [String: JSONValue] {
        let session = try CopierSession(template: self, copier: copier, folderName: context["folder_name"])
        let declared = Set(session.config.questions.map(\.name))
        if let unknown = given.keys.sorted().first(where: { !declared.contains($0) && !$0.hasPrefix("_") }) {
            throw TemplateError(manifest.id, "unknown variable '\(unknown)' (the template asks for: \(session.config.questions.map(\.name).joined(separator: ", ")))", kind: .unknownVariable)
        }
        try session.ask(given: given, mode: mode, variables: manifest.variables)
        return session.recorded()
    }

    /// The default a copier question has after `answers` (for forms that show it before asking).
    func copierDefault(_ copier: CopierTemplate, for variable: TemplateVariable, answers: [String: JSONValue]) throws -> JSONValue? {
        let session = try CopierSession(template: self, copier: copier, folderName: answers["_folder_name"])
        return try session.defaultValue(of: variable.name, after: answers)
    }

    /// The files copier 9 would write for `answers` (which `copierAnswers` gave).
    func renderCopier(_ copier: CopierTemplate, answers: [String: JSONValue]) throws -> [(file: DocumentFile, source: String)] {
        let session = try CopierSession(template: self, copier: copier, folderName: answers["_folder_name"])
        try session.ask(given: answers, mode: .defaults, variables: manifest.variables)
        return try session.render()
    }
}

extension Template {
    /// A copier template's `_message_before_copy` or `_message_after_copy` (`setting` without its underscore),
    /// rendered with `answers`; nil when it has none. Untrusted text: show it as text.
    public func copierMessage(_ setting: String, answers: [String: JSONValue]) throws -> String? {
        guard let copier else { return nil }
        let session = try CopierSession(template: self, copier: copier, folderName: answers["_folder_name"])
        guard let raw = session.config.settings[setting], case let .string(text) = raw, !text.isEmpty else { return nil }
        try session.ask(given: answers, mode: .defaults, variables: manifest.variables)
        return try session.renderString(text, what: "_" + setting)
    }
}

extension Template {
    /// For a cookiecutter or copier template: each question's default once the others take theirs (computed over
    /// earlier answers, as the tools compute them), as a user would type it, and the questions not asked then (a
    /// copier `when` that is false); nil for Folio's own templates. For forms that show defaults before asking.
    public func computedDefaults(context: [String: JSONValue]) -> (defaults: [String: String], hidden: Set<String>)? {
        guard copier != nil || cookiecutter != nil else { return nil }
        guard let answers = try? self.answers(given: [:], mode: .defaults, context: context) else { return ([:], []) }
        var hidden: Set<String> = []
        if let copier, let session = try? CopierSession(template: self, copier: copier, folderName: context["folder_name"]) {
            if (try? session.ask(given: answers, mode: .defaults, variables: manifest.variables)) != nil { hidden = session.hidden }
        }
        return (answers.mapValues(TemplateVariable.display), hidden)
    }
}

/// What a form shows for a copier template while it is filled in (`Template.formCheck`).
public struct CopierFormCheck: Sendable, Equatable {
    /// The questions a `when` leaves unasked with the answers so far.
    public var hidden: Set<String> = []
    /// Each typed answer copier would refuse (its type, choices or `validator`), as the prompt words it.
    public var problems: [String: String] = [:]
    /// Each question's default over the answers before it, as a user would type it.
    public var defaults: [String: String] = [:]

    public init() {}
}

extension Template {
    /// For a copier template, the form's state with `given` typed (text, as a form holds it): which questions to
    /// hide, which answers are refused and why, what each default is now; nil for other templates. Evaluated in
    /// question order as copier asks, so a `when`, `validator` or default sees the answers before it.
    public func formCheck(given: [String: JSONValue], context: [String: JSONValue]) -> CopierFormCheck? {
        guard let copier, let session = try? CopierSession(template: self, copier: copier, folderName: context["folder_name"]) else { return nil }
        return session.check(given: given)
    }
}
