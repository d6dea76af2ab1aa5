import Foundation
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

    /// Opens the document at `url`, checking that it is one and recovering an interrupted change.
    public func open(at url: URL) throws -> Document {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw FolioError.notADocument(url.path, "no such folder")
        }
        guard isDirectory.boolValue else { throw FolioError.notADocument(url.path, "it is a file") }
        let gitFolder = url.appendingPathComponent(".git")
        guard FileManager.default.fileExists(atPath: gitFolder.path) else {
            throw FolioError.notADocument(url.path, "no git repository in it")
        }
        let repository: Repository
        do { repository = try Repository.open(at: url) } catch {
            throw FolioError.notADocument(url.path, "\(error)")
        }
        guard repository.workDirectory != nil else { throw FolioError.notADocument(url.path, "bare repository") }
        let metadataURL = url.appendingPathComponent(DocumentMetadata.path)
        guard let data = FileManager.default.contents(atPath: metadataURL.path) else {
            throw FolioError.notADocument(url.path, "no \(DocumentMetadata.path)")
        }
        let metadata: DocumentMetadata
        do { metadata = try DocumentMetadata.decode(data) } catch {
            throw FolioError.invalidFile(metadataURL.path, JSONKeys.describe(error))
        }
        let document = try Document(url: url, repository: repository, metadata: metadata, store: self)
        // Under the writer lock: a note read without it may be a live writer's, and clearing it would lose that
        // writer's work-tree update if it is then killed (found by the soak in Benchmarks).
        try document.finishInterruptedChange()
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
    public func create(at url: URL, metadata: DocumentMetadata, files: [DocumentFile], message: String) throws -> Document {
        let fm = FileManager.default
        if fm.fileExists(atPath: url.path) { throw FolioError.alreadyExists(url.path) }
        let parent = url.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path) else {
            throw FolioError.invalidRequest("\(parent.path): the folder to create the document in does not exist")
        }
        for file in files { try DocumentPath.validate(file.path, allowFolioFolder: false) }
        let staging = parent.appendingPathComponent(".\(url.lastPathComponent).folio-new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        var moved = false
        defer { if !moved { try? fm.removeItem(at: staging) } }
        // Nothing is visible until the final rename, so with sync=full the staging folder is flushed once with
        // syncfs(2) before the rename instead of fsyncing every file and object (hundreds for a project template);
        // libgit2's own fsync is off process-wide (see `GitLibrary`).
        let sync = settings.sync == .full
        let repository = try Repository.create(at: staging)
        try repository.configureAsDocument()
        let indexUpdates: [IndexUpdate] = try repository.writingObjectsAsOnePack {
            var changes: [TreeChange] = []
            var indexUpdates: [IndexUpdate] = []
            let all = files + [DocumentFile(path: DocumentMetadata.path, data: try metadata.encoded())]
            for file in all {
                let target = staging.appendingPathComponent(file.path)
                let mode: UInt32
                let blob: ObjectID
                if let link = file.symlinkTarget {
                    try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    guard symlink(link, target.path) == 0 else { throw POSIXFailure(operation: "create link", path: target.path) }
                    mode = 0o120000
                    blob = try repository.writeBlob(Data(link.utf8))
                } else {
                    mode = file.executable ? 0o100755 : 0o100644
                    try AtomicFile.writeNew(file.data, to: target, mode: file.executable ? 0o755 : 0o644)
                    blob = try repository.writeBlob(file.data)
                }
                changes.append(.upsert(path: file.path, blob: blob, mode: mode))
                indexUpdates.append(IndexUpdate(path: file.path, blob: blob, mode: mode))
            }
            let tree = try repository.updateTree(nil, changes)
            let author = Identity.author(settings: settings, environment: environment, repository: repository)
            let committer = Identity.committer(settings: settings, environment: environment, repository: repository)
            let commit = try repository.createCommit(tree: tree, parents: [], author: author, committer: committer, message: message)
            let branch = try repository.headBranch() ?? "refs/heads/main"
            try repository.updateReference(branch, to: commit, expecting: nil, logMessage: "commit (initial): \(message)")
            return indexUpdates
        }
        try repository.updateIndex(indexUpdates, removing: [])
        if sync { AtomicFile.syncFileSystem(containing: staging) }
        guard rename(staging.path, url.path) == 0 else {
            if errno == EEXIST || errno == ENOTEMPTY { throw FolioError.alreadyExists(url.path) }
            throw POSIXFailure(operation: "move new document into place", path: url.path)
        }
        moved = true
        if sync { AtomicFile.syncDirectory(parent) }
        return try open(at: url)
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
