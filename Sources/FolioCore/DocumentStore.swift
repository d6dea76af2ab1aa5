import FoundationEssentials
import FolioBasics
import Glibc
import FolioGit

/// A file to put in a new document.
public struct DocumentFile: Sendable, Equatable {
    public var path: String
    public var data: Data
    public var executable: Bool
    /// When set, the file is a symbolic link to this target and `data` is ignored.
    public var symlinkTarget: String?

    public init(path: String, data: Data, executable: Bool = false, symlinkTarget: String? = nil) {
        self.path = path; self.data = data; self.executable = executable; self.symlinkTarget = symlinkTarget
    }
}

/// Opens, creates and changes documents, with the user's settings (author, durability).
public final class DocumentStore: Sendable {
    public let settings: Settings
    public let environment: [String: String]
    public let contentTypes: ContentTypeRegistry

    /// A store with explicit settings.
    public init(settings: Settings, environment: [String: String], contentTypes: ContentTypeRegistry = .builtIn) {
        self.settings = settings
        self.environment = environment
        self.contentTypes = contentTypes
        GitLibrary.configureConfigSearch(environment: environment)
    }

    /// A store with the settings file of `environment` (defaults when there is none).
    public convenience init(environment: [String: String]) throws {
        self.init(settings: try Settings.load(environment: environment), environment: environment)
    }

    /// A store for opening documents read-only (`open(at:readOnly: true)`): it reads no settings file, since the
    /// settings say how to write (durability, identity) and what to run, none of which reading a history needs.
    public static func forReading(environment: [String: String]) -> DocumentStore {
        DocumentStore(settings: Settings(), environment: environment)
    }

    /// Opens the document at `url`, checking that it is one and finishing an interrupted change.
    ///
    /// With `readOnly`, nothing is written (no lock file is created and no interrupted change finished), so that
    /// reading works on a read-only file system or a document the user may only read. Opening never fails because
    /// finishing a work-tree write fails: `Document.workTreeProblem` then says what is out of date.
    public func open(at url: URL, readOnly: Bool = false) throws -> Document {
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw FolioError.notADocument(path: url.path, why: "no such folder")
        }
        guard isDirectory else { throw FolioError.notADocument(path: url.path, why: "it is a file") }
        var gitInfo = stat()
        guard lstat(url.appendingPathComponent(".git").path, &gitInfo) == 0 else {
            throw FolioError.notADocument(path: url.path, why: "no git repository in it")
        }
        guard gitInfo.st_mode & S_IFMT == S_IFDIR else {
            throw WorkTreeError.redirectedGitFolder(document: url.path, what: ".git is a link or a file pointing elsewhere, not a folder")
        }
        let repository: Repository
        do { repository = try Repository.openDocument(at: url) } catch let error as GitError {
            // libgit2 1.5 may report the ownership check as a missing `safe.directory` value: judge by the owner.
            if error.isOwnedByAnotherUser || gitInfo.st_uid != geteuid() {
                throw FolioError.notADocument(path: url.path, why: "it belongs to another user; git's safe.directory setting must list it")
            }
            throw FolioError.notADocument(path: url.path, why: error.message)
        }
        guard repository.workDirectory != nil else { throw FolioError.notADocument(path: url.path, why: "bare repository") }
        let metadataURL = url.appendingPathComponent(DocumentMetadata.path)
        // Read without following links: `.folio` is the document's own folder.
        guard let data = WorkTree(rootPath: url.path, displayRoot: url.path).read(DocumentMetadata.path) else {
            throw FolioError.notADocument(path: url.path, why: "no \(DocumentMetadata.path)")
        }
        let metadata: DocumentMetadata
        do { metadata = try DocumentMetadata.decode(data) } catch {
            throw FolioError.invalidFile(path: metadataURL.path, problem: JSONKeys.describe(error))
        }
        let document = try Document(url: url, repository: repository, metadata: metadata, store: self, readOnly: readOnly)
        // Under the writer lock: a note read without it may be a live writer's, and clearing it would lose that
        // writer's work-tree update if it is then killed (found by the soak in Benchmarks). A failure to finish
        // leaves the document open and says what is out of date (`workTreeProblem`).
        if !readOnly { try? document.finishInterruptedChange() }
        return document
    }

    /// Creates a blank document of `type` at `url`, first commit "Create <title>".
    public func create(at url: URL, contentType type: ContentType = .plainText, title: String? = nil) throws -> Document {
        let title = title ?? url.deletingPathExtension().lastPathComponent
        let primary = DocumentMetadata.defaultPrimaryFile(for: type, registry: contentTypes)
        let metadata = DocumentMetadata(contentType: type, title: title, primaryFile: primary)
        return try create(at: url, metadata: metadata, files: [DocumentFile(path: primary, data: Data())], message: "Create \(title)")
    }

    /// Creates a document at `url` holding `files` plus its metadata, as one first commit.
    ///
    /// Everything is built in a temporary folder beside `url` and moved into place with one rename, so an error at
    /// any point leaves nothing behind. `url` must not exist.
    /// `staging`, from `beginCreate(at: url)`, is the repository already being made for it (else it is made here).
    public func create(at url: URL, metadata: DocumentMetadata, files: [DocumentFile], message: String,
                       staging prepared: NewDocumentStaging? = nil) throws -> Document {
        let staging = prepared?.folder ?? Self.stagingFolder(for: url)
        do {
            try checkCreate(at: url, files: files)
            let made = try prepared?.take() ?? StagedRepository(repository: Self.makeRepository(at: staging), writer: nil)
            return try create(at: url, staging: staging, repository: made.repository, writer: made.writer, early: prepared?.early,
                              metadata: metadata, files: files, message: message)
        } catch {
            prepared?.discard()  // waits until it is made, so nothing is written after the removal
            try? FileManager.default.removeItem(at: staging)
            throw Self.named(error, staging: staging, url: url)
        }
    }

    /// An error about the staging folder, told about the document's own path.
    private static func named(_ error: any Error, staging: URL, url: URL) -> any Error {
        switch error {
        case let error as WorkTreeError: return error.replacingRoot(staging.path, with: url.path)
        case let error as GitError:
            return WorkTreeError.storeFailed(path: url.path, cause: Document.cause(of: error).replacing(staging.path, with: url.path))
        case let error as FileSystemError:
            return WorkTreeError.storeFailed(path: url.path, cause: error.reason.replacing(staging.path, with: url.path))
        default: return error
        }
    }

    /// Checks, writing nothing, what `create(at:metadata:files:message:)` checks before it writes: the location,
    /// that nothing is there, that its folder exists, and that every path is allowed and fits the file system.
    public func checkCreate(at url: URL, files: [DocumentFile]) throws {
        try checkLocation(url)
        // Names are checked against the document's own path (the staging folder's name is shorter).
        let finalTree = WorkTree(rootPath: url.path, displayRoot: url.path)
        for file in files {
            try DocumentPath.validate(file.path, allowFolioFolder: false)
            try finalTree.checkNames(file.path)
        }
    }

    /// The location part of `checkCreate`: allowed, nothing there, its folder exists, and the name and path fit.
    func checkLocation(_ url: URL) throws {
        let fm = FileManager.default
        try DocumentPath.validateLocation(url)
        if fm.fileExists(atPath: url.path) { throw FolioError.alreadyExists(url.path) }
        let parent = url.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path) else {
            throw FolioError.missingFolder(parent.path)
        }
        try checkNotInsideDocument(url)
        let name = url.lastPathComponent
        if name.utf8.count > WorkTree.nameMax { throw WorkTreeError.nameTooLong(path: url.path, name: name, bytes: name.utf8.count) }
        // Room for git's deepest own path (a pack index with a SHA-256 name) inside the document.
        let gitDepth = "/.git/objects/pack/pack-".utf8.count + 64 + ".idx".utf8.count
        if url.path.utf8.count + gitDepth >= WorkTree.pathMax { throw WorkTreeError.pathTooLong(path: url.path, bytes: url.path.utf8.count) }
    }

    private func create(at url: URL, staging: URL, repository: Repository, writer: Repository?, early: EarlyFileWriter?,
                        metadata: DocumentMetadata, files: [DocumentFile], message: String) throws -> Document {
        let parent = url.deletingLastPathComponent()
        // (On any error the public `create` removes the staging folder.) Nothing is visible until the final rename, so with sync=full the staging folder is flushed once with
        // syncfs(2) before the rename instead of fsyncing every file and object (hundreds for a project template);
        // libgit2's own fsync is off process-wide (see `GitLibrary`).
        let sync = settings.sync == .full
        let all = files + [DocumentFile(path: DocumentMetadata.path, data: try metadata.encoded())]
        PhaseTrace.mark("repository created")
        // The files and their objects at the same time: the work tree on one thread; on another the blobs, tree and
        // commit, then their pack (the work tree takes about twice as long, so the pack is written meanwhile). Only
        // that second thread uses `repository` and `writer` until both are done.
        // Each variable is written by its own side only and read after both have finished.
        var written: [stat?] = [], blobs: [ObjectID] = []
        _ = try parallelMap(2) { side throws in
            if side == 0 {
                defer { PhaseTrace.mark("work tree written") }
                written = try Self.writeFiles(all, into: staging, written: try early?.finish() ?? [:])
            } else {
                defer { PhaseTrace.mark("objects and their pack written") }
                blobs = try repository.writingObjectsAsOnePack(using: writer) { writer in
                    try self.writeFirstCommit(all, message: message, repository: writer)
                }
            }
        }
        PhaseTrace.mark("files and objects written")
        let indexUpdates = zip(all, zip(written, blobs)).map { file, pair in
            IndexUpdate(path: file.path, blob: pair.1, mode: Self.mode(of: file), written: pair.0)
        }
        try repository.updateIndex(indexUpdates, removing: [])
        PhaseTrace.mark("index written")
        if sync { AtomicFile.syncFileSystem(containing: staging); PhaseTrace.mark("flushed to disk") }
        guard rename(staging.path, url.path) == 0 else {
            if errno == EEXIST || errno == ENOTEMPTY { throw FolioError.alreadyExists(url.path) }
            throw POSIXFailure(operation: "move new document into place", path: url.path)
        }
        if sync { AtomicFile.syncDirectory(parent) }
        PhaseTrace.mark("moved into place")
        return try open(at: url)
    }
}

extension DocumentStore {
    fileprivate static func mode(of file: DocumentFile) -> UInt32 {
        file.symlinkTarget != nil ? 0o120000 : file.executable ? 0o100755 : 0o100644
    }

    /// Writes `files` into the private staging folder beneath it without following links (a link among the files
    /// is never a way out), straight to their names; returns what `fstat` said of each regular file.
    /// `written` holds the files already written early (`EarlyFileWriter`) and what `fstat` said of them.
    fileprivate static func writeFiles(_ files: [DocumentFile], into staging: URL, written: [String: stat?]) throws -> [stat?] {
        let workTree = WorkTree(rootPath: staging.path, displayRoot: staging.path)
        let writer = NewFileWriter(workTree)
        return try files.map { file in
            if let done = written[file.path] { return done }
            if let link = file.symlinkTarget {
                try workTree.writeLink(link, to: file.path, sync: false)
                return nil
            }
            return try writer.write(file.data, to: file.path, mode: file.executable ? 0o755 : 0o644)
        }
    }

    /// Writes the blobs of `files`, their tree and the first commit, and points the branch at it; returns the blobs.
    fileprivate func writeFirstCommit(_ files: [DocumentFile], message: String, repository: Repository) throws -> [ObjectID] {
        var changes: [TreeChange] = []
        changes.reserveCapacity(files.count)
        let blobs = try files.map { file in
            let blob = try repository.writeBlob(file.symlinkTarget.map { Data($0.utf8) } ?? file.data)
            changes.append(.upsert(path: file.path, blob: blob, mode: Self.mode(of: file)))
            return blob
        }
        let tree = try repository.updateTree(nil, changes)
        let author = try Identity.author(settings: settings, environment: environment, repository: repository)
        let committer = try Identity.committer(settings: settings, environment: environment, repository: repository)
        let commit = try repository.createCommit(tree: tree, parents: [], author: author, committer: committer, message: message)
        let branch = try repository.headBranch() ?? "refs/heads/main"
        try repository.updateReference(branch, to: commit, expecting: nil, logMessage: "commit (initial): \(message)")
        return blobs
    }
}

extension Repository {
    /// The git settings of a repository that Folio creates as a document (new or cloned):
    /// - `core.commitGraph`: readers use the commit-graph Folio's maintenance writes.
    /// - `core.logAllRefUpdates = false`: no reflogs. Folio only ever moves a branch forward (every change, undo,
    ///   restore and pull adds commits on top), so a reflog would repeat `git log --first-parent` line for line,
    ///   cost two more file appends per change, and grow by ~270 bytes a change. Setting it back to true in the
    ///   document's git config turns reflogs on again; Folio follows the config.
    package func configureAsDocument() throws {
        try setConfig("core.commitGraph", true)
        try setConfig("core.logAllRefUpdates", false)
    }
}

extension DocumentStore {
    /// Refuses a new document (created or cloned) at `url` when a folder above it is a document: the outer one would
    /// list the new repository as an unrecordable change for ever. The folders are those the file system really
    /// holds `url` in (links in the way resolved); `url`'s own folder must exist.
    public func checkNotInsideDocument(_ url: URL) throws {
        guard let resolved = realpath(url.deletingLastPathComponent().path, nil) else { return }
        var folder = String(cString: resolved)
        free(resolved)
        while true {
            if Self.isDocumentFolder(folder) {
                throw FolioError.invalidDocumentPath(path: url.path, problem: .insideDocument(folder))
            }
            guard folder != "/", let slash = folder.lastIndex(of: "/") else { return }
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
        }
    }

    /// Whether `folder` holds a `.git` and a `.folio/document.json` (read without following links).
    static func isDocumentFolder(_ folder: String) -> Bool {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var info = stat()
        guard lstat(base + ".git", &info) == 0 else { return false }
        return lstat(base + DocumentMetadata.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
