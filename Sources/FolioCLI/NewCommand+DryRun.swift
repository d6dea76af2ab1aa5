import FoundationEssentials
import Glibc
import FolioCore
import FolioTemplates
import FolioTerminal

/// `folio new … --dry-run`: every file the document would get (path, size, mode, template file), nothing written.
func printInstantiationPlan(_ template: Template, at destination: URL, answers: [String: JSONValue], store: DocumentStore,
                            _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let plan = try template.plan(at: destination, answers: answers, store: store)
    if args.flag("--json") {
        try io.json(plan)
        return 0
    }
    let sizeWidth = plan.files.map { String($0.size).count }.max() ?? 1
    var text = "Would create \(plan.path.shownAsText) from \(plan.template.shownAsText)\(plan.version.map { " \($0.shownAsText)" } ?? "") (\(plan.files.count) files):\n"
    for file in plan.files {
        let size = String(repeating: " ", count: sizeWidth - String(file.size).count) + String(file.size)
        text += "  \(file.mode) \(size)  \(file.path.shownAsText)  ← \(file.source?.shownAsText ?? "(Folio's metadata)")\n"
    }
    text += "Nothing was written (--dry-run).\n"
    io.text(text)
    return 0
}
