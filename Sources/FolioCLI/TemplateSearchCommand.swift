import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTemplates
import FolioTerminal

/// `folio templates search WORDS… [--source S] [--offline] [--json]`: templates of every configured source whose
/// id, name, summary, tags, content type or group holds every word; offline from the cached copies.
func searchTemplates(_ words: [String], _ args: Arguments, _ io: CommandIO) throws -> Int32 {
    guard words.contains(where: { !$0.trimming(.whitespaces).isEmpty }) else {
        throw UsageError("templates search needs at least one word")
    }
    let sources = try chosenSources(args, io)
    let resolver = try templateResolver(io, offline: args.flag("--offline"), args)
    var resolved: [String: ResolvedSource] = [:]
    var failures: [String: String] = [:]
    for event in try resolveWithProgress(resolver, sources, io) {
        switch event {
        case let .resolved(source): resolved[source.source.name] = source
        case let .failed(source, message): failures[source.name] = message
        case .progress: break
        }
    }
    let hits = TemplateSearch.search(words, in: sources.compactMap { resolved[$0.name] })
    if args.flag("--json") {
        struct Found: Encodable { let words: [String]; let offline: Bool; let templates: [TemplateSearchHit]; let failedSources: [String: String] }
        try io.json(Found(words: words, offline: args.flag("--offline"), templates: hits, failedSources: failures))
    } else {
        let width = hits.map { $0.id.shownAsText.count }.max() ?? 0
        var text = hits.isEmpty ? "No template matches \(shortened(words.joined(separator: " ")).shownAsText)\n" : ""
        for hit in hits {
            text += "\(hit.source.shownAsText)  " + hit.id.shownAsText.padded(toLength: width + 2) + hit.name.shownAsText
                + (hit.version.map { " \($0.shownAsText)" } ?? "") + (hit.summary.map { " — \($0.shownAsText)" } ?? "") + "\n"
        }
        io.text(text)
    }
    for source in sources {
        for warning in resolved[source.name]?.warnings ?? [] { io.error("folio templates: warning: \(warning.shownAsText)") }
        if let failure = failures[source.name] { io.error("folio templates: \(failure.shownAsText)") }
    }
    return failures.isEmpty ? 0 : FolioCommandLine.failure
}

/// The versions (tags) of a shown template, as lines for `templates show`.
func versionLines(_ versions: [TemplateVersion]) -> String {
    var text = "versions:\n"
    if versions.isEmpty { text += "  (no tags: the source is a folder or is not tagged)\n" }
    for version in versions {
        text += "  \(version.tag.shownAsText) \(version.commit.prefix(7))" + (version.version.map { " (template.json: \($0.shownAsText))" } ?? "") + "\n"
    }
    return text
}

/// `text` cut to 80 characters for a one-line message (a search may be given anything).
private func shortened(_ text: String) -> String { text.count > 80 ? String(text.prefix(79)) + "…" : text }
