import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioSync
import FolioTemplates
import FolioTerminal

/// A document names a template source the user has not trusted for it (it may have come with a clone).
struct UntrustedTemplateSourceError: Error, CustomStringConvertible {
    let document: String
    let location: String

    var description: String {
        let shown = location.shownAsText
        return "\(document): its template source '\(shown)' is not trusted here (the document may come from someone else); "
            + "confirm it on a terminal, or pass --source '\(shown)' to use it"
    }
}

/// Decides whether the template source a document's `.folio/document.json` names may be read (fetched or
/// snapshotted). Trusted without asking: Folio's bundled templates, a source configured in the settings, a source
/// recorded as trusted for this document (it was made here with `folio new --template`, or the user confirmed it),
/// and the source named with `--source`. Otherwise the user is asked when on a terminal, and a yes is recorded.
func trustedTemplateSource(for document: Document, origin: DocumentOrigin.Template, _ args: Arguments,
                           _ io: CommandIO) throws -> TrustedTemplateSource {
    let location = origin.source
    let trusted = TrustedTemplateSource(location: location)
    if let named = args.value("--source") {
        guard try namesLocation(named, location, io) else {
            throw UsageError("--source '\(named)' is not the document's template source '\(location)'")
        }
        return trusted
    }
    if location == TemplateSource.bundledLocation { return trusted }
    if try TemplateSource.configured(environment: io.environment).contains(where: { $0.location == location }) { return trusted }
    if try document.trustedTemplateSources().contains(location) { return trusted }
    guard io.isInteractive, try confirm(location, document: document, io) else {
        throw UntrustedTemplateSourceError(document: document.url.path, location: location)
    }
    try document.recordTrustedTemplateSource(location)
    return trusted
}

/// Whether `--source` text names `location`: as written, as a configured source's name, or as a local path.
private func namesLocation(_ named: String, _ location: String, _ io: CommandIO) throws -> Bool {
    if named == location { return true }
    if try TemplateSource.configured(environment: io.environment).contains(where: { $0.name == named && $0.location == location }) { return true }
    return !TemplateSource(name: named, location: named).isRemote && io.url(named).standardizedFileURL.path == location
}

/// Asks whether to use `location` for `document`.
private func confirm(_ location: String, document: Document, _ io: CommandIO) throws -> Bool {
    io.line("\(document.url.path.shownAsText) says it was made from the template source '\(location.shownAsText)'.")
    io.out("Read templates from it for this document? Only say yes if you trust it [y/N]: ")
    guard let answer = try PromptReader(io: io).readLine() else { return false }
    return ["y", "yes"].contains(answer.trimming(.whitespaces).lowercased())
}
