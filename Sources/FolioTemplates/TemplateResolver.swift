import FoundationEssentials
import FolioBasics
import Dispatch
import Glibc
import FolioCore
import FolioGit
import Synchronization

/// Resolves template sources to commits and lists their templates: concurrently, cached, offline-capable.
///
/// Every libgit2 handle is opened and used inside one task; only values cross task boundaries.
public struct TemplateResolver: Sendable {
    /// The environment (XDG folders, `FOLIO_TEMPLATES`).
    public let environment: [String: String]
    /// Use cached copies only: never touch the network.
    public let offline: Bool
    /// Where mirrors and snapshots are kept: `$XDG_CACHE_HOME/folio/sources`.
    public let cacheFolder: URL
    /// How large a plain template folder may be, what each render of a loaded template may take, and how long a
    /// fetch may go without progress.
    public let limits: TemplateLimits
    /// Polled by every fetch besides the task's own cancellation: returning true cancels them (the launcher's Esc).
    public var isCancelled: (@Sendable () -> Bool)?

    /// A resolver for `environment`; `limits` defaults to those in the settings (Folio's defaults when the settings
    /// cannot be read: commands that care read them first and report a malformed file).
    public init(environment: [String: String], offline: Bool = false, limits: TemplateLimits? = nil) {
        self.environment = environment
        self.offline = offline
        self.cacheFolder = FolioPaths(environment: environment).cacheHome.appendingPathComponent("sources")
        self.limits = limits ?? (try? Settings.load(environment: environment)).map(TemplateLimits.init(settings:)) ?? TemplateLimits()
    }

    /// Resolves one source: fetches (or snapshots) it, picks the commit for its ref, and lists its templates.
    public func resolve(_ source: TemplateSource, progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws -> ResolvedSource {
        let cancel = CancelFlag(also: isCancelled)
        return try await withTaskCancellationHandler {
            try await Self.blocking { try resolveNow(source, commit: nil, progress: progress, cancel: cancel) }
        } onCancel: { cancel.cancel() }
    }

    /// Resolves every source concurrently; a failing source reports its error without holding up the others.
    /// The stream ends when every source has resolved or failed; stopping iteration cancels the fetches.
    public func resolveAll(_ sources: [TemplateSource]) -> AsyncStream<SourceEvent> {
        AsyncStream { continuation in
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    for source in sources {
                        group.addTask {
                            do {
                                let resolved = try await resolve(source) { continuation.yield(.progress(source, $0)) }
                                continuation.yield(.resolved(resolved))
                            } catch {
                                continuation.yield(.failed(source, error is CancellationError ? "\(source.name): cancelled" : TemplateError.oneLine(error)))
                            }
                        }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Loads a template with everything needed to render it.
    public func template(_ id: String, in resolved: ResolvedSource) async throws -> Template {
        try await Self.blocking { try loadTemplate(id, in: resolved) }
    }

    /// Finds `id` in the first of `sources` that has it (resolving them in order), and loads it.
    public func findTemplate(_ id: String, in sources: [TemplateSource],
                             progress: (@Sendable (TemplateSource, TransferProgress) -> Void)? = nil) async throws -> Template {
        let cancel = CancelFlag(also: isCancelled)
        return try await withTaskCancellationHandler {
            try await Self.blocking { try findTemplateNow(id, in: sources, progress: progress, cancel: cancel) }
        } onCancel: { cancel.cancel() }
    }

    /// `findTemplate` on the calling thread, which owns every handle it opens: for a command line, which has nothing
    /// else to do meanwhile (a task and its thread hops delay a local folder's first file: Benchmarks/README.md).
    public func findTemplateNow(_ id: String, in sources: [TemplateSource],
                                progress: (@Sendable (TemplateSource, TransferProgress) -> Void)? = nil) throws -> Template {
        try findTemplateNow(id, in: sources, progress: progress, cancel: CancelFlag(also: isCancelled))
    }

    private func findTemplateNow(_ id: String, in sources: [TemplateSource],
                                 progress: (@Sendable (TemplateSource, TransferProgress) -> Void)?, cancel: CancelFlag) throws -> Template {
        var problems: [String] = []
        for source in sources {
            let resolved: ResolvedSource
            do {
                var sourceProgress: (@Sendable (TransferProgress) -> Void)?
                if let progress { sourceProgress = { progress(source, $0) } }
                resolved = try resolveNow(source, commit: nil, progress: sourceProgress, cancel: cancel)
            } catch {
                if sources.count == 1 { throw error }
                problems.append(TemplateError.oneLine(error))
                continue
            }
            if resolved.templates.contains(where: { $0.id == id }) { return try loadTemplate(id, in: resolved) }
            problems += resolved.warnings
        }
        let names = sources.map(\.name).joined(separator: ", ")
        throw TemplateError(id, "no such template in \(names)" + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"), kind: .notFound)
    }

    /// The template at `location` itself (a folder, a git URL, or a short form such as `gh:owner/repo`), as
    /// `cookiecutter LOCATION` takes it: the one template at its root, else its only template.
    ///
    /// `directory`, when given, names the template's folder inside the location (cookiecutter's `--directory`, for
    /// repositories holding several).
    public func templateAtNow(_ location: TemplateSource, directory: String? = nil,
                              progress: (@Sendable (TemplateSource, TransferProgress) -> Void)? = nil) throws -> Template {
        var sourceProgress: (@Sendable (TransferProgress) -> Void)?
        if let progress { sourceProgress = { progress(location, $0) } }
        let resolved = try resolveNow(location, commit: nil, progress: sourceProgress, cancel: CancelFlag(also: isCancelled))
        if let directory {
            let folder = directory.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
            guard let named = resolved.templates.first(where: { $0.path == folder }) else {
                let found = resolved.templates.map { $0.path.isEmpty ? "." : $0.path }
                throw TemplateError(location.name, "holds no template in \(directory)" + (found.isEmpty ? "" : " (templates in: \(found.joined(separator: ", ")))"),
                                    kind: .notFound)
            }
            return try loadTemplate(named.id, in: resolved)
        }
        let chosen = resolved.templates.first { $0.path.isEmpty } ?? (resolved.templates.count == 1 ? resolved.templates.first : nil)
        guard let chosen else {
            let found = resolved.templates.map(\.id)
            // A manifest that does not read (malformed, too deep) is why nothing was found: say that, not "none".
            if found.isEmpty, let problem = resolved.warnings.first {
                let prefix = location.name + ": "
                throw TemplateError(location.name, problem.hasPrefix(prefix) ? String(problem.dropFirst(prefix.count)) : problem, kind: .invalidFile)
            }
            throw TemplateError(location.name, found.isEmpty ? "holds no template (no template.json, cookiecutter.json or copier.yml)"
                                : "holds \(found.count) templates (\(found.joined(separator: ", "))): name one", kind: .notFound)
        }
        return try loadTemplate(chosen.id, in: resolved)
    }

    /// Loads the exact template a document was made from: its source at its recorded commit. A document may come
    /// from anyone, so the source it names is used only when the caller vouches for it with `trusted`.
    public func recordedTemplate(_ origin: DocumentOrigin.Template, trusted: TrustedTemplateSource) async throws -> Template {
        try trusted.check(origin.source)
        let source = TemplateSource(name: origin.source == TemplateSource.bundledLocation ? "bundled" : origin.source,
                                    location: origin.source, ref: origin.ref)
        let cancel = CancelFlag(also: isCancelled)
        return try await withTaskCancellationHandler {
            try await Self.blocking {
                let resolved = try resolveNow(source, commit: origin.commit, progress: nil, cancel: cancel)
                return try loadTemplate(origin.id, in: resolved)
            }
        } onCancel: { cancel.cancel() }
    }

    /// Brings every remote source's mirror up to date (a refresh of the cache); returns what each resolved to.
    public func update(_ sources: [TemplateSource]) async -> [SourceEvent] {
        var events: [SourceEvent] = []
        for await event in resolveAll(sources) {
            if case .progress = event { continue }
            events.append(event)
        }
        return events
    }

    // MARK: Blocking work

    /// Runs blocking libgit2 work off the cooperative pool.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Resolves a source synchronously (on the calling thread, which owns every handle it opens).
    func resolveNow(_ source: TemplateSource, commit wanted: String?, progress: (@Sendable (TransferProgress) -> Void)?,
                    cancel: CancelFlag) throws -> ResolvedSource {
        // A location with a password would be stored in the settings, the cache and the documents made from it.
        if RemoteURL.holdsPassword(source.location) {
            throw TemplateError(RemoteURL.redacted(source.location), "the URL holds a password (user:password@), which Folio never stores or shows: "
                                + "give the secret through FOLIO_GIT_TOKEN or .netrc instead", kind: .sourceUnavailable)
        }
        var warnings: [String] = []
        var fetchedAt: Date?
        var snapshot = false
        let repository: Repository
        if source.location == TemplateSource.bundledLocation {
            guard let folder = TemplateSource.bundledFolder(environment: environment) else {
                throw TemplateError(source.name, "cannot find Folio's bundled templates (no share/folio/templates/catalog.json beside the folio executable; set FOLIO_TEMPLATES)", kind: .notFound)
            }
            if source.ref != nil { throw TemplateError(source.name, "a plain folder has no refs", kind: .refOnPlainFolder) }
            let walk = try FolderSnapshot.walk(folder, sourceName: source.name, limits: limits)
            if wanted == nil, let resolved = resolveCurrent(walk, source: source) { return resolved }
            repository = try FolderSnapshot.snapshot(walk, cache: cacheFolder, sourceName: source.name)
            snapshot = true
        } else if source.isRemote {
            let mirror = try RemoteMirror(location: source.location, cacheFolder: cacheFolder, sourceName: source.name, environment: environment,
                                          timeout: limits.networkTimeout)
            (repository, fetchedAt, warnings) = try mirror.update(offline: offline, progress: progress, cancel: cancel)
        } else {
            let folder = URL(fileURLWithPath: source.location).standardizedFileURL
            var isDirectory: Bool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory else {
                throw TemplateError(source.name, "\(folder.path): no such folder", kind: .notFound)
            }
            if Self.mayHoldRepository(folder), Repository.exists(at: folder) {
                do { repository = try Repository.open(at: folder) } catch {
                    throw TemplateError(source.name, "cannot open the git repository at \(folder.path): \(error)", kind: .sourceUnavailable)
                }
            } else {
                if source.ref != nil && wanted == nil { throw TemplateError(source.name, "\(folder.path) is a plain folder, not a git repository; it has no refs", kind: .sourceUnavailable) }
                let walk = try FolderSnapshot.walk(folder, sourceName: source.name, limits: limits)
                if wanted == nil, let resolved = resolveCurrent(walk, source: source) { return resolved }
                repository = try FolderSnapshot.snapshot(walk, cache: cacheFolder, sourceName: source.name)
                snapshot = true
            }
        }
        if cancel.isCancelled { throw CancellationError() }
        let (commitID, refName) = try Self.pickCommit(in: repository, ref: wanted ?? source.ref, exact: wanted != nil, source: source)
        let tree = try readingTemplate("\(source.name): commit \(commitID.hex)") { try repository.commit(commitID).tree }
        let listing = try TemplateListing.read(repository: repository, tree: tree, sourceName: source.name)
        PhaseTrace.mark("template source resolved")
        return ResolvedSource(source: source, commit: commitID.hex, ref: snapshot ? nil : wanted == nil ? refName : source.ref, templates: listing.templates,
                              groups: listing.groups, warnings: warnings + listing.warnings, fetchedAt: fetchedAt,
                              gitDirectory: repository.gitDirectory)
    }

    /// A plain folder whose snapshot is current, listed straight from its files (no libgit2); nil when it is not
    /// current or changes while being listed (the caller then snapshots it).
    private func resolveCurrent(_ walk: FolderSnapshot.Walk, source: TemplateSource) -> ResolvedSource? {
        guard let current = FolderSnapshot.current(walk, cache: cacheFolder),
              let listing = try? TemplateListing.read(FolderTemplateTree(current), sourceName: source.name) else { return nil }
        PhaseTrace.mark("template source resolved (current folder)")
        return ResolvedSource(source: source, commit: current.commit.hex, ref: nil, templates: listing.templates, groups: listing.groups,
                              warnings: listing.warnings, fetchedAt: nil, gitDirectory: current.gitDirectory, folder: current)
    }

    /// Whether `folder` has what a git repository needs to be opened (a `.git`, or a bare layout's HEAD, objects and
    /// refs), checked without libgit2: a plain folder then never waits for libgit2 to finish starting.
    static func mayHoldRepository(_ folder: URL) -> Bool {
        let path = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        if access(path + ".git", F_OK) == 0 { return true }
        return access(path + "HEAD", F_OK) == 0 && access(path + "objects", F_OK) == 0 && access(path + "refs", F_OK) == 0
    }

    /// The commit for `ref` (a tag, branch or commit id); without one, the newest semver tag, else HEAD.
    static func pickCommit(in repository: Repository, ref: String?, exact: Bool, source: TemplateSource) throws -> (ObjectID, String?) {
        if let ref {
            if !exact {
                for candidate in ["refs/tags/\(ref)", "refs/heads/\(ref)", "refs/remotes/origin/\(ref)"] {
                    if let target = try? repository.referenceTarget(candidate), let id = try? repository.resolveCommit(candidate) {
                        _ = target
                        return (id, ref)
                    }
                }
            }
            let looksLikeID = ref.count >= 4 && ref.count <= 40 && ref.allSatisfy(\.isHexDigit)
            if looksLikeID, let id = try? repository.resolveCommit(ref) { return (id, nil) }
            throw TemplateError(source.name, exact ? "commit \(ref) is not in the source (was its history rewritten?)"
                                                   : "unknown ref '\(ref)' (no such branch, tag or commit)", kind: .notFound)
        }
        let tags = (try? repository.tags()) ?? []
        let versioned = tags.compactMap { tag in SemanticVersion(tag.name).map { (version: $0, tag: tag) } }
        if let newest = versioned.filter({ $0.version.prerelease.isEmpty }).max(by: { $0.version < $1.version }) ?? versioned.max(by: { $0.version < $1.version }) {
            return (newest.tag.target, newest.tag.name)
        }
        guard let head = try? repository.headCommitID() else {
            throw TemplateError(source.name, "the repository has no commits", kind: .notFound)
        }
        let branch = (try? repository.headBranch()) ?? nil
        return (head, branch.map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst("refs/heads/".count)) : $0 })
    }

    /// Reads one template's manifest, files and partials out of the git objects of the resolved commit.
    func loadTemplate(_ id: String, in resolved: ResolvedSource) throws -> Template {
        guard let summary = resolved.templates.first(where: { $0.id == id }) else {
            let extra = resolved.warnings.isEmpty ? "" : " (\(resolved.warnings.joined(separator: "; ")))"
            throw TemplateError(id, "no such template in source '\(resolved.source.name)'\(extra)", kind: .notFound)
        }
        if let folder = resolved.folder {
            do {
                var template = try Template.load(from: FolderTemplateTree(folder), path: summary.path, resolved: resolved)
                template.renderLimits = limits.render
                return template
            } catch is FolderChanged {
                // Changed since it was listed: the snapshot's commit (in the cache repository) holds what was listed.
            }
        }
        guard let commitID = ObjectID(hex: resolved.commit) else { throw TemplateError(resolved.source.name, "bad commit id \(resolved.commit)", kind: .sourceUnavailable) }
        let repository = try readingTemplate("\(resolved.source.name): \(resolved.gitDirectory.path)") { try Repository.open(at: resolved.gitDirectory) }
        let tree = try readingTemplate("\(resolved.source.name): commit \(resolved.commit)") { try repository.commit(commitID).tree }
        var template = try Template.load(repository: repository, tree: tree, path: summary.path, resolved: resolved)
        template.renderLimits = limits.render
        return template
    }
}

/// A thread-safe cancellation flag checked by long libgit2 operations.
final class CancelFlag: Sendable {
    private let cancelled = Mutex(false)
    /// Another cancel this one follows (the resolver's `isCancelled`).
    private let also: (@Sendable () -> Bool)?
    init(also: (@Sendable () -> Bool)? = nil) { self.also = also }
    func cancel() { cancelled.withLock { $0 = true } }
    var isCancelled: Bool { cancelled.withLock { $0 } || also?() == true }
}

/// Runs a read from a template repository; a git failure (a corrupt or missing object) becomes an error naming
/// `what` (the source and the file or commit being read) instead of only an object id.
func readingTemplate<T>(_ what: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as TemplateError {
        throw error
    } catch let error as FolderChanged {
        throw error  // not a broken repository: the caller reads the snapshot's commit instead
    } catch {
        throw TemplateError(what, "cannot read it from the template repository (\(TemplateError.oneLine(error)))", kind: .unreadable)
    }
}

extension TemplateError {
    /// Any error as one line.
    static func oneLine(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
