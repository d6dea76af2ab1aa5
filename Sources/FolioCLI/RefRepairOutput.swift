import FolioCore
import FolioGit

/// `folio status --repair`, first step: repairs a damaged HEAD or branch and says in one line what was wrong, which
/// version the branch names now and why that one (on standard error with `--json`, so the JSON stays the status).
func reportRefRepair(_ document: Document, json: Bool, _ io: CommandIO) throws {
    guard let repair = try document.repairRefs() else { return }
    var line = "Repaired: \(repair.problem)"
    if let id = repair.restored {
        line += "; \(repair.branch) now names \(id.short) \"\(GitNames.shown(repair.summary ?? ""))\", \(repair.reason ?? "")"
    }
    if repair.headRepaired { line += "; HEAD names \(repair.branch) again" }
    if !repair.kept.isEmpty { line += "; \(repair.kept.count) other version(s) nothing named kept under refs/folio/recovered/" }
    (json ? io.error : io.line)(line)
}
