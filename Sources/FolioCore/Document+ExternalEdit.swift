import FoundationEssentials
import Glibc
import FolioGit

/// A file of the newest version with its size, for listings.
public struct ListedFile: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case file, executable, link, submodule }
    /// The path inside the document ("Sources/App/main.swift").
    public let path: String
    /// Bytes (a link: its target's length; a submodule: 0).
    public let size: Int
    public let kind: Kind
}

/// A file of the document being edited by another program (the user's `$EDITOR`) in the work tree: what it and its
/// folder held before, so that what the program changed is recorded as one commit when it returns.
public struct ExternalEdit: Sendable {
    /// The path inside the document.
    public let path: String
    /// The file in the work tree, to hand to the program.
    public let fileURL: URL
    /// The bytes before the program ran.
    let before: Data
    let executable: Bool
    /// The regular files in the file's folder before the program ran.
    let folderNames: Set<String>
}

/// What an external edit changed and recorded.
public struct ExternalEditOutcome: Sendable, Equatable {
    /// The commit recording the change, nil when nothing changed.
    public var commit: CommitInfo?
    /// The edited file was deleted (and the deletion recorded).
    public var deleted = false
    /// New files the program created beside the file, recorded in the same commit.
    public var added: [String] = []
    /// New files beside it that are an editor's backup or swap files, left out of the commit.
    public var ignored: [String] = []
}

extension Document {
    /// The files of the newest version (Folio's own excluded, and any path through a `.git` folder, in any letter
    /// case, that a hostile tree might hold), with their sizes, in git's order.
    public func listFiles() throws -> [ListedFile] {
        let entries = try files().filter { entry in !entry.path.split(separator: "/").contains { $0.lowercased() == ".git" } }
        let sizes = try repository.objectSizes(entries.filter { $0.kind == .blob }.map(\.id))
        return entries.map { entry in
            let kind: ListedFile.Kind = entry.kind == .commit ? .submodule : entry.isSymlink ? .link : entry.isExecutable ? .executable : .file
            return ListedFile(path: entry.path, size: sizes[entry.id] ?? 0, kind: kind)
        }
    }

    /// Prepares `path` for editing in the work tree by another program: it must be a file of the newest version
    /// (not a link) and a regular file in the work tree reached without following any link.
    public func beginExternalEdit(of path: String) throws -> ExternalEdit {
        try DocumentPath.validate(path, allowFolioFolder: false)
        let head = try head()
        guard let entry = try repository.entry(atPath: path, inTree: head.tree), entry.kind == .blob, !entry.isSymlink else {
            throw FolioError.fileNotFound(file: path, location: "\(url.lastPathComponent) (or it is a link)")
        }
        guard let before = workTree.read(path) else {
            throw FolioError.unreadableFile(path: workTree.display(path), reason: "not a regular file beneath the document: missing, a link, or behind a link")
        }
        return ExternalEdit(path: path, fileURL: URL(fileURLWithPath: rootPath + path), before: before, executable: entry.isExecutable,
                            folderNames: regularFiles(inFolderOf: path))
    }

    /// Records what the program changed since `beginExternalEdit` as one commit: the file's new content, or its
    /// deletion, plus new files it created beside it (an editor's backup and swap files excepted). Nothing is
    /// committed when nothing changed. A file replaced by a link or a folder is refused and nothing is recorded.
    public func finishExternalEdit(_ edit: ExternalEdit) throws -> ExternalEditOutcome {
        var outcome = ExternalEditOutcome()
        var changes: [DocumentChange] = []
        if let after = workTree.read(edit.path) {
            if after != edit.before { changes.append(.write(path: edit.path, data: after, executable: edit.executable)) }
        } else if workTree.exists(edit.path) {
            throw FolioError.unreadableFile(path: workTree.display(edit.path), reason: "it is no longer a regular file (a link or a folder); nothing was recorded")
        } else {
            changes.append(.delete(path: edit.path))
            outcome.deleted = true
        }
        let (folder, _) = WorkTree.split(edit.path)
        for name in regularFiles(inFolderOf: edit.path).subtracting(edit.folderNames).sorted() {
            let path = folder.isEmpty ? name : folder + "/" + name
            if Self.isEditorLeftover(name) || WorkTree.isReserved(name) { outcome.ignored.append(path); continue }
            guard let data = workTree.read(path) else { continue }
            changes.append(.write(path: path, data: data))
            outcome.added.append(path)
        }
        guard !changes.isEmpty else { return outcome }
        outcome.commit = try apply(changes, message: Self.describeExternalEdit(edit.path, outcome))
        return outcome
    }

    static func describeExternalEdit(_ path: String, _ outcome: ExternalEditOutcome) -> String {
        let first = outcome.deleted ? "Delete \(path)" : "Edit \(path)"
        guard !outcome.added.isEmpty else { return first }
        let added = outcome.added.count == 1 ? outcome.added[0] : "\(outcome.added.count) files"
        return first + ", add " + added
    }

    /// Backup and swap files editors leave beside a file: `name~`, vim's `.name.swp`, emacs' `#name#` and `.#name`.
    static func isEditorLeftover(_ name: String) -> Bool {
        if name.hasSuffix("~") || name.hasPrefix(".#") || (name.hasPrefix("#") && name.hasSuffix("#")) { return true }
        guard name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        let suffix = name[name.index(after: dot)...]
        return suffix.count == 3 && suffix.hasPrefix("sw")
    }

    /// The names of the regular files in the folder of `path` (opened beneath the root, no link followed).
    private func regularFiles(inFolderOf path: String) -> Set<String> {
        let (folder, _) = WorkTree.split(path)
        guard let directory = try? workTree.openFolder(folder, for: path, create: false) else { return [] }
        defer { close(directory) }
        return Set(WorkTree.entries(of: directory).filter { name in
            var info = stat()
            return fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFREG
        })
    }
}
