import FoundationEssentials
import FolioBasics
import Glibc
import FolioTerminal
import FolioCore
import FolioGit
import FolioPlugins
import FolioSync
import FolioTemplates
import Synchronization

/// A remote given on the command line: URLs and scp-like `host:path` as they are, local folders made absolute.
func remoteLocation(_ text: String, _ io: CommandIO) -> String {
    if text.contains("://") { return text }
    let local = io.url(text)
    if text.hasPrefix("/") || text.hasPrefix(".") || text.hasPrefix("~") || FileManager.default.fileExists(atPath: local.path) {
        return local.path
    }
    return text
}

/// What `folio status --json` prints: the document's `SyncStatus`, with its sharing state and summary under `sharing`,
/// and, while kept conflicts hold it back, the commands that settle them under `settle`.
struct StatusReport: Encodable {
    let status: SyncStatus
    let sharing: SharingReport

    private enum CodingKeys: String, CodingKey { case sharing, settle }

    func encode(to encoder: any Encoder) throws {
        try status.encode(to: encoder)  // the status's keys at the top level, beside `sharing`
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sharing, forKey: .sharing)
        if status.heldBack != nil {
            let advice = CommandHints.heldBackAdvice(path: status.path, conflicts: status.conflicts)
            try container.encode(String(advice.drop { $0 == ";" || $0 == " " }), forKey: .settle)
        }
    }
}

/// Draws a transfer progress bar on standard error, on a terminal only, redrawing in place at most once per percent.
final class TransferProgressBar: Sendable {
    private let io: CommandIO
    private let label: String
    /// The percent last drawn, and whether a line was drawn (to be redrawn in place).
    private let state = Mutex((lastPercent: -1, drawn: false))

    init(io: CommandIO, label: String) { self.io = io; self.label = label }

    func update(_ progress: TransferProgress) {
        guard progress.totalObjects > 0 else { return }
        let percent = min(100, progress.receivedObjects * 100 / progress.totalObjects)
        state.withLock { state in
            guard percent != state.lastPercent else { return }
            state.lastPercent = percent
            draw(progress, percent: percent, redraw: state.drawn)
            state.drawn = true
        }
    }

    /// Writes the bar (held under the state's lock, so two updates never interleave their lines).
    private func draw(_ progress: TransferProgress, percent: Int, redraw: Bool) {
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let kib = progress.receivedBytes / 1024
        // Raw: the bar's own cursor movements must reach the terminal (everything else it prints is Folio's).
        io.rawError((redraw ? "\u{1B}[1A\u{1B}[2K" : "") + "\(label.shownAsText) [\(bar)] \(percent)% (\(progress.receivedObjects)/\(progress.totalObjects) objects, \(kib) KiB)\n")
    }
}

/// Transfer options for a command: the command's environment, its `--timeout` (else the settings'), and a progress
/// bar on a terminal (a progress line, and the launcher's cancel, when the launcher runs the command).
func transferOptions(_ io: CommandIO, _ args: Arguments, label: String) throws -> TransferOptions {
    var options = TransferOptions(environment: io.environment, isCancelled: io.isCancelled, timeout: try networkTimeout(args, io))
    if let report = io.reportProgress {
        options.progress = { report("\(label): \($0.receivedObjects)/\($0.totalObjects) objects, \($0.receivedBytes / 1024) KiB") }
    } else if io.isInteractive {
        let bar = TransferProgressBar(io: io, label: label)
        options.progress = { bar.update($0) }
    }
    return options
}

/// How long a network transfer may go without progress: `--timeout SECONDS`, else `networkTimeout` in the settings,
/// else 30 s.
func networkTimeout(_ args: Arguments, _ io: CommandIO) throws -> Duration {
    guard let text = args.value("--timeout") else { return try Settings.load(environment: io.environment).networkTimeoutDuration }
    guard let seconds = Double(text), Settings.networkTimeoutRange.contains(seconds) else {
        throw UsageError("--timeout takes seconds from 0.1 to 3600, got '\(text)'")
    }
    return .milliseconds(Int((seconds * 1000).rounded()))
}

/// Sync options for a command: transfer set-up and the editors' semantic merge.
func syncOptions(_ io: CommandIO, _ args: Arguments, label: String) throws -> SyncOptions {
    SyncOptions(transfer: try transferOptions(io, args, label: label), semanticMerger: semanticMerger(io), acceptContentType: args.flag("--accept-type"))
}

/// Prints a pull's outcome; returns the exit code (1 for a kept conflict).
func reportPull(_ outcome: PullOutcome, document: Document, remote: String?, _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    struct Pulled: Encodable {
        let outcome: String; let commit: String?; let conflictRef: String?; let conflicts: [String]
        var previous: String? = nil
        var contentType: String? = nil
    }
    let path = document.url.path
    // A pull whose files could not reach the work tree (a full disk) is kept; say what is out of date, as `write` does.
    warnIfWorkTreeBehind(document, io)
    switch outcome {
    case .upToDate:
        if args.flag("--json") { try io.json(Pulled(outcome: "up-to-date", commit: nil, conflictRef: nil, conflicts: [])) } else { io.line("Already up to date") }
        return 0
    case let .fastForwarded(to, versions):
        if args.flag("--json") { try io.json(Pulled(outcome: "fast-forward", commit: to.hex, conflictRef: nil, conflicts: [])) } else {
            io.line("Fast-forwarded to \(to.short) (\(versions) new version\(versions == 1 ? "" : "s"))")
        }
        return 0
    case let .merged(commit):
        if args.flag("--json") { try io.json(Pulled(outcome: "merged", commit: commit.id.hex, conflictRef: nil, conflicts: [])) } else {
            io.line("[\(commit.id.short)] \(commit.summary.shownAsText)")
        }
        return 0
    case let .conflict(conflict):
        if args.flag("--json") { try io.json(Pulled(outcome: "conflict", commit: nil, conflictRef: conflict.ref, conflicts: conflict.paths)) }
        io.error(CommandHints.conflictAdvice(conflict, documentPath: path).shownAsText)
        return FolioCommandLine.failure
    case let .rewound(rewind):
        if args.flag("--json") {
            try io.json(Pulled(outcome: "rewound", commit: rewind.tip.hex, conflictRef: nil, conflicts: [], previous: rewind.previous.hex))
        }
        io.error(CommandHints.rewindAdvice(rewind, documentPath: path).shownAsText)
        return FolioCommandLine.failure
    case let .held(held):
        if args.flag("--json") {
            try io.json(Pulled(outcome: "held-content-type", commit: held.commit.hex, conflictRef: nil, conflicts: [], contentType: held.incoming.identifier))
        }
        io.error(held.summary + CommandHints.acceptTypeAdvice(path: path.shownAsText))
        return FolioCommandLine.failure
    }
}

/// Drops the kept conflicts already part of the current version, with a note for each (not with `--json`).
func dropMergedConflicts(_ document: Document, _ args: Arguments, _ io: CommandIO) throws {
    for ref in try document.dropMergedConflicts() where !args.flag("--json") {
        io.line(Document.droppedConflictNote(ref).shownAsText)
    }
}

let syncCommands: [Command] = [
    Command("remote", summary: "Add, list or remove the servers a document syncs with", verbs: [
        Verb("remote PATH add NAME URL [--json]", addRemote),
        Verb("remote PATH [list] [--json]", listRemotes),
        Verb("remote PATH remove NAME [--json]", removeRemote),
    ], hidden: ["rm": removeRemote]),
    Command("push", usage: "push PATH [REMOTE] [--timeout SECONDS] [--json]", summary: "Send the document's versions to a remote") { args, io in
        let (document, remote) = try documentAndRemote(args, io)
        let pushed = try document.push(to: remote, options: transferOptions(io, args, label: "Pushing"))
        if args.flag("--json") {
            struct Pushed: Encodable { let remote: String; let branch: String; let commit: String }
            try io.json(Pushed(remote: pushed.remote, branch: pushed.branch, commit: pushed.commit.hex))
        } else {
            io.line("Pushed \(pushed.commit.short) to \(pushed.remote.shownAsText)/\(pushed.branch.shownAsText)")
        }
        return 0
    },
    Command("pull", usage: "pull PATH [REMOTE] [--timeout SECONDS] [--accept-type] [--json]",
            summary: "Bring in a remote's versions: fast-forward, merge, or keep a conflict (--accept-type: accept a version that changes the document's content type)") { args, io in
        let (document, remote) = try documentAndRemote(args, io)
        try dropMergedConflicts(document, args, io)
        let outcome = try document.pull(from: remote, options: syncOptions(io, args, label: "Receiving"))
        return try reportPull(outcome, document: document, remote: remote, args, io)
    },
    Command("sync", usage: "sync PATH [REMOTE] [--timeout SECONDS] [--accept-type] [--json] | sync PATH --continuous on|off [--interval SECONDS] [--json] | sync --watch [--interval SECONDS] [--timeout SECONDS] [PATH...]",
            summary: "Pull, then push (--accept-type: accept a version that changes the document's content type; --continuous: keep the document in sync in the background from now on; --watch: sync the given documents, else the recent ones with continuous sync on, until interrupted)") { args, io in
        if let exit = try continuousSyncVariant(args, io) { return exit }
        let (document, remote) = try documentAndRemote(args, io)
        try dropMergedConflicts(document, args, io)
        let (outcome, push) = try document.sync(with: remote, options: syncOptions(io, args, label: "Syncing"))
        guard let pushed = push else { return try reportPull(outcome, document: document, remote: remote, args, io) }
        if args.flag("--json") {
            struct Synced: Encodable { let pulled: String; let pushed: String; let remote: String }
            let pulled: String
            switch outcome {
            case .upToDate: pulled = "up-to-date"
            case .fastForwarded: pulled = "fast-forward"
            case .merged: pulled = "merged"
            case .conflict: pulled = "conflict"
            case .rewound: pulled = "rewound"
            case .held: pulled = "held-content-type"
            }
            try io.json(Synced(pulled: pulled, pushed: pushed.commit.hex, remote: pushed.remote))
        } else {
            _ = try reportPull(outcome, document: document, remote: remote, Arguments([], options: [], flags: []), io)
            io.line("Pushed \(pushed.commit.short) to \(pushed.remote.shownAsText)/\(pushed.branch.shownAsText)")
        }
        return 0
    },
    Command("clone", usage: "clone URL PATH [--timeout SECONDS] [--json]", summary: "Copy a Folio document from a remote") { args, io in
        let source = remoteLocation(try args.positional(0, "URL"), io)
        let path = try args.positional(1, "PATH")
        try args.expectAtMost(2)
        let store = try DocumentStore(environment: io.environment)
        let document = try store.clone(from: source, to: io.url(path), options: transferOptions(io, args, label: "Receiving"))
        let head = try document.head()
        if args.flag("--json") {
            struct Cloned: Encodable { let path: String; let source: String; let commit: String; let title: String }
            try io.json(Cloned(path: document.url.path, source: source, commit: head.id.hex, title: document.metadata.title))
        } else {
            io.line("Cloned \(RemoteURL.redacted(source).shownAsText) into \(document.url.path.shownAsText) [\(head.id.short)] \(head.summary.shownAsText)")
        }
        return 0
    },
    Command("status", usage: "status PATH [--json] [--repair]",
            summary: "Unrecorded changes, versions ahead/behind each remote, an out-of-date work tree (--repair: write it, and restore a damaged branch or HEAD)") { args, io in
        let document = try documentArgument(args, io)
        if args.flag("--repair") { try reportRefRepair(document, json: args.flag("--json"), io) }
        try reportWorkTree(document, repair: args.flag("--repair"), json: args.flag("--json"), io)
        let status = try document.syncStatus()
        if !args.flag("--json") {
            for ref in status.droppedConflicts { io.line(Document.droppedConflictNote(ref, branch: status.branch).shownAsText) }
        }
        let unrecorded = status.unrecordedChanges
        let sharing = try document.sharingState()
        if args.flag("--json") {
            try io.json(StatusReport(status: status, sharing: SharingReport(summary: sharing.summary(), state: sharing)))
            return 0
        }
        let changes = unrecorded.isEmpty ? "no unrecorded changes"
            : "unrecorded changes in \(unrecorded.map(\.shownAsText).joined(separator: ", ")) (record them with 'folio commit \(document.url.path.shownAsText)')"
        io.line("On \(status.branch.shownAsText) at \(status.head.prefix(7)); \(changes)")
        for nested in status.nestedRepositories {
            io.line("\(nested.shownAsText): a git repository of its own inside the document; it is not part of the document and never recorded")
        }
        for remote in status.remotes {
            if remote.tracking == nil {
                io.line("\(remote.name.shownAsText)\t\(RemoteURL.redacted(remote.url).shownAsText)\tnever synced")
            } else {
                io.line("\(remote.name.shownAsText)\t\(RemoteURL.redacted(remote.url).shownAsText)\tahead \(remote.ahead), behind \(remote.behind)")
            }
        }
        if let heldBack = status.heldBack {
            let count = "\(status.conflicts.count) kept conflict\(status.conflicts.count == 1 ? "" : "s")"
            io.line("\(count) (\(status.conflicts.map { CommandHints.shortConflict($0).shownAsText }.joined(separator: ", "))): "
                    + heldBack.shownAsText + CommandHints.heldBackAdvice(path: document.url.path, conflicts: status.conflicts).shownAsText)
        }
        if let held = status.heldContentType { io.line(held + CommandHints.acceptTypeAdvice(path: document.url.path.shownAsText)) }
        if sharing.remote != nil { io.line(sharingLine(sharing)) }  // a document with no remote has nothing to say
        return 0
    },
    Command("update", usage: "update PATH [--to REF] [--set NAME=VALUE]... [--conflict=abort|markers] [--defaults] [--trust [--allow-network]] [--offline] [--source S] [--timeout SECONDS] [--dry-run [--json]] | update PATH --check [--to REF] [--offline] [--source S] [--timeout SECONDS] [--json]",
            summary: "Merge a newer version of the document's template into it (--check: exit 1 when one exists; --source: use the document's template source without asking)") { args, io in
        try updateCommand(args, io)
    },
]

/// The semantic merge of the editors' plugins (`folio.semantic-merge/1`), when available.
func semanticMerger(_ io: CommandIO) -> (any SemanticMerging)? {
    let associations = (try? Settings.load(environment: io.environment))?.editorAssociations ?? [:]
    return PluginSemanticMerger(host: EditorRegistry(environment: io.environment), associations: associations)
}

/// `folio update`: three-way merge of a newer template rendering into a document, or `--check` for CI.
func updateCommand(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    if !args.flag("--check") && !args.flag("--dry-run") { try adoptForeignProject(args, io) }
    let document = try documentArgument(args, io)
    let mode = try UpdateConflictMode(rawValue: args.value("--conflict") ?? "markers")
        ?? { throw UsageError("--conflict takes abort or markers, got '\(args.value("--conflict") ?? "")'") }()
    let origin = try document.templateOrigin()
    let trusted = try trustedTemplateSource(for: document, origin: origin, args, io)
    let environment = io.environment, ref = args.value("--to"), offline = args.flag("--offline")
    var settingsLimits = TemplateLimits(settings: try Settings.load(environment: environment))
    settingsLimits.networkTimeout = try networkTimeout(args, io)
    let limits = settingsLimits
    let plan = try waitFor {
        try await TemplateUpdatePlan.load(origin, to: ref, trusted: trusted, environment: environment, offline: offline, limits: limits)
    }
    let current = TemplateUpdatePlan.label(plan.old), latest = TemplateUpdatePlan.label(plan.new)
    if args.flag("--check") {
        if args.flag("--json") {
            struct Checked: Encodable { let path: String; let template: String; let current: String; let latest: String; let outdated: Bool
                let currentCommit: String; let latestCommit: String }
            try io.json(Checked(path: document.url.path, template: origin.id, current: current, latest: latest, outdated: plan.isNewer,
                                currentCommit: plan.old.commit, latestCommit: plan.new.commit))
        } else if plan.isNewer {
            io.line("\(origin.id.shownAsText): \(current.shownAsText) → \(latest.shownAsText) available; run 'folio update \(document.url.path.shownAsText)'")
        } else {
            io.line("\(origin.id.shownAsText) \(current.shownAsText): up to date")
        }
        return plan.isNewer ? FolioCommandLine.failure : 0
    }
    let given = try givenAnswers(args, io)
    guard plan.isNewer || !given.isEmpty else {
        io.line("Already up to date with \(origin.id.shownAsText) \(current.shownAsText)")
        return 0
    }
    try plan.new.checkCompatible()
    let context = Template.defaultsContext(for: document.url)
    let collected = try plan.answers(recorded: origin.answers, given: given, mode: answerMode(args, io), context: context)
    guard plan.isNewer || !collected.changed.isEmpty else {
        io.line("Already up to date with \(origin.id.shownAsText) \(current.shownAsText)")
        return 0
    }
    if args.flag("--dry-run") {
        let preview = try document.previewTemplateUpdate(plan, baseAnswers: collected.baseAnswers, answers: collected.answers)
        return try printUpdatePreview(preview, collected, args, io)
    }
    if !args.flag("--json") { reportAnswerMigration(collected, defaults: !answerModeAsks(args, io), io) }
    let programs = try UpdatePrograms(plan, collected, args, io)
    try programs.migrate("before", document, io)
    let result = try document.updateFromTemplate(plan, baseAnswers: collected.baseAnswers, answers: collected.answers, conflictMode: mode,
                                                 changedAnswers: collected.changed, alsoWriting: try cruftRecord(document, commit: plan.new.commit),
                                                 render: { try programs.render($0, $1, io) })
    if !result.aborted { try programs.migrate("after", document, io) }
    if args.flag("--json") {
        struct Updated: Encodable { let template: String; let from: String; let to: String; let commit: String?; let aborted: Bool; let conflicts: [UpdateConflict]
            let renamed: [String: String]; let removed: [String]; let fresh: [String]; let changed: [String] }
        try io.json(Updated(template: result.template, from: result.fromVersion, to: result.toVersion, commit: result.commit?.id.hex,
                            aborted: result.aborted, conflicts: result.conflicts, renamed: collected.migration.renamed,
                            removed: collected.migration.removed, fresh: collected.fresh, changed: collected.changed))
    }
    if result.aborted {
        io.error("update from \(result.template.shownAsText) \(result.fromVersion.shownAsText) → \(result.toVersion.shownAsText) aborted, nothing changed: conflicts in "
                 + result.conflicts.map(\.path.shownAsText).joined(separator: ", ") + " (use --conflict=markers to merge with conflict markers)")
        return FolioCommandLine.failure
    }
    if !args.flag("--json") {
        if let commit = result.commit { io.line("[\(commit.id.short)] \(commit.summary.shownAsText)") } else { io.line("No change: the document already has that content") }
        let to = result.toVersion.shownAsText, path = document.url.path.shownAsText
        for conflict in result.conflicts {
            let file = conflict.path.shownAsText
            switch conflict.resolution {
            case "markers": io.line("conflict: \(file) has conflict markers (<<<<<<< document / >>>>>>> template \(to)); edit it, then 'folio commit \(path)'")
            case "restored-template": io.line("conflict: \(file) was deleted here but changed by the template; the template's version is back, delete it again to keep it gone")
            default: io.line("conflict: \(file) kept the document's version (binary, or removed by the template)")
            }
        }
    }
    return 0
}

/// Whether missing answers are asked (a terminal without --defaults) rather than defaulted.
func answerModeAsks(_ args: Arguments, _ io: CommandIO) -> Bool { !args.flag("--defaults") && io.isInteractive }

/// How missing answers are obtained: asked on a terminal, else defaults.
func answerMode(_ args: Arguments, _ io: CommandIO) -> AnswerMode {
    guard !args.flag("--defaults") && io.isInteractive else { return .defaults }
    let reader = PromptReader(io: io)
    return .ask { variable, defaultText, problem in
        if let problem { io.line("  \(problem.shownAsText)") }
        var prompt = variable.question.shownAsText
        if let choices = variable.choices { prompt += " (\(choices.map(\.shownAsText).joined(separator: variable.type == .multichoice ? ", " : " / ")))" }
        if variable.type == .bool { prompt += " (yes/no)" }
        if let defaultText { prompt += " [\(defaultText.shownAsText)]" }
        io.text(prompt + ": ")
        guard let answer = try reader.readLine() else { throw FolioError.inputEnded(question: variable.name) }
        return answer.trimming(.whitespaces)
    }
}

/// `folio remote PATH add NAME URL`.
private func addRemote(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let document = try openDocument(try args.positional(0, "PATH"), io)
    let name = try args.positional(2, "NAME")
    let location = remoteLocation(try args.positional(3, "URL"), io)
    try args.expectAtMost(4)
    try document.addRemote(name, url: location)
    if args.flag("--json") { try io.json(["name": name, "url": location]) } else { io.line("Added remote \(name.shownAsText) \(location.shownAsText)") }
    return 0
}

/// `folio remote PATH [list]`.
private func listRemotes(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let document = try openDocument(try args.positional(0, "PATH"), io)
    try args.expectAtMost(2)
    let remotes = try document.remotes()
    if args.flag("--json") { try io.json(remotes) } else { for remote in remotes { io.line("\(remote.name.shownAsText)\t\(remote.shownURL.shownAsText)") } }
    return 0
}

/// `folio remote PATH remove NAME` (or `rm`, its old alias).
private func removeRemote(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let document = try openDocument(try args.positional(0, "PATH"), io)
    let name = try args.positional(2, "NAME")
    try args.expectAtMost(3)
    try document.removeRemote(name)
    if !args.flag("--json") { io.line("Removed remote \(name.shownAsText)") } else { try io.json(["removed": name]) }
    return 0
}
