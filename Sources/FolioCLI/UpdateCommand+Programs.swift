import FoundationEssentials
import FolioBasics
import FolioCore
import FolioSync
import FolioTemplates
import FolioTerminal

/// The programs a copier template's update runs, decided once: its `_migrations` before and after the merge, and its
/// `_tasks` on both renderings the merge compares (as copier runs them on its old and new copies). They run only
/// when trusted (`--trust`, a source the user said yes to, or a yes on the terminal), confined.
struct UpdatePrograms {
    let before: [TemplateProgram]
    let after: [TemplateProgram]
    let run: TemplateProgramRun?
    let target: String
    /// Commit lines stay off standard output under `--json`.
    let quiet: Bool

    init(_ plan: TemplateUpdatePlan, _ collected: UpdateAnswers, _ args: Arguments, _ io: CommandIO) throws {
        let migrations = try plan.new.migrations(from: plan.old, answers: collected.answers)
        let tasks = try plan.new.programs(answers: collected.answers, updating: true)
        let listed = migrations.before + tasks + migrations.after
        target = TemplateUpdatePlan.label(plan.new)
        quiet = args.flag("--json")
        let trusted = try templateProgramsTrusted(listed.isEmpty ? nil : { listed }, location: plan.new.source.location,
                                                  reader: PromptReader(io: io), args, io)
        if !trusted && !listed.isEmpty {
            io.error("note: the template's migrations and tasks were not run (\(listed.map { $0.shown.shownAsText }.joined(separator: "; "))): "
                     + "the update lacks what they would have done; --trust runs them confined")
        }
        before = trusted ? migrations.before : []
        after = trusted ? migrations.after : []
        run = trusted ? try templateProgramRun(args, io) : nil
    }

    /// Runs the migrations of one stage on the document, as a commit of their own.
    func migrate(_ stage: String, _ document: Document, _ io: CommandIO) throws {
        guard let run else { return }
        let programs = stage == "before" ? before : after
        let names = programs.map(\.name).joined(separator: ", ")
        let (commit, printed) = try document.runTemplatePrograms(programs, run: run, message: "Run the template's migrations \(stage) updating to \(target): \(names)")
        for line in printed { io.error(line) }
        if let commit, !quiet { io.line("[\(commit.id.short)] \(commit.summary.shownAsText)") }
    }

    /// A version's files as the update compares them: rendered, then (when trusted) as its `_tasks` leave them.
    func render(_ template: Template, _ answers: [String: JSONValue], _ io: CommandIO) throws -> [DocumentFile] {
        let files = try template.render(answers: answers)
        guard let run else { return files }
        let tasks = try template.programs(answers: answers, updating: true)
        guard !tasks.isEmpty else { return files }
        let result = try run.run(tasks, files: files, projectName: "project")
        for line in result.printed { io.error(line) }
        return result.files
    }
}
