import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioSync
import FolioTemplates
import FolioTerminal

/// Says, one line each, how the recorded answers carried over to the new version: renamed, removed, refused, and
/// the new questions that took their default (`defaults`: nobody was asked).
func reportAnswerMigration(_ collected: UpdateAnswers, defaults: Bool, _ io: CommandIO) {
    for (old, new) in collected.migration.renamed.sorted(by: { $0.key < $1.key }) {
        io.line("answer '\(old.shownAsText)' is now '\(new.shownAsText)'")
    }
    for name in collected.migration.removed { io.line("answer '\(name.shownAsText)' dropped: the template no longer asks it") }
    for (name, why) in collected.migration.refused.sorted(by: { $0.key < $1.key }) {
        io.line("answer '\(name.shownAsText)' no longer accepted (\(why.shownAsText))")
    }
    guard defaults else { return }
    for name in collected.fresh {
        let value = collected.answers[name].map(TemplateVariable.display) ?? ""
        io.line("new question '\(name.shownAsText)': took the default '\(value.shownAsText)'")
    }
}

/// `folio update DOC --dry-run`: what the update would do to every path, changing nothing.
func printUpdatePreview(_ preview: TemplateUpdatePreview, _ collected: UpdateAnswers, _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    if args.flag("--json") {
        struct Planned: Encodable {
            let template: String; let from: String; let to: String; let files: [PlannedUpdateFile]
            let renamed: [String: String]; let removed: [String]; let fresh: [String]; let changed: [String]
        }
        try io.json(Planned(template: preview.template, from: preview.from, to: preview.to, files: preview.files,
                            renamed: collected.migration.renamed, removed: collected.migration.removed, fresh: collected.fresh, changed: collected.changed))
        return 0
    }
    reportAnswerMigration(collected, defaults: !answerModeAsks(args, io), io)
    let width = preview.files.map(\.change.count).max() ?? 0
    var text = "Update from \(preview.template.shownAsText) \(preview.from.shownAsText) → \(preview.to.shownAsText) would:\n"
    for file in preview.files {
        text += "  " + file.change.padded(toLength: width) + "  " + (file.from.map { "\($0.shownAsText) → " } ?? "") + file.path.shownAsText + "\n"
    }
    text += "Nothing was changed (--dry-run).\n"
    io.text(text)
    return 0
}
