import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioMustache

/// One file under a template's `files/` folder, as stored in git.
public struct TemplateFile: Sendable, Equatable {
    /// The path relative to `files/`, still holding Mustache tags.
    public var path: String
    /// The content; for a link, its target.
    public var data: Data
    /// The git mode: 0o100644, 0o100755 (executable) or 0o120000 (link).
    public var mode: UInt32

    /// Creates a file.
    public init(path: String, data: Data, mode: UInt32 = 0o100644) { self.path = path; self.data = data; self.mode = mode }
    var isSymlink: Bool { mode == 0o120000 }
}

/// A template loaded from one commit of its source: the manifest, its files and the partials it may use.
/// A value: safe to keep, pass between tasks, and render any number of times.
public struct Template: Sendable {
    public let manifest: TemplateManifest
    /// The template's folder inside its repository.
    public let path: String
    /// The source it was read from.
    public let source: TemplateSource
    /// The commit it was read at.
    public let commit: String
    /// The ref that led to that commit, if any.
    public let ref: String?
    /// Everything under `files/`.
    public let files: [TemplateFile]
    let partials: TemplatePartials
    /// What each Mustache render of this template may take (the resolver sets the limits from the settings).
    public var renderLimits = MustacheLimits()
    /// For a cookiecutter template (`cookiecutter.json`, rendered with Jinja): its configuration; nil for Folio's own.
    public internal(set) var cookiecutter: CookiecutterTemplate?
    /// For a copier template (`copier.yml`, rendered with Jinja): its configuration; nil for others.
    public internal(set) var copier: CopierTemplate?
    /// `git describe --tags --always` of the commit, when it was read from git (copier's `_commit`); nil for others.
    public internal(set) var describedCommit: String?

    /// Creates a template from its parts (for tests and tools; templates normally come from `TemplateResolver`).
    public init(manifest: TemplateManifest, path: String, source: TemplateSource, commit: String, ref: String?, files: [TemplateFile],
                partials: [String: String] = [:], repositoryPartials: [String: String] = [:]) {
        self.manifest = manifest; self.path = path; self.source = source; self.commit = commit; self.ref = ref; self.files = files
        self.partials = TemplatePartials(templateLevel: partials, repositoryLevel: repositoryPartials, templateName: manifest.id)
    }

    /// Where a file of this template is, for error messages: `source: folder/files/path`.
    func describe(_ file: String) -> String {
        "\(source.name): " + (path.isEmpty ? "" : path + "/") + file
    }

    static func load(repository: Repository, tree: ObjectID, path: String, resolved: ResolvedSource) throws -> Template {
        try load(from: GitTemplateTree(repository: repository, tree: tree), path: path, resolved: resolved)
    }

    /// Loads the template at `path` of `tree`: its manifest, files and partials.
    static func load(from tree: some TemplateTree, path: String, resolved: ResolvedSource) throws -> Template {
        let prefix = path.isEmpty ? "" : path + "/"
        let manifestFile = "\(resolved.source.name): \(prefix)template.json"
        guard let manifestEntry = try readingTemplate(manifestFile, { try tree.file(atPath: prefix + "template.json") }) else {
            if let config = try readingTemplate(manifestFile, { try tree.file(atPath: prefix + "cookiecutter.json") }) {
                return try loadCookiecutter(from: tree, path: path, config: config, resolved: resolved)
            }
            let copierFiles = try ["copier.yml", "copier.yaml"].compactMap { name in
                try readingTemplate(manifestFile, { try tree.file(atPath: prefix + name) })
            }
            if copierFiles.count > 1 {
                throw TemplateError("\(resolved.source.name): \(prefix)copier.yml", "and copier.yaml are both there: keep one", kind: .invalidFile)
            }
            if let config = copierFiles.first { return try loadCopier(from: tree, path: path, config: config, resolved: resolved) }
            throw TemplateError(manifestFile, "missing", kind: .notFound)
        }
        let manifest = try TemplateManifest.parse(try read(manifestEntry, from: tree, naming: manifestFile), file: manifestFile)
        let filesFolder = "\(resolved.source.name): \(prefix)files"
        let entries = try readingTemplate(filesFolder, { try tree.files(under: prefix + "files") })
        for entry in entries where entry.kind != .blob {
            throw TemplateError("\(filesFolder)/\(entry.path)", "submodules are not allowed in templates", kind: .refusedPath)
        }
        // All at once over the cores; on a failure, again one by one so the error names the file.
        let contents = try tree.contents(of: entries, naming: { "\(filesFolder)/\($0.path)" })
        let files = zip(entries, contents).map { entry, data in TemplateFile(path: entry.path, data: data, mode: entry.mode) }
        func partials(under folder: String) throws -> [String: String] {
            var result: [String: String] = [:]
            let entries = try readingTemplate("\(resolved.source.name): \(folder)") { try tree.files(under: folder) }
            // Mustache names a partial without `.mustache`; Jinja includes any file of the folder by its name.
            let jinja = manifest.templateLanguage == .jinja
            for entry in entries where entry.kind == .blob && !entry.isSymlink && (jinja || entry.path.hasSuffix(".mustache")) {
                let data = try read(entry, from: tree, naming: "\(resolved.source.name): \(folder)/\(entry.path)")
                guard let text = String(data: data, encoding: .utf8) else {
                    throw TemplateError("\(resolved.source.name): \(folder)/\(entry.path)", "partial is not valid UTF-8", kind: .notUTF8)
                }
                result[jinja ? entry.path : String(entry.path.dropLast(".mustache".count))] = text
            }
            return result
        }
        return Template(manifest: manifest, path: path, source: resolved.source, commit: resolved.commit, ref: resolved.ref, files: files,
                        partials: try partials(under: prefix + "partials"),
                        repositoryPartials: path.isEmpty ? [:] : try partials(under: "partials"))
    }

    private static func read(_ entry: TreeEntry, from tree: some TemplateTree, naming name: String) throws -> Data {
        try readingTemplate(name) { try tree.contents(of: [entry]).first ?? Data() }
    }

    /// Fails when the template needs a newer Folio than `folioVersion`.
    public func checkCompatible(folioVersion: String = FolioRelease.version) throws {
        guard let minimum = manifest.minFolioVersion, let needed = SemanticVersion(minimum), let running = SemanticVersion(folioVersion) else { return }
        if running < needed {
            throw TemplateError(describe("template.json"), "template '\(manifest.id)' needs Folio \(minimum) or newer (this is \(folioVersion))", kind: .needsNewerFolio)
        }
    }
}

/// Partials for `{{>name}}` and `{{<name}}`: the template's `partials/` first, then the repository's `partials/`.
/// Nothing else is reachable: names are looked up in what was read from git, never on the filesystem.
struct TemplatePartials: MustachePartialLoader {
    let templateLevel: [String: String]
    let repositoryLevel: [String: String]
    let templateName: String

    func template(named name: String) throws -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        if name.isEmpty || name.hasPrefix("/") || name.contains("\\") || name.contains("%") || name.contains("\0")
            || parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            throw MustacheError(file: templateName, message: "partial '\(name)' would leave the template's partials folders")
        }
        return templateLevel[name] ?? repositoryLevel[name]
    }
}
