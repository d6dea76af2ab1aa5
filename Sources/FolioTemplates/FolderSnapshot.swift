import Foundation
import FolioCore
import FolioGit

/// Plain folders (like the bundled `Templates/`) are snapshotted into a cached bare git repository, one commit per
/// distinct content, so that templates are always read from git objects and a document can record the exact commit.
enum FolderSnapshot {
    static let branch = "refs/heads/main"

    /// Snapshots `folder` into its cache repository and returns it with `refs/heads/main` at the snapshot.
    static func snapshot(_ folder: URL, cache: URL, sourceName: String) throws -> Repository {
        let repository = try CacheRepository.open(key: "folder:" + folder.path, label: folder.lastPathComponent, in: cache, sourceName: sourceName)
        var changes: [TreeChange] = []
        try collect(folder, prefix: "", repository: repository, into: &changes, sourceName: sourceName)
        let tree = try repository.updateTree(nil, changes)
        let previous = try repository.referenceTarget(branch)
        if let previous, try repository.commit(previous).tree == tree { return repository }
        let signature = Signature(name: "Folio", email: "folio@localhost")
        let commit = try repository.createCommit(tree: tree, parents: previous.map { [$0] } ?? [], author: signature,
                                                 message: "Snapshot of \(folder.path)\n")
        do {
            try repository.updateReference(branch, to: commit, expecting: previous, logMessage: "snapshot")
        } catch let error as GitError where error.isModified || error.isExists || error.isLocked {
            // Another process snapshotted at the same moment; ours is equally valid, keep it reachable by a name.
            try? repository.setReference("refs/folio/snapshots/\(commit.hex)", to: commit, logMessage: "snapshot")
        }
        try? repository.setReference("refs/folio/current", to: commit, logMessage: "snapshot")
        return repository
    }

    private static func collect(_ folder: URL, prefix: String, repository: Repository, into changes: inout [TreeChange], sourceName: String) throws {
        let fm = FileManager.default
        let names: [String]
        do { names = try fm.contentsOfDirectory(atPath: folder.path) } catch {
            throw TemplateError(sourceName, "cannot read \(folder.path): \(error.localizedDescription)")
        }
        for name in names.sorted() where name != ".git" && name != ".DS_Store" {
            let url = folder.appendingPathComponent(name)
            let path = prefix + name
            var info = stat()
            guard lstat(url.path, &info) == 0 else {
                // Foundation lists a name that is not UTF-8 with U+FFFD in place of its bytes: refuse, never skip.
                if name.unicodeScalars.contains("\u{FFFD}") {
                    throw TemplateError(sourceName, "\(folder.path): the file name '\(path)' is not valid UTF-8")
                }
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                try collect(url, prefix: path + "/", repository: repository, into: &changes, sourceName: sourceName)
            case S_IFLNK:
                let target = try fm.destinationOfSymbolicLink(atPath: url.path)
                changes.append(.upsert(path: path, blob: try repository.writeBlob(Data(target.utf8)), mode: 0o120000))
            case S_IFREG:
                let executable = info.st_mode & S_IXUSR != 0
                changes.append(.upsert(path: path, blob: try repository.writeBlob(fromFile: url), mode: executable ? 0o100755 : 0o100644))
            default:
                continue
            }
        }
    }
}

/// A bare repository in the cache, created atomically on first use.
enum CacheRepository {
    static func folder(key: String, label: String, in cache: URL) -> URL {
        let hash = ObjectID.blobHash(of: Data(key.utf8))?.hex.prefix(16) ?? "0"
        let clean = String(label.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(40))
        return cache.appendingPathComponent("\(hash)-\(clean.isEmpty ? "source" : clean)")
    }

    static func open(key: String, label: String, in cache: URL, sourceName: String) throws -> Repository {
        try open(at: folder(key: key, label: label, in: cache), sourceName: sourceName)
    }

    static func open(at url: URL, sourceName: String) throws -> Repository {
        let cache = url.deletingLastPathComponent()
        if Repository.exists(at: url) { return try Repository.open(at: url) }
        do {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let staging = cache.appendingPathComponent(".\(url.lastPathComponent).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            _ = try Repository.create(at: staging, bare: true)
            if rename(staging.path, url.path) != 0 { try? FileManager.default.removeItem(at: staging) }
            return try Repository.open(at: url)
        } catch {
            throw TemplateError(sourceName, "cannot create the cache repository \(url.path): \(TemplateError.oneLine(error))")
        }
    }
}
