import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit

/// One template's raw parts as its author keeps them — the manifest bytes, `files/`, partials and `tests/` — read
/// without parsing anything, so that `folio templates lint` can report a broken manifest instead of failing on it.
public struct TemplateAuthoringTree: Sendable {
    /// How the template is named in messages: its folder, or `source: path`.
    public var name: String
    /// The template's folder on disk, when it is a local folder (fixtures can then be rewritten there).
    public var folder: URL?
    /// The bytes of `template.json`; nil when there is none.
    public var manifest: Data?
    /// Everything under `files/`.
    public var files: [TemplateFile]
    /// `partials/*.mustache` beside `template.json`, by name (without `.mustache`).
    public var partials: [String: Data]
    /// `partials/*.mustache` at the repository's root, by name.
    public var repositoryPartials: [String: Data]
    /// Every file of `partials/` beside `template.json` by its name, and of the repository's: what a Jinja template includes.
    public var jinjaPartials: [String: Data] = [:]
    public var jinjaRepositoryPartials: [String: Data] = [:]
    /// Everything under `tests/` (paths relative to `tests/`).
    public var tests: [TemplateFile]
    /// Every file of the folder, when it holds no `template.json` (a cookiecutter or copier template is linted from
    /// these).
    public var folderFiles: [TemplateFile] = []
    /// Reads this template as it was at a ref (tag, branch or commit) of the git repository it lives in; nil when
    /// it lives in no repository (update fixtures then describe the older version as a tree).
    public var atRef: (@Sendable (String) throws -> TemplateAuthoringTree)?

    /// Creates a tree from its parts (for tests and tools).
    public init(name: String, folder: URL? = nil, manifest: Data?, files: [TemplateFile], partials: [String: Data] = [:],
                repositoryPartials: [String: Data] = [:], tests: [TemplateFile] = []) {
        self.name = name; self.folder = folder; self.manifest = manifest; self.files = files
        self.partials = partials; self.repositoryPartials = repositoryPartials; self.tests = tests
    }

    /// Reads the template in `folder` (the one holding `template.json`) from disk, within `limits`. The repository's
    /// `partials/` are those of the nearest folder above holding `catalog.json` or `.git`.
    public static func read(folder: URL, limits: TemplateLimits = TemplateLimits()) throws -> TemplateAuthoringTree {
        let folder = folder.standardizedFileURL
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory else {
            throw TemplateError(folder.path, "no such folder", kind: .notFound)
        }
        var walk = FolderSnapshot.Walk(root: folder, sourceName: folder.path, limits: limits)
        try walk.collect(folder, prefix: "")
        var tree = TemplateAuthoringTree(name: folder.path, folder: folder, manifest: nil, files: [])
        for entry in walk.entries {
            let file = try readEntry(entry)
            tree.folderFiles.append(TemplateFile(path: entry.path, data: file.data, mode: file.mode))
            if entry.path == "template.json" {
                tree.manifest = file.isSymlink ? nil : file.data
            } else if let rest = entry.path.dropping(prefix: "files/") {
                tree.files.append(TemplateFile(path: rest, data: file.data, mode: file.mode))
            } else if let rest = entry.path.dropping(prefix: "tests/") {
                tree.tests.append(TemplateFile(path: rest, data: file.data, mode: file.mode))
            } else if let rest = entry.path.dropping(prefix: "partials/"), !file.isSymlink {
                if rest.hasSuffix(".mustache") { tree.partials[String(rest.dropLast(".mustache".count))] = file.data }
                tree.jinjaPartials[rest] = file.data
            }
        }
        if tree.manifest != nil { tree.folderFiles = [] }
        tree.atRef = gitReader(for: folder)
        if let root = repositoryRoot(above: folder) {
            let partialsFolder = root.appendingPathComponent("partials")
            if FileManager.default.fileExists(atPath: partialsFolder.path) {
                var partialWalk = FolderSnapshot.Walk(root: partialsFolder, sourceName: partialsFolder.path, limits: limits)
                try partialWalk.collect(partialsFolder, prefix: "")
                for entry in partialWalk.entries where !entry.isLink && entry.path.hasSuffix(".mustache") {
                    tree.repositoryPartials[String(entry.path.dropLast(".mustache".count))] = try readEntry(entry).data
                }
            }
        }
        return tree
    }

    /// Reads the template at `path` of `tree` in `repository` (a source's commit).
    static func read(repository: Repository, tree: ObjectID, path: String, name: String) throws -> TemplateAuthoringTree {
        let prefix = path.isEmpty ? "" : path + "/"
        var result = TemplateAuthoringTree(name: name, manifest: nil, files: [])
        func blobs(_ folder: String) throws -> [TemplateFile] {
            try readingTemplate("\(name): \(folder)") {
                try repository.files(under: folder, inTree: tree).filter { $0.kind == .blob }.map {
                    TemplateFile(path: $0.path, data: try repository.readBlob($0.id), mode: $0.mode)
                }
            }
        }
        if let entry = try readingTemplate("\(name): template.json", { try repository.entry(atPath: prefix + "template.json", inTree: tree) }),
           entry.kind == .blob, !entry.isSymlink {
            result.manifest = try readingTemplate("\(name): template.json") { try repository.readBlob(entry.id) }
        }
        result.files = try blobs(prefix + "files")
        result.tests = try blobs(prefix + "tests")
        for file in try blobs(prefix + "partials") where !file.isSymlink {
            if file.path.hasSuffix(".mustache") { result.partials[String(file.path.dropLast(".mustache".count))] = file.data }
            result.jinjaPartials[file.path] = file.data
        }
        if !path.isEmpty {
            for file in try blobs("partials") where !file.isSymlink {
                if file.path.hasSuffix(".mustache") { result.repositoryPartials[String(file.path.dropLast(".mustache".count))] = file.data }
                result.jinjaRepositoryPartials[file.path] = file.data
            }
        }
        return result
    }

    /// A reader of `folder`'s template at a ref, when `folder` is inside a git work tree.
    static func gitReader(for folder: URL) -> (@Sendable (String) throws -> TemplateAuthoringTree)? {
        var root = folder
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path) {
            let parent = root.deletingLastPathComponent()
            if parent.path == root.path || parent.path.isEmpty { return nil }
            root = parent
        }
        let relative = String(folder.path.dropFirst(root.path.count)).trimming(ScalarSet(charactersIn: "/"))
        let repositoryRoot = root
        return { ref in
            let repository = try readingTemplate(repositoryRoot.path) { try Repository.open(at: repositoryRoot) }
            return try read(repository: repository, path: relative, ref: ref, name: "\(folder.path)@\(ref)")
        }
    }

    /// Reads the template at `path` of `repository` at `ref`.
    static func read(repository: Repository, path: String, ref: String, name: String) throws -> TemplateAuthoringTree {
        let (commit, _) = try TemplateResolver.pickCommit(in: repository, ref: ref, exact: false, source: TemplateSource(name: name, location: name))
        let tree = try readingTemplate("\(name): commit \(commit.hex)") { try repository.commit(commit).tree }
        var result = try read(repository: repository, tree: tree, path: path, name: name)
        result.atRef = nil
        return result
    }

    private static func readEntry(_ entry: FolderSnapshot.Entry) throws -> TemplateFile {
        do {
            if entry.isLink {
                let target = try FileManager.default.destinationOfSymbolicLink(atPath: entry.url.path)
                return TemplateFile(path: entry.path, data: Data(target.utf8), mode: 0o120000)
            }
            let data = try Data(contentsOf: entry.url)
            return TemplateFile(path: entry.path, data: data, mode: entry.executable ? 0o100755 : 0o100644)
        } catch {
            throw TemplateError(entry.url.path, "cannot read it (\(TemplateError.oneLine(error)))", kind: .unreadable)
        }
    }

    /// The nearest folder strictly above `folder` that holds `catalog.json` or `.git`.
    static func repositoryRoot(above folder: URL) -> URL? {
        var current = folder.deletingLastPathComponent()
        while current.path != "/" && !current.path.isEmpty {
            let fm = FileManager.default
            if fm.fileExists(atPath: current.appendingPathComponent("catalog.json").path)
                || fm.fileExists(atPath: current.appendingPathComponent(".git").path) { return current }
            current = current.deletingLastPathComponent()
        }
        return nil
    }
}

extension TemplateResolver {
    /// Finds template `id` in the first of `sources` that lists it and reads its raw parts. A template of a plain
    /// folder (the bundled one included) is read from disk, so its fixtures can be rewritten there.
    public func authoringTree(_ id: String, in sources: [TemplateSource]) async throws -> TemplateAuthoringTree {
        var problems: [String] = []
        for source in sources {
            let resolved: ResolvedSource
            do { resolved = try await resolve(source) } catch {
                if sources.count == 1 { throw error }
                problems.append(TemplateError.oneLine(error)); continue
            }
            guard let summary = resolved.templates.first(where: { $0.id == id }) else { problems += resolved.warnings; continue }
            return try await authoringTree(summary, in: resolved)
        }
        let names = sources.map(\.name).joined(separator: ", ")
        throw TemplateError(id, "no such template in \(names)" + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"), kind: .notFound)
    }

    /// Reads every template `source` lists (for linting or testing them all); templates whose manifest the listing
    /// refused are not among them (its warnings say which).
    public func authoringTrees(of source: TemplateSource) async throws -> (trees: [TemplateAuthoringTree], warnings: [String]) {
        let resolved = try await resolve(source)
        var trees: [TemplateAuthoringTree] = []
        for summary in resolved.templates { trees.append(try await authoringTree(summary, in: resolved)) }
        return (trees, resolved.warnings)
    }

    private func authoringTree(_ summary: TemplateSummary, in resolved: ResolvedSource) async throws -> TemplateAuthoringTree {
        let source = resolved.source
        if let folder = plainFolder(of: source) {
            var tree = try TemplateAuthoringTree.read(folder: summary.path.isEmpty ? folder : folder.appendingPathComponent(summary.path), limits: limits)
            tree.name = "\(source.name): \(summary.path)"
            return tree
        }
        return try await Self.blocking {
            guard let commitID = ObjectID(hex: resolved.commit) else { throw TemplateError(source.name, "bad commit id \(resolved.commit)", kind: .sourceUnavailable) }
            let repository = try readingTemplate("\(source.name): \(resolved.gitDirectory.path)") { try Repository.open(at: resolved.gitDirectory) }
            let tree = try readingTemplate("\(source.name): commit \(resolved.commit)") { try repository.commit(commitID).tree }
            var result = try TemplateAuthoringTree.read(repository: repository, tree: tree, path: summary.path, name: "\(source.name): \(summary.path)")
            let gitDirectory = resolved.gitDirectory
            result.atRef = { ref in
                let repository = try readingTemplate("\(source.name): \(gitDirectory.path)") { try Repository.open(at: gitDirectory) }
                return try TemplateAuthoringTree.read(repository: repository, path: summary.path, ref: ref, name: "\(source.name): \(summary.path)@\(ref)")
            }
            return result
        }
    }

    /// The folder of a source that is a plain local folder (not a git repository), nil otherwise.
    private func plainFolder(of source: TemplateSource) -> URL? {
        if source.location == TemplateSource.bundledLocation { return TemplateSource.bundledFolder(environment: environment) }
        guard !source.isRemote else { return nil }
        let folder = URL(fileURLWithPath: source.location).standardizedFileURL
        return Repository.exists(at: folder) ? nil : folder
    }
}

extension String {
    /// The rest of the string after `prefix`, or nil when it does not start with it.
    func dropping(prefix: String) -> String? { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil }
}

extension TemplateAuthoringTree {
    /// The template these parts make, as instantiation would load it (the manifest parsed and checked, partials as
    /// text). `commit` stands for the version it is recorded as.
    public func template(commit: String, limits: TemplateLimits = TemplateLimits()) throws -> Template {
        guard let data = manifest else { throw TemplateError(name, "template.json: missing", kind: .notFound) }
        let parsed = try TemplateManifest.parse(data, file: "\(name)/template.json")
        func texts(_ partials: [String: Data], _ folder: String) throws -> [String: String] {
            var result: [String: String] = [:]
            for (key, data) in partials {
                guard let text = String(data: data, encoding: .utf8) else { throw TemplateError("\(name)/\(folder)/\(key)\(jinja ? "" : ".mustache")", "partial is not valid UTF-8", kind: .notUTF8) }
                result[key] = text
            }
            return result
        }
        let jinja = parsed.templateLanguage == .jinja
        var template = Template(manifest: parsed, path: "", source: TemplateSource(name: name, location: folder?.path ?? name), commit: commit, ref: nil,
                                files: files, partials: try texts(jinja ? jinjaPartials : partials, "partials"),
                                repositoryPartials: try texts(jinja ? jinjaRepositoryPartials : repositoryPartials, "(repository) partials"))
        template.renderLimits = limits.render
        return template
    }

    /// The parts of the fixture-described template under `tests/<prefix>` (for update fixtures' older versions);
    /// the repository's partials are this template's.
    public func subtree(_ prefix: String) -> TemplateAuthoringTree {
        let base = prefix.hasSuffix("/") ? prefix : prefix + "/"
        var result = TemplateAuthoringTree(name: "\(name)/tests/\(base.dropLast())", manifest: nil, files: [], repositoryPartials: repositoryPartials)
        for file in tests {
            guard let rest = file.path.dropping(prefix: base) else { continue }
            if rest == "template.json" { result.manifest = file.data }
            else if let path = rest.dropping(prefix: "files/") { result.files.append(TemplateFile(path: path, data: file.data, mode: file.mode)) }
            else if let path = rest.dropping(prefix: "partials/"), path.hasSuffix(".mustache") { result.partials[String(path.dropLast(".mustache".count))] = file.data }
        }
        return result
    }
}
