import FoundationEssentials
import FolioCore
import FolioJinja

/// A program a template runs around its files: one of cookiecutter's hooks (`hooks/pre_gen_project.py`,
/// `post_gen_project.sh`, …, rendered with the answers as cookiecutter renders them) or one of copier's `_tasks`.
/// Folio runs them only when the user trusts the template, and then only confined (`TemplateProgramRun`).
public struct TemplateProgram: Sendable, Equatable {
    public enum Stage: Sendable, Equatable {
        /// Before the files are written (cookiecutter's `pre_gen_project`), in the empty project folder.
        case beforeFiles
        /// After the files are written (cookiecutter's `post_gen_project`, copier's tasks), in the project folder.
        case afterFiles
    }

    /// What the template calls it: `hooks/post_gen_project.py`, `task 1`.
    public var name: String
    public var stage: Stage
    /// The program and its arguments; `scriptPlaceholder` stands for the path of `script` once written.
    public var arguments: [String]
    /// A script the program runs (a rendered hook), with the name to write it under.
    public var script: (name: String, text: String)?
    /// The folder it runs in, relative to the project's (empty: the project's).
    public var folder: String
    /// Variables added to its environment (copier's `STAGE`).
    public var environment: [String: String]

    public static let scriptPlaceholder = "\u{0}script"

    /// What it runs, shown as text.
    public var shown: String { script.map { "\(name) (\($0.name))" } ?? arguments.joined(separator: " ") }

    public static func == (a: TemplateProgram, b: TemplateProgram) -> Bool {
        a.name == b.name && a.stage == b.stage && a.arguments == b.arguments && a.script?.name == b.script?.name
            && a.script?.text == b.script?.text && a.folder == b.folder && a.environment == b.environment
    }
}

extension Template {
    /// The programs this template runs with `answers`, in order: cookiecutter's hooks (pre, then post) or copier's
    /// tasks whose `when` holds (cookiecutter's `pre_prompt` runs before the questions: `prePromptHook`). A hook in a
    /// language other than Python or shell is refused in one line naming it.
    /// With `updating`, the programs an update runs on each rendering it merges (copier's `_tasks`, with
    /// `_copier_operation` `update`; cookiecutter's hooks are not run on updates, as cruft does not).
    public func programs(answers: [String: JSONValue], updating: Bool = false) throws -> [TemplateProgram] {
        if let cookiecutter { return updating ? [] : try cookiecutterPrograms(cookiecutter, answers: answers) }
        if let copier { return try copierSession(copier, answers: answers).tasks(operation: updating ? "update" : "copy") }
        return []
    }

    /// The `_migrations` an update from `old` to this version runs with `answers`, before the update is merged and
    /// after, as copier 9 picks them (none unless both versions are PEP 440 version tags, or for other templates).
    public func migrations(from old: Template, answers: [String: JSONValue]) throws -> (before: [TemplateProgram], after: [TemplateProgram]) {
        guard let copier, let oldCopier = old.copier else { return ([], []) }
        let session = try copierSession(copier, answers: answers)
        let oldSession = try old.copierSession(oldCopier, answers: answers)
        guard let from = oldSession.copierCommit, let to = session.copierCommit,
              let pep440From = PEP440Version(from), let pep440To = PEP440Version(to) else { return ([], []) }
        let versions = CopierUpdateVersions(from: from, to: to, pep440From: pep440From, pep440To: pep440To)
        return (try session.migrations(stage: "before", versions: versions), try session.migrations(stage: "after", versions: versions))
    }

    private func cookiecutterPrograms(_ cookiecutter: CookiecutterTemplate, answers: [String: JSONValue]) throws -> [TemplateProgram] {
        var out: [TemplateProgram] = []
        let environment = cookiecutter.environment(files: files)
        let context = try cookiecutter.context(answers: answers, environment: environment, file: describe("cookiecutter.json"))
        for stage in ["pre_gen_project", "post_gen_project"] {
            for hook in cookiecutter.hooks where (hook.split(separator: "/").last.map(String.init) ?? "").hasPrefix(stage + ".") {
                let name = String(hook.split(separator: "/").last ?? "")
                let interpreter: String
                switch name.split(separator: ".").last {
                case "py": interpreter = "python3"
                case "sh": interpreter = "sh"
                default: throw TemplateError(describe(hook), "is a hook in a language Folio does not run (only Python and shell)", kind: .unsupported)
                }
                guard let source = cookiecutter.hookSources[hook] else { continue }
                let text = try cookiecutter.renderText(source, context: context, environment: environment, what: describe(hook))
                out.append(TemplateProgram(name: hook, stage: stage == "pre_gen_project" ? .beforeFiles : .afterFiles,
                                           arguments: [interpreter, TemplateProgram.scriptPlaceholder], script: (name, text), folder: "", environment: [:]))
            }
        }
        return out
    }

    private func copierSession(_ copier: CopierTemplate, answers: [String: JSONValue]) throws -> CopierSession {
        let session = try CopierSession(template: self, copier: copier, folderName: answers["_folder_name"])
        try session.ask(given: answers, mode: .defaults, variables: manifest.variables)
        return session
    }
}

extension Template {
    /// cookiecutter's `hooks/pre_prompt.py` (or `.sh`), when the template has one: run before any question, in a
    /// copy of the template's folder (`folderFiles`), not rendered; what it leaves there is the template then asked
    /// and rendered (`afterPrePrompt`), as cookiecutter 2.4+ does.
    public func prePromptHook() throws -> TemplateProgram? {
        guard let cookiecutter, let hook = cookiecutter.hooks.first(where: { ($0.split(separator: "/").last ?? "").hasPrefix("pre_prompt.") }) else { return nil }
        let name = String(hook.split(separator: "/").last ?? "")
        let interpreter: String
        switch name.split(separator: ".").last {
        case "py": interpreter = "python3"
        case "sh": interpreter = "sh"
        default: throw TemplateError(describe(hook), "is a hook in a language Folio does not run (only Python and shell)", kind: .unsupported)
        }
        guard let source = cookiecutter.hookSources[hook] else { return nil }
        return TemplateProgram(name: hook, stage: .afterFiles, arguments: [interpreter, TemplateProgram.scriptPlaceholder], script: (name, source),
                               folder: "", environment: [:])
    }

    /// The cookiecutter template's folder as files: `cookiecutter.json`, the project folder, `templates/` and `hooks/`.
    public func folderFiles() -> [DocumentFile] {
        guard let cookiecutter else { return [] }
        var out = [DocumentFile(path: "cookiecutter.json", data: cookiecutter.config, executable: false)]
        for file in files {
            let path = cookiecutter.projectFolder + "/" + file.path
            if file.isSymlink { out.append(DocumentFile(path: path, data: Data(), symlinkTarget: String(decoding: file.data, as: UTF8.self))) }
            else { out.append(DocumentFile(path: path, data: file.data, executable: file.mode == 0o100755)) }
        }
        for (name, text) in cookiecutter.shared { out.append(DocumentFile(path: "templates/" + name, data: Data(text.utf8), executable: false)) }
        for (path, text) in cookiecutter.hookSources { out.append(DocumentFile(path: path, data: Data(text.utf8), executable: false)) }
        return out
    }

    /// This template as its `pre_prompt` hook left its folder (`files`, as `folderFiles` gave them): read again, from
    /// the same source, commit and ref, so that the document records where it came from.
    public func afterPrePrompt(_ files: [DocumentFile]) throws -> Template {
        let prefix = path.isEmpty ? "" : path + "/"
        let tree = MemoryTemplateTree(files: files.map { file in
            TemplateFile(path: prefix + file.path, data: file.symlinkTarget.map { Data($0.utf8) } ?? file.data,
                         mode: file.symlinkTarget != nil ? 0o120000 : file.executable ? 0o100755 : 0o100644)
        })
        guard let config = try tree.file(atPath: prefix + "cookiecutter.json") else {
            throw TemplateError(describe("hooks/pre_prompt"), "left no cookiecutter.json", kind: .invalidFile)
        }
        let resolved = ResolvedSource(source: source, commit: commit, ref: ref, templates: [], groups: [], warnings: [], fetchedAt: nil,
                                      gitDirectory: URL(fileURLWithPath: "/nonexistent"))
        var template = try Template.loadCookiecutter(from: tree, path: path, config: config, resolved: resolved)
        template.renderLimits = renderLimits
        template.describedCommit = describedCommit
        return template
    }
}
