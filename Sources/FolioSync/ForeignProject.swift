import FolioBasics
import FolioCore
import FolioGit
import FolioJinja
import FolioTemplates
import FoundationEssentials
import Glibc

/// A project copier or cruft made, recognised by the file each leaves in it: copier's answers file
/// (`.copier-answers.yml`: `_src_path`, `_commit`, the answers) or cruft's `.cruft.json` (`template`, `commit`,
/// `context.cookiecutter`). Folio updates it by making it a Folio document made from that template at that revision
/// (`adopt`), after which `folio update` merges template versions three ways as for any document.
public struct ForeignProject: Sendable, Equatable {
    public enum Tool: String, Sendable { case copier, cruft }
    public let tool: Tool
    /// The file that says so, relative to the project.
    public let file: String
    /// The template's location, as the file records it (untrusted: the caller decides whether to read from it).
    public let source: String
    /// The revision it was made from: copier's `git describe` (`v1.2.0`, `v1.2.0-3-gabc1234`, `abc1234`), cruft's commit.
    public let revision: String?
    /// The answers as recorded.
    public let answers: [String: JSONValue]

    /// The project in `folder`, nil when neither file is there (or the folder is a Folio document already).
    public static func find(in folder: URL) throws -> ForeignProject? {
        let fm = FileManager.default
        if fm.fileExists(atPath: folder.appendingPathComponent(DocumentMetadata.path).path) { return nil }
        let names = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
        if let answers = names.sorted().first(where: { $0.hasPrefix(".copier-answers") && ($0.hasSuffix(".yml") || $0.hasSuffix(".yaml")) }) {
            return try copier(folder.appendingPathComponent(answers), name: answers)
        }
        if names.contains(".cruft.json") { return try cruft(folder.appendingPathComponent(".cruft.json")) }
        return nil
    }

    static func read(_ url: URL) throws -> Data {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw TemplateError(url.path, "is not a regular file", kind: .invalidFile)
        }
        guard info.st_size <= 1 << 20 else { throw TemplateError(url.path, "is over 1 MiB", kind: .tooLarge) }
        do { return try Data(contentsOf: url) } catch { throw TemplateError(url.path, "cannot be read: \(error)", kind: .unreadable) }
    }

    static func copier(_ url: URL, name: String) throws -> ForeignProject {
        let documents = try YAMLReader.documents(try read(url), file: url.path)
        guard documents.count == 1, case let .dict(dict) = documents[0] else {
            throw TemplateError(url.path, "is not one mapping of answers", kind: .invalidFile)
        }
        var answers: [String: JSONValue] = [:], source: String?, revision: String?
        for (key, value) in dict.entries {
            guard case let .string(name) = key else { continue }
            switch name {
            case "_src_path": source = value.pythonString
            case "_commit": revision = value.pythonString
            default: if !name.hasPrefix("_"), let json = YAMLReader.json(value) { answers[name] = json }
            }
        }
        guard let source, !source.isEmpty else { throw TemplateError(url.path, "names no template (_src_path)", kind: .invalidFile) }
        return ForeignProject(tool: .copier, file: name, source: source, revision: revision, answers: answers)
    }

    static func cruft(_ url: URL) throws -> ForeignProject {
        let parsed: JinjaValue
        do { parsed = try JinjaValue(json: [UInt8](try read(url))) } catch let error as TemplateError { throw error } catch {
            throw TemplateError(url.path, "is not valid JSON: \(error)", kind: .invalidFile)
        }
        guard case let .dict(dict) = parsed, case let .string(source)? = dict["template"], !source.isEmpty else {
            throw TemplateError(url.path, "names no template (\"template\")", kind: .invalidFile)
        }
        if let directory = dict["directory"], !(directory.pythonString == "None" || directory.pythonString.isEmpty) {
            throw TemplateError(url.path, "names a template directory (\(directory.pythonString)), which Folio does not support yet", kind: .unsupported)
        }
        var answers: [String: JSONValue] = [:]
        if case let .dict(context)? = dict["context"], case let .dict(cookiecutter)? = context["cookiecutter"] {
            for (key, value) in cookiecutter.entries {
                guard case let .string(name) = key, !name.hasPrefix("_"), let json = YAMLReader.json(value) else { continue }
                answers[name] = json
            }
        }
        let revision: String?
        if case let .string(commit)? = dict["commit"] { revision = commit } else { revision = nil }
        return ForeignProject(tool: .cruft, file: ".cruft.json", source: source, revision: revision, answers: answers)
    }

    /// The revision as a ref Folio's resolver takes: a tag or commit as it is, `TAG-N-gHASH` as its commit.
    public var ref: String? {
        guard let revision, !revision.isEmpty else { return nil }
        if let marker = revision.lastIndex(of: "g"), marker > revision.startIndex, revision[revision.index(before: marker)] == "-" {
            let hash = revision[revision.index(after: marker)...]
            if hash.count >= 4, hash.allSatisfy(\.isHexDigit) { return String(hash) }
        }
        return revision
    }

    /// Makes the project in `folder` (a git repository with nothing uncommitted) a Folio document made from
    /// `template` (the template at the recorded revision) with the recorded answers: one commit adding
    /// `.folio/document.json`. Nothing else changes.
    public func adopt(at folder: URL, template: Template, store: DocumentStore) throws -> Document {
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) else {
            throw TemplateError(folder.path, "is not a git repository; Folio keeps a project's history in git (git init, then commit the project)",
                                kind: .invalidFile)
        }
        let repository = try Repository.open(at: folder)
        let changed = try repository.changedPaths()
        guard changed.isEmpty else { throw SyncError.unrecordedChanges(document: folder.path, paths: changed.sorted()) }
        let declared = Set(template.manifest.variables.map(\.name))
        let recorded = answers.filter { declared.contains($0.key) }
        let collected = try template.answers(given: recorded, mode: .defaults, context: Template.defaultsContext(for: folder))
        let origin = DocumentOrigin.Template(id: template.manifest.id, version: template.manifest.version, source: template.source.location,
                                             ref: template.ref, commit: template.commit, answers: template.recordableAnswers(collected))
        let metadata = DocumentMetadata(contentType: ContentType(template.manifest.contentType ?? ContentType.plainText.identifier),
                                        title: folder.lastPathComponent, primaryFile: file, origin: DocumentOrigin(kind: "template", template: origin))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(DocumentMetadata.folder), withIntermediateDirectories: true)
        try metadata.encoded().write(to: folder.appendingPathComponent(DocumentMetadata.path))
        let document = try store.open(at: folder)
        try document.commitWorkTree(message: "Keep this \(tool.rawValue) project with Folio: made from \(RemoteURL.redacted(source))"
                                        + (revision.map { " at \($0)" } ?? ""))
        return document
    }
}
