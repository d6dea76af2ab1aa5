import Foundation
import FolioCore
import FolioSync
import FolioTemplates

/// Says, one line each, how the recorded answers carried over to the new version: renamed, removed, refused, and
/// the new questions that took their default (`defaults`: nobody was asked).
func reportAnswerMigration(_ collected: UpdateAnswers, defaults: Bool, _ io: CommandIO) {
    for (old, new) in collected.migration.renamed.sorted(by: { $0.key < $1.key }) {
        io.line("answer '\(old)' is now '\(new)'")
    }
    for name in collected.migration.removed { io.line("answer '\(name)' dropped: the template no longer asks it") }
    for (name, why) in collected.migration.refused.sorted(by: { $0.key < $1.key }) {
        io.line("answer '\(name)' no longer accepted (\(why))")
    }
    guard defaults else { return }
    for name in collected.fresh {
        let value = collected.answers[name].map(TemplateVariable.display) ?? ""
        io.line("new question '\(name)': took the default '\(value)'")
    }
}

