import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioPlugins
import FolioSync
import FolioTerminal

/// `folio conflicts`: the remote versions kept by pulls that could not merge, their conflicting items, and settling
/// them item by item (or whole files with `--keep`).
let conflictCommands: [Command] = [
    Command("conflicts", summary: "List remote versions kept by conflicting pulls with their conflicting items, show one, or settle it item by item (--keep: whole files)", verbs: [
        Verb("conflicts PATH [--json]") { args, io in
            let document = try openDocument(try args.positional(0, "PATH"), io)
            try args.expectAtMost(1)
            return try listConflicts(document, args, io)
        },
        Verb("conflicts PATH show REF [--json]", showConflict),
        Verb("conflicts PATH settle REF [--mine KEYS]... [--theirs KEYS]... [--both KEYS]... [--all mine|theirs] [--json]", settleConflict),
        Verb("conflicts PATH --keep local|remote REF [--json]", keepConflictSide),
    ]),
]

/// `folio conflicts PATH show REF`: the conflict's items and files, each side's change, and how to settle it.
private func showConflict(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let document = try openDocument(try args.positional(0, "PATH"), io)
    let ref = try args.positional(2, "REF")
    try args.expectAtMost(3)
    let details = try document.conflictDetails(ref, editors: itemEditors(io))
    if args.flag("--json") { try io.json(details); return 0 }
    showConflict(details, document: document, io)
    return 0
}

/// `folio conflicts PATH settle REF --mine …`: merges the kept version with a side chosen for each conflicting item.
private func settleConflict(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let document = try openDocument(try args.positional(0, "PATH"), io)
    let ref = try args.positional(2, "REF")
    try args.expectAtMost(3)
    let editors = itemEditors(io)
    let choices = try settleChoices(args, details: document.conflictDetails(ref, editors: editors))
    let commit = try document.settleConflict(ref, choices: choices, editors: editors)
    return try reportChange(commit, document: document, args, io, nothing: "Already merged; dropped \(ref.shownAsText)")
}

/// `folio conflicts PATH --keep local|remote REF`: settles the whole conflict by keeping one side's files.
private func keepConflictSide(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let document = try openDocument(try args.positional(0, "PATH"), io)
    let keep = args.value("--keep") ?? ""
    guard let side = ConflictSide(rawValue: keep) else { throw UsageError("--keep takes local or remote, got '\(keep)'") }
    let ref = try args.positional(1, "REF")
    try args.expectAtMost(2)
    let commit = try document.resolveConflict(ref, keep: side)
    return try reportChange(commit, document: document, args, io, nothing: "Already merged; dropped \(ref.shownAsText)")
}

/// The kept conflicts, each followed by its conflicting items and whole files (`--json`: the kept refs only, as before).
private func listConflicts(_ document: Document, _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let kept = try document.keptConflicts()
    if args.flag("--json") { try io.json(kept); return 0 }
    if kept.isEmpty { io.line("No kept conflicts") }
    let editors = kept.isEmpty ? nil : itemEditors(io)
    for conflict in kept {
        io.line("\(conflict.ref.shownAsText)  \(conflict.commit.prefix(7))  \(conflict.summary.shownAsText)")
        do {
            let details = try document.conflictDetails(conflict.ref, editors: editors)
            for item in details.items { io.line("  " + itemLine(item)) }
            for file in details.files { io.line("  \(file.shownAsText)  (whole file: mine or theirs)") }
        } catch {
            // One conflict the editor cannot read does not hide the others.
            io.line("  (items not available: \(FolioCommandLine.oneLine(error).shownAsText))")
        }
    }
    return 0
}

/// `3  mine: [x] Milk  theirs: [ ] Oat milk` (a removed side reads `(removed)`).
private func itemLine(_ item: ItemConflict) -> String {
    "\(item.key.shownAsText)  mine: \((item.mine ?? "(removed)").shownAsText)  theirs: \((item.theirs ?? "(removed)").shownAsText)"
}

private func showConflict(_ details: ConflictDetails, document: Document, _ io: CommandIO) {
    let short = details.ref.hasPrefix("refs/folio/conflicts/") ? String(details.ref.dropFirst("refs/folio/conflicts/".count)) : details.ref
    io.line("\(details.ref.shownAsText)  \(details.commit.prefix(7))  \(details.summary.shownAsText)")
    if !details.items.isEmpty {
        let count = details.items.count
        io.line("\(details.primaryFile.shownAsText): \(count) conflicting item\(count == 1 ? "" : "s")")
    }
    for item in details.items {
        io.line("  " + itemLine(item))
        io.line("      was: \((item.base ?? "(added on both sides)").shownAsText)")
        io.line("      mine: \(item.mineChange.shownAsText)")
        io.line("      theirs: \(item.theirsChange.shownAsText)")
    }
    for file in details.files { io.line("\(file.shownAsText): conflicting file (whole file: mine or theirs)") }
    let path = document.url.path.shownAsText
    if details.keys.isEmpty {
        io.line("Nothing conflicts any more; 'folio conflicts \(path) settle \(short.shownAsText)' merges it")
    } else {
        io.line("Settle with 'folio conflicts \(path) settle \(short.shownAsText) --mine KEY… --theirs KEY… --both KEY…' (or --all mine|theirs)")
    }
}

/// The choice for each key from `--mine`, `--theirs`, `--both` (each repeatable, comma lists, ranges such as `2-4`
/// meaning the conflicting keys from 2 to 4) and `--all mine|theirs` for every key not named otherwise.
func settleChoices(_ args: Arguments, details: ConflictDetails) throws -> [String: ItemChoice] {
    let known = details.keys
    var choices: [String: ItemChoice] = [:]
    for choice in ItemChoice.allCases {
        for value in args.values("--\(choice.rawValue)") {
            for key in try expandKeys(value, known: known) {
                if let earlier = choices[key], earlier != choice {
                    throw UsageError("'\(key)' is given both --\(earlier.rawValue) and --\(choice.rawValue)")
                }
                choices[key] = choice
            }
        }
    }
    if let all = args.value("--all") {
        guard let choice = ItemChoice(rawValue: all), choice != .both else { throw UsageError("--all takes mine or theirs, got '\(all)'") }
        for key in known where choices[key] == nil { choices[key] = choice }
    }
    return choices
}

/// The keys one option value names: a conflicting key as given (a file path may hold commas), else a comma list of
/// keys and ranges (`2-4`: the conflicting keys numbered 2 to 4).
func expandKeys(_ value: String, known: [String]) throws -> [String] {
    if known.contains(value) { return [value] }
    return try value.split(separator: ",").map { $0.trimming(.whitespaces) }.filter { !$0.isEmpty }.flatMap { part -> [String] in
        let ends = part.split(separator: "-", omittingEmptySubsequences: false)
        guard !known.contains(part), ends.count == 2, let low = Int(ends[0]), let high = Int(ends[1]), low >= 0 else { return [part] }
        guard low <= high else { throw UsageError("the range '\(part)' is empty") }
        let inRange = known.filter { key in Int(key).map { (low...high).contains($0) } ?? false }
        guard !inRange.isEmpty else { throw UsageError("no conflicting item is numbered \(low) to \(high)") }
        return inRange
    }
}

/// The editors' item lists and semantic merge (`folio.items/1`, `folio.semantic-merge/1`), with the user's editor
/// associations.
func itemEditors(_ io: CommandIO) -> PluginSemanticMerger {
    let associations = (try? Settings.load(environment: io.environment))?.editorAssociations ?? [:]
    return PluginSemanticMerger(host: EditorRegistry(environment: io.environment), associations: associations)
}
