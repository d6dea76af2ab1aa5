import FoundationEssentials
import Glibc
import FolioGit

/// The one check every tree passes before Folio makes it a document's current version or writes it to a work tree:
/// a change, restore, undo, redo, merge, fast-forward, template update, clone and every fetch go through it.
///
/// git's object rules (`GitObjectRules`: no `.git` in any spelling, no `.`/`..`/empty/`/` names, known modes, no
/// submodules, …), Folio's reserved names (`.folio-tmp-…`), symbolic links that stay inside the document (relative,
/// never climbing past its root: `GitObjectRules.linkProblem`), and a `.folio/document.json` that validates.
package enum DocumentTreeGate {
    /// The names Folio keeps for its temporary files (`WorkTree.temporaryPrefix`), refused in any tree.
    package static let reserved = ReservedNamePrefixes([WorkTree.temporaryPrefix], why: "Folio's temporary files ('\(WorkTree.temporaryPrefix)…')")

    /// What a document's fetch accepts: git's rules, Folio's names, branches whose tip is a valid document, and
    /// files of at most `largestFile` bytes (`Settings.largestIncomingFile`).
    package static func incomingRules(largestFile: Int) -> IncomingRules {
        IncomingRules(reserved: reserved, branchTip: { _, commit, objects in
            try checkDescription(in: objects.commit(commit).tree, repository: objects)
        }, largestBlob: largestFile, linksStayInside: true)
    }

    /// Checks `tree` where it differs from `shown` (the tree the work tree shows; nil: check it all). Throws
    /// `RefusedObject`.
    package static func check(_ tree: ObjectID, shown: ObjectID?, commit: ObjectID? = nil, repository: Repository) throws {
        try repository.checkTree(tree, against: shown, commit: commit, reserved: reserved, linksStayInside: true)
        let entry = try repository.entry(atPath: DocumentMetadata.path, inTree: tree)
        if let shown, let entry, try repository.entry(atPath: DocumentMetadata.path, inTree: shown)?.id == entry.id { return }
        do { try checkDescription(in: tree, repository: repository) } catch let problem as GitObjectProblem {
            throw RefusedObject(commit: commit, object: tree, path: DocumentMetadata.path, problem: problem)
        }
    }

    /// Throws a `GitObjectProblem` unless `tree` holds a `.folio/document.json` file that validates.
    private static func checkDescription(in tree: ObjectID, repository: Repository) throws {
        guard let entry = try repository.entry(atPath: DocumentMetadata.path, inTree: tree) else {
            throw GitObjectProblem.invalidDocument("it has no \(DocumentMetadata.path)")
        }
        guard entry.kind == .blob, !entry.isSymlink else { throw GitObjectProblem.invalidDocument("\(DocumentMetadata.path) is not a file") }
        do { _ = try DocumentMetadata.decode(repository.readBlob(entry.id)) } catch {
            throw GitObjectProblem.invalidDocument("\(DocumentMetadata.path): \(JSONKeys.describe(error))")
        }
    }
}
