import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioSync
import FolioTemplates
import FolioTerminal

/// `folio outdated [DIR] [--json] [--offline]`: which documents are behind their template (exit 1 when any is).
let outdatedCommand = Command("outdated", usage: "outdated [DIR] [--offline] [--timeout SECONDS] [--json]",
                              summary: "List the documents under DIR (default: the recent ones) made from a template, with their version and the newest; exit 1 when any is behind") { args, io in
    try args.expectAtMost(1)
    let folders: [URL]
    if let dir = args.positionals.first {
        let url = io.url(dir)
        var isFolder: Bool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder else {
            throw FolioError.notAFolder(url.path)
        }
        folders = TemplateOutdated.documents(under: url)
    } else {
        folders = try RecentDocuments(environment: io.environment).load().map { URL(fileURLWithPath: $0.path) }
            .filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent(DocumentMetadata.path).path) }
    }
    let store = try DocumentStore(environment: io.environment)
    let configured = try TemplateSource.configured(environment: io.environment).map(\.location)
    var origins: [TemplateDocumentOrigin] = []
    var unreadable: [(String, String)] = []
    for folder in folders {
        do {
            let document = try store.open(at: folder, readOnly: true)
            guard document.metadata.origin.kind == "template", let origin = document.metadata.origin.template else { continue }
            let recorded = try document.trustedTemplateSources()
            let trusted = origin.source == TemplateSource.bundledLocation || configured.contains(origin.source) || recorded.contains(origin.source)
            origins.append(TemplateDocumentOrigin(path: document.url.path, origin: origin, trusted: trusted))
        } catch {
            unreadable.append((folder.path, FolioCommandLine.oneLine(error)))
        }
    }
    let resolver = try templateResolver(io, offline: args.flag("--offline"), args)
    let found = origins
    let statuses = try waitFor { await TemplateOutdated.check(found, resolver: resolver) }
    let behind = statuses.contains(where: \.outdated)
    let failed = !unreadable.isEmpty || statuses.contains { $0.error != nil }
    if args.flag("--json") {
        struct Report: Encodable { let offline: Bool; let documents: [TemplateVersionStatus]; let outdated: Int }
        try io.json(Report(offline: args.flag("--offline"), documents: statuses, outdated: statuses.filter(\.outdated).count))
    } else {
        printOutdated(statuses, offline: args.flag("--offline"), io)
    }
    for (path, why) in unreadable { io.error("folio outdated: \(path.shownAsText): \(why.shownAsText)") }
    for status in statuses { if let error = status.error { io.error("folio outdated: \(status.path.shownAsText): \(error.shownAsText)") } }
    return behind || failed ? FolioCommandLine.failure : 0
}

/// One line per document: path, template, current → latest, and whether it is behind.
private func printOutdated(_ statuses: [TemplateVersionStatus], offline: Bool, _ io: CommandIO) {
    if statuses.isEmpty { io.line("No documents made from a template"); return }
    let pathWidth = statuses.map { $0.path.shownAsText.count }.max() ?? 0
    var text = ""
    for status in statuses where status.error == nil {
        let state = status.outdated ? "\(status.current) → \(status.latest ?? "?") available" : "\(status.current) up to date"
        text += status.path.shownAsText.padded(toLength: pathWidth) + "  \(status.template.shownAsText) \(state.shownAsText)\n"
    }
    var sayings = Set<String>()
    for status in statuses { for warning in status.warnings where sayings.insert(warning).inserted { text += "note: \(warning.shownAsText)\n" } }
    if offline { text += "offline: newest versions are from the cached sources, not fetched now\n" }
    io.text(text)
}
