import FoundationEssentials
import FolioBasics
import Dispatch
import Glibc
import FolioGit

/// The repository of a document about to be created, made on a thread of its own while the caller prepares the
/// files (a template renders): `DocumentStore.beginCreate(at:)` starts it, `create(…, staging:)` finishes the
/// document in it. Dropped unused, it waits for its thread and removes the folder, so nothing is left behind.
public final class NewDocumentStaging: Sendable {
    /// The hidden folder beside the destination.
    let folder: URL
    private let making: Making
    /// The files handed over early (`writeEarly`), written into `folder` while the rest is prepared.
    let early: EarlyFileWriter

    init(folder: URL, make: @escaping @Sendable () throws -> StagedRepository) {
        self.folder = folder
        early = EarlyFileWriter(folder: folder)
        let making = Making()
        self.making = making
        // The thread holds only `making`, never this object, so dropping this object is what removes the folder.
        DetachedThread.start(stackSize: 1 << 20) { making.finish(Result { try make() }) }
    }

    /// Waits for the repository; the caller owns the folder from here and removes it on failure.
    func take() throws -> StagedRepository {
        try making.take()
    }

    /// Starts writing `files`, already rendered, into the staging folder; `create` writes the others.
    public func writeEarly(_ files: [DocumentFile]) {
        early.write(files)
    }

    /// Waits for the making thread and the early writes, and removes the folder now (the document will not be
    /// created); once the repository was taken, the caller removes the folder.
    func discard() {
        early.drain()
        guard making.abandon() else { return }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { discard() }
}

/// The making thread's result, handed over once.
private final class Making: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `result` is written once by the making thread before `made` is signalled; it is read, and `waited`
    // and `taken` are used, only by the owner's thread after waiting on `made`.
    private let made = DispatchSemaphore(value: 0)
    private var result: Result<StagedRepository, any Error> = .failure(CancellationError())
    private var waited = false
    private var taken = false

    func finish(_ result: Result<StagedRepository, any Error>) {
        self.result = result
        made.signal()
    }

    func take() throws -> StagedRepository {
        wait()
        taken = true
        return try result.get()
    }

    /// Waits for the thread; true the first time when the repository was never taken (its folder is then the
    /// owner's to remove), false afterwards.
    func abandon() -> Bool {
        wait()
        defer { taken = true }
        return !taken
    }

    private func wait() {
        if !waited { made.wait(); waited = true }
    }
}

extension DocumentStore {
    /// Checks the location as `create` does (nothing is there, its folder exists, the name fits) and starts making
    /// the new document's repository in its hidden folder on a thread of its own; pass the result to
    /// `create(at:metadata:files:message:staging:)`. The repository (`git init` and its settings) is then
    /// made while the caller prepares the files.
    public func beginCreate(at url: URL) throws -> NewDocumentStaging {
        try checkLocation(url)
        let folder = Self.stagingFolder(for: url, removingAbandoned: false)
        return NewDocumentStaging(folder: folder) {
            // Off the caller's thread too: listing the destination's folder for abandoned staging folders.
            Self.removeAbandonedStaging(in: folder.deletingLastPathComponent())
            let repository = try Self.makeRepository(at: folder)
            PhaseTrace.mark("repository made (its own thread)")
            // The second handle the first commit's objects are written through (`writingObjectsAsOnePack`).
            return StagedRepository(repository: repository, writer: try Repository.open(at: repository.gitDirectory))
        }
    }

    /// What every staging folder's name starts with; the creating process's id follows, then "-" and a random part.
    static let stagingPrefix = ".folio-new-"

    /// A hidden, unique folder beside `url` to build the document in. Staging folders that a killed `folio` left in
    /// the same folder are removed first.
    static func stagingFolder(for url: URL, removingAbandoned: Bool = true) -> URL {
        let parent = url.deletingLastPathComponent()
        if removingAbandoned { removeAbandonedStaging(in: parent) }
        return parent.appendingPathComponent("\(stagingPrefix)\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))")
    }

    /// Removes the staging folders in `parent` whose creating process no longer exists (killed while creating a
    /// document: nothing in them was ever visible as a document). A folder whose process id is alive again (reused)
    /// is left, as is any name that is not exactly a staging name.
    static func removeAbandonedStaging(in parent: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(stagingPrefix) {
            let rest = name.dropFirst(stagingPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid(),
                  !rest[rest.index(after: dash)...].isEmpty, rest[rest.index(after: dash)...].allSatisfy(\.isHexDigit) else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
            }
        }
    }

    /// An empty document repository at `folder`.
    static func makeRepository(at folder: URL) throws -> Repository {
        let repository = try Repository.create(at: folder)
        try repository.configureAsDocument()
        return repository
    }
}

/// A new document's repository made ahead, with the second handle its first commit's objects are written through.
struct StagedRepository {
    let repository: Repository
    let writer: Repository?
}

/// Files of a new document written into its staging folder while the rest is still being rendered, on a serial
/// queue of their own, so the work tree (the longest part of creating a document) starts before the last file is
/// ready. `create` writes whatever was not written here and takes the rest's `fstat` from `finish()`.
final class EarlyFileWriter: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `writer`, `written` and `failure` are used only by blocks on the serial `queue`, and by the owner
    // only after `drain()` has waited for every block given so far (no block is given after that).
    private let queue = DispatchQueue(label: "folio.new-document.early-files")
    private let root: String
    private var writer: NewFileWriter?
    private var written: [String: stat?] = [:]
    private var failure: (any Error)?

    init(folder: URL) { root = folder.path }

    /// Writes `files` (checked as `create` checks them) after those given before; the first failure stops it.
    func write(_ files: [DocumentFile]) {
        queue.async { [self] in
            guard failure == nil else { return }
            do {
                let tree = WorkTree(rootPath: root, displayRoot: root)
                let writer = try self.writer ?? {
                    // The folder may not be made yet (git init makes it too, and accepts it made).
                    guard mkdir(root, 0o777) == 0 || errno == EEXIST else { throw POSIXFailure(operation: "create folder", path: root) }
                    return NewFileWriter(tree)
                }()
                self.writer = writer
                for file in files where written[file.path] == nil {
                    try DocumentPath.validate(file.path, allowFolioFolder: false)
                    try tree.checkNames(file.path)
                    if let link = file.symlinkTarget {
                        try tree.writeLink(link, to: file.path, sync: false)
                        written[file.path] = .some(nil)
                    } else {
                        written[file.path] = try writer.write(file.data, to: file.path, mode: file.executable ? 0o755 : 0o644)
                    }
                }
            } catch {
                failure = error
            }
        }
    }

    /// Waits for every write given so far.
    func drain() {
        queue.sync {}
        writer = nil
    }

    /// Waits for every write given so far; what was written (path → `fstat`, nil for a link), or the first failure.
    func finish() throws -> [String: stat?] {
        drain()
        if let failure { throw failure }
        return written
    }
}
