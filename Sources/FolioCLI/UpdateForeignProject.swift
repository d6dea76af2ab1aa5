import FoundationEssentials
import FolioBasics
import FolioCore
import FolioSync
import FolioTemplates
import FolioTerminal

/// `folio update PATH` on a project copier or cruft made (its `.copier-answers.yml` or `.cruft.json`, no
/// `.folio/document.json`): the template source it names is the project's word, so it is used only when `--source`
/// names it, it is a configured source, or the user says yes on a terminal. Then the template at the recorded
/// revision is read and the project becomes a Folio document made from it (one commit adding
/// `.folio/document.json`), after which the update goes on as for any document. Nothing happens for other folders.
func adoptForeignProject(_ args: Arguments, _ io: CommandIO) throws {
    guard let target = try? args.positional(0, "PATH") else { return }
    let folder = io.url(target)
    guard let project = try ForeignProject.find(in: folder) else { return }
    let location = TemplateSource(name: project.source, location: project.source).isRemote ? project.source : io.url(project.source).standardizedFileURL.path
    try checkTrusted(location, recorded: project.source, project: folder, args, io)
    var source = TemplateSource(name: project.source, location: location)
    source.ref = project.ref
    let resolver = try templateResolver(io, offline: args.flag("--offline"), args)
    let template = try resolver.templateAtNow(source)
    let document = try project.adopt(at: folder, template: template, store: try DocumentStore(environment: io.environment))
    try document.recordTrustedTemplateSource(template.source.location)
    io.error("note: \(folder.path.shownAsText) was made by \(project.tool.rawValue); Folio now records its template in \(DocumentMetadata.path) "
             + "(made from \(template.manifest.id.shownAsText) at \((project.revision ?? "its current version").shownAsText))")
}

private func checkTrusted(_ location: String, recorded: String, project: URL, _ args: Arguments, _ io: CommandIO) throws {
    if let named = args.value("--source") {
        let namedLocation = TemplateSource(name: named, location: named).isRemote ? named : io.url(named).standardizedFileURL.path
        guard named == recorded || namedLocation == location else {
            throw UsageError("--source '\(named)' is not the project's template source '\(recorded)'")
        }
        return
    }
    if try TemplateSource.configured(environment: io.environment).contains(where: { $0.location == location }) { return }
    guard io.isInteractive else { throw UntrustedTemplateSourceError(document: project.path, location: recorded) }
    io.line("\(project.path.shownAsText) says it was made from the template source '\(recorded.shownAsText)'.")
    io.out("Read templates from it for this project? Only say yes if you trust it [y/N]: ")
    guard let answer = try PromptReader(io: io).readLine(), ["y", "yes"].contains(answer.trimming(.whitespaces).lowercased()) else {
        throw UntrustedTemplateSourceError(document: project.path, location: recorded)
    }
}

/// A project cruft made keeps saying which commit of its template it is at (`.cruft.json`'s `commit`), so that
/// `cruft check` and `cruft update` still agree after Folio's update: the file with that value moved to `commit`,
/// nothing else of it changed; none when the document has no `.cruft.json` or it names no commit.
func cruftRecord(_ document: Document, commit: String) throws -> [DocumentFile] {
    guard let data = try? document.read(path: ".cruft.json", at: "HEAD"), let text = String(data: data, encoding: .utf8),
          let match = text.firstMatch(of: /"commit"\s*:\s*"[0-9a-f]{4,64}"/) else { return [] }
    var replaced = text
    replaced.replaceSubrange(match.range, with: "\"commit\": \"\(commit)\"")
    return replaced == text ? [] : [DocumentFile(path: ".cruft.json", data: Data(replaced.utf8), executable: false)]
}
