import FolioCore
import FolioGit
import FoundationEssentials
import Glibc

extension EditorRegistry {
    /// `ours` (the command applied to `base`, the version the user saw) merged with `theirs` (the newest content):
    /// the editor's semantic merge when it has one, else libgit2's three-way text merge. Throws `EditConflict`.
    func merging(_ command: String, editor: EditorManifest, backend: any EditorBackend, path: String, base: Data, ours: Data,
                 theirs: Data) throws -> Data {
        if ours == base { return theirs }
        if editor.extensions.contains(FolioExtensionID.semanticMerge) {
            switch try backend.merge(base: base, ours: ours, theirs: theirs) {
            case let .merged(data)?: return data
            case let .conflicts(lines)?: throw EditConflict(command: command, conflicts: lines)
            case nil: break
            }
        }
        guard let text = try Repository.mergeText(base: base, ours: ours, theirs: theirs, path: path) else {
            throw EditConflict(command: command, conflicts: ["\(path) is binary"])
        }
        guard text.isClean else { throw EditConflict(command: command, conflicts: ["the same lines of \(path) changed"]) }
        return text.data
    }

    /// Refuses a command on a version whose file is gone from the newest one.
    static func refuseGone(_ command: String, _ path: String) throws -> Data {
        throw EditConflict(command: command, conflicts: ["\(path) was removed"])
    }
}
