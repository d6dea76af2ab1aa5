import FoundationEssentials
import Glibc
import FolioCore
import FolioGit

/// A remote source's bare mirror in the cache: `$XDG_CACHE_HOME/folio/sources/<hash of URL>-<name>`.
/// Fetches go into the mirror and refs move only at the end, so a failed or cancelled fetch leaves it as it was.
struct RemoteMirror {
    let location: String
    let sourceName: String
    let folder: URL
    let cacheFolder: URL

    let environment: [String: String]
    /// How long a fetch may go without progress.
    let timeout: Duration

    init(location: String, cacheFolder: URL, sourceName: String, environment: [String: String], timeout: Duration = TransferOptions.defaultTimeout) throws {
        self.environment = environment
        self.timeout = timeout
        self.location = location
        self.sourceName = sourceName
        self.cacheFolder = cacheFolder
        let label = location.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? "source"
        self.folder = CacheRepository.folder(key: "remote:" + location, label: label.hasSuffix(".git") ? String(label.dropLast(4)) : label, in: cacheFolder)
    }

    /// The file whose modification time says when the mirror was last fetched.
    var stampFile: URL { folder.appendingPathComponent("folio-fetched") }

    var fetchedAt: Date? {
        (try? FileManager.default.attributesOfItem(atPath: stampFile.path))?[.modificationDate] as? Date
    }

    /// Fetches into the mirror (unless offline) and opens it; a failed fetch falls back to the cache with a warning.
    func update(offline: Bool, progress: (@Sendable (TransferProgress) -> Void)?, cancel: CancelFlag) throws -> (Repository, Date?, [String]) {
        let cached = Repository.exists(at: folder) && fetchedAt != nil
        if offline {
            guard cached else {
                throw TemplateError(sourceName, "no cached copy of \(location) to use offline", kind: .noOfflineCopy)
            }
            return (try Repository.open(at: folder), fetchedAt, ["\(sourceName): offline, using the copy cached \(Self.age(fetchedAt))"])
        }
        do {
            let repository = try CacheRepository.open(at: folder, sourceName: sourceName)
            try fetch(into: repository, progress: progress, cancel: cancel)
            _ = FileManager.default.createFile(atPath: stampFile.path, contents: Data())
            return (repository, fetchedAt, [])
        } catch {
            if cancel.isCancelled { throw CancellationError() }
            // A timeout's message names the URL already.
            let reason = error is TransferTimedOut ? TemplateError.oneLine(error) : "cannot fetch \(location): \(TemplateError.oneLine(error))"
            guard cached else { throw TemplateError(sourceName, reason, kind: .sourceUnavailable) }
            let warning = "\(sourceName): fetching \(location) failed (\(TemplateError.oneLine(error))); using the copy cached \(Self.age(fetchedAt))"
            return (try Repository.open(at: folder), fetchedAt, [warning])
        }
    }

    /// Fetches every branch and tag into the mirror (only what is missing is transferred); refs move at the end.
    private func fetch(into repository: Repository, progress: (@Sendable (TransferProgress) -> Void)?, cancel: CancelFlag) throws {
        let options = TransferOptions(environment: environment, progress: progress, isCancelled: { cancel.isCancelled }, timeout: timeout)
        try repository.fetch(location, refspecs: ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"], options: options, pruning: true)
        // Follow the remote's default branch when ours does not exist there (e.g. `master`).
        let head = try? repository.headBranch()
        if head == nil || (try? repository.referenceTarget(head ?? "")) == nil,
           let branch = try? repository.remoteDefaultBranch(location, options: options), (try? repository.referenceTarget(branch)) != nil {
            try? repository.setHead(branch)
        }
    }

    /// "3 minutes ago", "2 days ago".
    static func age(_ date: Date?, now: Date = Date()) -> String {
        guard let date else { return "at an unknown time" }
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        func unit(_ n: Int, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s") ago" }
        if seconds < 60 { return unit(seconds, "second") }
        if seconds < 3600 { return unit(seconds / 60, "minute") }
        if seconds < 86400 { return unit(seconds / 3600, "hour") }
        return unit(seconds / 86400, "day")
    }
}
