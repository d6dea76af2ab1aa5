import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioTerminal

/// What a change command reports with `--json`.
struct ChangeReport: Encodable {
    let path: String
    let changed: Bool
    let commit: HistoryEntry?
}

/// Opens a document; `readOnly` for commands that only read it (they then work on a read-only file system, and read
/// no settings: `DocumentStore.forReading`).
func openDocument(_ path: String, _ io: CommandIO, readOnly: Bool = false, store: DocumentStore? = nil) throws -> Document {
    let store = try store ?? (readOnly ? DocumentStore.forReading(environment: io.environment) : DocumentStore(environment: io.environment))
    return try store.open(at: io.url(path), readOnly: readOnly)
}

/// The document named by the first positional (PATH), with at most `positionals` positionals in all; `readOnly` as
/// for `openDocument`.
func documentArgument(_ args: Arguments, _ io: CommandIO, positionals: Int = 1, readOnly: Bool = false,
                      store: DocumentStore? = nil) throws -> Document {
    let document = try openDocument(try args.positional(0, "PATH"), io, readOnly: readOnly, store: store)
    try args.expectAtMost(positionals)
    return document
}

/// `PATH [REMOTE]`: the document, and the remote named (nil for the document's default).
func documentAndRemote(_ args: Arguments, _ io: CommandIO) throws -> (document: Document, remote: String?) {
    (try documentArgument(args, io, positionals: 2), args.optionalPositional(1))
}

/// "work tree out of date: a.txt (No space left on device); run `folio status DOC --repair`".
func workTreeLine(_ document: Document, _ status: WorkTreeStatus) -> String {
    let names = status.outOfDate.map(\.shownAsText)
    let files = names.count <= 5 ? names.joined(separator: ", ") : names.prefix(5).joined(separator: ", ") + " and \(names.count - 5) more"
    return "work tree out of date: \(files) (\(status.cause?.shownAsText ?? "an earlier write failed")); the history has every change; "
        + "run `folio status \(document.url.path.shownAsText) --repair` once the cause is gone"
}

/// Warns on stderr when the last change could not write the work tree (the change itself is kept).
func warnIfWorkTreeBehind(_ document: Document, _ io: CommandIO) {
    guard let problem = document.workTreeProblem, !problem.isCurrent else { return }
    io.error("folio: warning: \(workTreeLine(document, problem))")
}

/// The work tree's state for `folio status` (`repair`: write the out-of-date files first).
func reportWorkTree(_ document: Document, repair: Bool, json: Bool, _ io: CommandIO) throws {
    let before = try document.workTreeStatus()
    let after = repair && !before.isCurrent ? try document.repairWorkTree() : before
    if repair && !before.isCurrent {
        let mended = before.outOfDate.filter { !after.outOfDate.contains($0) }
        if !mended.isEmpty { (json ? io.error : io.line)("Work tree repaired: \(mended.map(\.shownAsText).joined(separator: ", "))") }
    }
    if !after.isCurrent { (json ? io.error : io.line)(workTreeLine(document, after)) }
}

func reportChange(_ commit: CommitInfo?, document: Document, _ args: Arguments, _ io: CommandIO, nothing: String) throws -> Int32 {
    warnIfWorkTreeBehind(document, io)
    // The commit this change made (not HEAD, which another writer may have moved on since).
    let entry = try commit.map(document.historyEntry)
    if args.flag("--json") {
        try io.json(ChangeReport(path: document.url.path, changed: commit != nil, commit: entry))
    } else if let commit {
        io.line("[\(commit.id.short)] \(commit.summary.shownAsText)")
    } else {
        io.line(nothing)
    }
    return 0
}

/// How `new` from a template (or a replayed document) gets its answers, and its fetch.
private let answerOptions = "[--set NAME=VALUE]... [--data FILE.json] [--defaults] [--trust [--allow-network]] [--offline] [--dry-run] [--timeout SECONDS]"

let documentCommands: [Command] = [
    Command("new", usage: "new PATH [--type TYPE [--sample NAME]] [--title TITLE] [--json] | new PATH --template ID [--source S [--ref R]] [--directory SUB] \(answerOptions) [--json] | new PATH --replay DOC [--source S] \(answerOptions) [--json]",
            summary: "Create a document, blank or from a template") { args, io in
        let path = try args.positional(0, "PATH")
        try args.expectAtMost(1)
        try NewDocumentPath.check(path)
        if args.value("--template") != nil || args.value("--replay") != nil {
            if args.value("--sample") != nil { throw UsageError("--sample starts a document of --type TYPE from its plugin's sample; it does not go with --template or --replay") }
            return try newFromTemplate(args, io)
        }
        if args.flag("--dry-run") { throw UsageError("--dry-run plans a document from a template: give --template ID or --replay DOC") }
        var store = try DocumentStore(environment: io.environment)
        let type = ContentType(args.value("--type") ?? ContentType.plainText.identifier)
        if store.contentTypes.declaration(of: type) == nil {
            // A type a plugin declares: its declaration (the primary file's extension) comes from the plugins.
            store = DocumentStore(settings: store.settings, environment: io.environment,
                                  contentTypes: pluginHost(io, settings: store.settings).contentTypes)
        }
        guard store.contentTypes.declaration(of: type) != nil || type.identifier.contains(".") else {
            throw UsageError("'\(type)' is not a content type identifier (like public.plain-text)")
        }
        let document: Document
        if let sample = args.value("--sample") {
            document = try createFromSample(sample, at: io.url(path), type: type, title: args.value("--title"), store: store, io)
        } else {
            document = try store.create(at: io.url(path), contentType: type, title: args.value("--title"))
            offerSamples(type, io)
        }
        RecentDocuments(environment: io.environment).record(document)
        let head = try document.head()
        if args.flag("--json") {
            struct Created: Encodable { let path: String; let contentType: String; let title: String; let primaryFile: String; let commit: String }
            try io.json(Created(path: document.url.path, contentType: type.identifier, title: document.metadata.title,
                                primaryFile: document.metadata.primaryFile, commit: head.id.hex))
        } else {
            io.line("Created \(document.url.path.shownAsText) (\(type.identifier.shownAsText)) [\(head.id.short)] \(head.summary.shownAsText)")
        }
        return 0
    },
    Command("write", usage: "write PATH FILE_IN_DOC [--from SRC] [-m|--message MESSAGE] [--json]",
            summary: "Replace one file's content as one change (reads stdin without --from)") { args, io in
        let path = try args.positional(0, "PATH")
        let file = try args.positional(1, "FILE_IN_DOC")
        try args.expectAtMost(2)
        let document = try openDocument(path, io)
        let data: Data
        if let source = args.value("--from") {
            guard let contents = FileManager.default.contents(atPath: io.url(source).path) else {
                throw FolioError.unreadable(io.url(source).path)
            }
            data = contents
        } else {
            data = try io.readStandardInput()
        }
        let message = args.value("-m") ?? args.value("--message") ?? "Edit \(file)"
        let commit = try document.write(data, to: file, message: message)
        return try reportChange(commit, document: document, args, io, nothing: "No change: \(file.shownAsText) already has that content")
    },
    Command("commit", usage: "commit PATH [-m|--message MESSAGE] [--json]", summary: "Record changes other programs made to a document") { args, io in
        let document = try documentArgument(args, io)
        let commit = try document.commitWorkTree(message: args.value("-m") ?? args.value("--message"))
        return try reportChange(commit, document: document, args, io, nothing: "Nothing to commit: the document has no unrecorded changes")
    },
    Command("log", usage: "log PATH [--limit N] [--skip N] [--since REV] [--json] | log PATH --item ITEM [--at REV] [--json]",
            summary: "List versions, newest first (--item: the versions that changed one item, as the editor numbers it)") { args, io in
        let document = try documentArgument(args, io, readOnly: true)
        if let item = args.value("--item") { return try itemLog(document, item: item, at: args.value("--at"), args, io) }
        if args.value("--at") != nil { throw UsageError("--at names the version an --item is numbered in: give --item ITEM") }
        try LogOutput.print(document, limit: try args.int("--limit"), skip: try args.int("--skip") ?? 0, since: args.value("--since"),
                            format: args.flag("--json") ? .json : .text, to: io.out)
        return 0
    },
    Command("show", usage: "show PATH [REV] [--file F] [--json]", summary: "Print a version's content (default: the primary file)") { args, io in
        let document = try documentArgument(args, io, positionals: 2, readOnly: true)
        let rev = args.optionalPositional(1)
        let file = args.value("--file") ?? document.metadata.primaryFile
        let data = try document.read(path: file, at: rev)
        if args.flag("--json") {
            struct Shown: Encodable { let commit: String; let file: String; let content: String }
            let commit = try rev.map(document.resolve) ?? document.head().id
            try io.json(Shown(commit: commit.hex, file: file, content: String(decoding: data, as: UTF8.self)))
        } else if io.isInteractive {
            // On a terminal the content is shown as text (control characters and invalid UTF-8 as visible escapes,
            // lines and tabs kept); to a pipe or a file it is written exactly.
            io.out(TerminalText.visible(utf8: data, keepingLines: true))
        } else {
            io.out(String(decoding: data, as: UTF8.self))
        }
        return 0
    },
    Command("diff", usage: "diff PATH [REV_A] [REV_B] [--semantic] [--json]", summary: "Show what changed between two versions") { args, io in
        let document = try documentArgument(args, io, positionals: 3, readOnly: true)
        let a = args.optionalPositional(1)
        let b = args.optionalPositional(2)
        var text: String?
        if args.flag("--semantic") {
            text = try semanticDiffOrFallback(document: document, from: a, to: b, io: io).map { $0.isEmpty || $0.hasSuffix("\n") ? $0 : $0 + "\n" }
        }
        let patch = try text ?? document.diff(from: a, to: b)
        if args.flag("--json") {
            struct Diffed: Encodable { let from: String?; let to: String?; let semantic: Bool; let diff: String }
            try io.json(Diffed(from: a, to: b, semantic: text != nil, diff: patch))
        } else {
            // On a terminal, a diff quoting a remote's lines and file names is shown as text; to a pipe, exactly.
            if io.isInteractive { io.text(patch) } else { io.out(patch) }
        }
        return 0
    },
    Command("restore", usage: "restore PATH REV [--item ITEM] [--json]",
            summary: "Make an old version current again, as a new version (--item: only that item, the others as they are now)") { args, io in
        let document = try openDocument(try args.positional(0, "PATH"), io)
        let rev = try args.positional(1, "REV")
        try args.expectAtMost(2)
        if let item = args.value("--item") { return try itemRestore(document, item: item, from: rev, args, io) }
        let commit = try document.restore(rev)
        return try reportChange(commit, document: document, args, io, nothing: "No change: the document already has that content")
    },
    Command("undo", usage: "undo PATH [--json]", summary: "Take back the last change, as a new version") { args, io in
        let document = try documentArgument(args, io)
        return try reportChange(try document.undo(), document: document, args, io, nothing: "")
    },
    Command("redo", usage: "redo PATH [--json]", summary: "Bring back the last undone change, as a new version") { args, io in
        let document = try documentArgument(args, io)
        return try reportChange(try document.redo(), document: document, args, io, nothing: "")
    },
    Command("compact", usage: "compact PATH [--json]", summary: "Pack a document's history into one pack and write its commit-graph (like git gc)") { args, io in
        let document = try documentArgument(args, io)
        try document.compact()
        if args.flag("--json") {
            struct Compacted: Encodable { let path: String }
            try io.json(Compacted(path: document.url.path))
        } else {
            io.line("Compacted \(document.url.path.shownAsText)")
        }
        return 0
    },
    Command("tag", usage: "tag PATH NAME [REV] [--json]", summary: "Name a version") { args, io in
        let document = try openDocument(try args.positional(0, "PATH"), io)
        let name = try args.positional(1, "NAME")
        try args.expectAtMost(3)
        let rev = args.optionalPositional(2)
        try document.tag(name, at: rev)
        let target = try rev.map(document.resolve) ?? document.head().id
        if args.flag("--json") {
            struct Tagged: Encodable { let name: String; let commit: String }
            try io.json(Tagged(name: name, commit: target.hex))
        } else {
            io.line("Named \(target.short) '\(name.shownAsText)'")
        }
        return 0
    },
]

