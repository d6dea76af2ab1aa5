import FoundationEssentials
import FolioCore
import FolioGit
import FolioTemplates

extension Document {
    /// Runs a template's `programs` (copier's `_migrations`) confined on a scratch copy of the current version's
    /// files and records what they changed as one commit `message` (nil when they changed nothing). Folio's own
    /// folder is never given to them, and a change they make outside the document's paths is refused, as for
    /// hooks: the document is then left as it was.
    public func runTemplatePrograms(_ programs: [TemplateProgram], run: TemplateProgramRun, message: String) throws -> (commit: CommitInfo?, printed: [String]) {
        guard !programs.isEmpty else { return (nil, []) }
        let unrecorded = try repository.changedPaths()
        guard unrecorded.isEmpty else { throw SyncError.unrecordedChanges(document: url.path, paths: unrecorded.sorted()) }
        let files = try currentFiles()
        let result = try run.run(programs, files: files, projectName: url.lastPathComponent)
        let changes = try TemplateProgramRun.changes(from: files, to: result.files)
        for change in changes {
            if case let .write(path, _, _) = change { try DocumentPath.validate(path, allowFolioFolder: false) }
        }
        return (changes.isEmpty ? nil : try apply(changes, message: message), result.printed)
    }

    /// The newest version's files as documents files (Folio's folder left out).
    private func currentFiles() throws -> [DocumentFile] {
        try files().compactMap { entry -> DocumentFile? in
            guard entry.kind == .blob else { return nil }
            let data = try repository.readBlob(entry.id)
            if entry.isSymlink { return DocumentFile(path: entry.path, data: Data(), symlinkTarget: String(decoding: data, as: UTF8.self)) }
            return DocumentFile(path: entry.path, data: data, executable: entry.isExecutable)
        }
    }
}
