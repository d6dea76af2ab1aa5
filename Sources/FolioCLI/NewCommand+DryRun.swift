import Foundation
import FolioCore
import FolioTemplates

/// `folio new … --dry-run`: every file the document would get (path, size, mode, template file), nothing written.
func printInstantiationPlan(_ template: Template, at destination: URL, answers: [String: JSONValue], store: DocumentStore,
                            _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let plan = try template.plan(at: destination, answers: answers, store: store)
    if args.flag("--json") {
        try io.json(plan)
        return 0
    }
    let sizeWidth = plan.files.map { String($0.size).count }.max() ?? 1
    var text = "Would create \(plan.path) from \(plan.template)\(plan.version.map { " \($0)" } ?? "") (\(plan.files.count) files):\n"
    for file in plan.files {
        let size = String(repeating: " ", count: sizeWidth - String(file.size).count) + String(file.size)
        text += "  \(file.mode) \(size)  \(file.path)  ← \(file.source ?? "(Folio's metadata)")\n"
    }
    text += "Nothing was written (--dry-run).\n"
    io.out(text)
    return 0
}
