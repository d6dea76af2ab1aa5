import FolioCore
import FolioGit
import FolioLaunch
import FolioPlugins

extension DocumentSessionAdapter {
    /// The most versions read for an arrival's authors (a long offline stretch merged at once names the first ones).
    static let arrivalVersions = 50

    /// Who made the versions between `old` and `new` (merges aside: a sync's merge is this user's, the change in it
    /// the collaborator's) and what changed, as the history browser words it: the editor's semantic diff, else the
    /// versions' summaries; with the editor's item marks. Nil when a version is unknown.
    func arrival(from old: String, to new: String) -> DocumentArrival? {
        guard let from = ObjectID(hex: old), let to = ObjectID(hex: new) else { return nil }
        let versions = locked { try? document.log(limit: Self.arrivalVersions, since: old) } ?? []
        let made = versions.filter { $0.parents.count <= 1 }
        let authors = (made.isEmpty ? versions : made).reversed().map(\.author).reduce(into: [String]()) { seen, name in
            if !name.isEmpty, !seen.contains(name) { seen.append(name) }
        }
        let semantic = editorManifest == nil ? nil : locked {
            try? host.semanticDiff(document: document, from: old, to: new, associations: associations, editor: editorManifest?.id)
        }
        let described = semantic.flatMap { $0 }.map(Self.lines) ?? made.reversed().map(\.summary)
        let lists = editorManifest == nil ? nil : locked {
            try? host.itemLists(document: document, from: from, to: to, associations: associations, editor: editorManifest?.id)
        }
        let marks = (lists ?? nil).map { lists in
            ItemMarks.make(old: lists.old.map { ($0.key, $0.fingerprint) }, new: lists.new.map { ($0.key, $0.previous, $0.fingerprint) })
        }
        return DocumentArrival(from: old, to: new, authors: authors, description: described, marks: marks)
    }
}
