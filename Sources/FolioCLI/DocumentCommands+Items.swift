import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioPlugins
import FolioTerminal

/// `folio log PATH --item ITEM [--at REV]`: the versions that changed one item, newest first, each with what changed.
func itemLog(_ document: Document, item: String, at rev: String?, _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let settings = try Settings.load(environment: io.environment)
    let history = try pluginHost(io, settings: settings).itemHistory(document: document, item: item, at: rev, associations: settings.editorAssociations)
    if args.flag("--json") {
        try io.json(history)
        return 0
    }
    io.line("History of item \(item.shownAsText) as in \(String(history.version.prefix(7))): \(history.summary.shownAsText)")
    for change in history.changes {
        io.line("\(change.shortID)  \(Timestamps.localMinute(change.time))  \(change.author.shownAsText)  \(change.message.shownAsText)")
        io.line("    \(change.change.shownAsText)")
    }
    return 0
}

/// `folio restore PATH REV --item ITEM`: that item back as it was in REV, every other item as it is now, one commit.
func itemRestore(_ document: Document, item: String, from rev: String, _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let settings = try Settings.load(environment: io.environment)
    let outcome = try pluginHost(io, settings: settings).restoreItem(document: document, item: item, from: rev, associations: settings.editorAssociations)
    return try reportChange(outcome.commit, document: document, args, io, nothing: "No change: item \(item.shownAsText) is already as it was in \(rev.shownAsText)")
}
