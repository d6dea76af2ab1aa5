import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioTemplates

/// What an update would do to one path.
public struct PlannedUpdateFile: Sendable, Equatable, Encodable {
    /// `unchanged`, `template` (only the template changed it), `yours` (only you did), `merge` (both, merges
    /// cleanly), `conflict` (both, overlapping or changed/deleted), `added` (new in the template), `deleted`
    /// (removed by the template), `renamed` (moved by the template; `from` is the old path), `binary` (both changed a
    /// binary file: yours is kept).
    public let path: String
    public let change: String
    public let from: String?
}

/// The plan of `folio update --dry-run`: every path and what the update would do to it.
public struct TemplateUpdatePreview: Sendable, Equatable, Encodable {
    public let template: String
    public let from: String
    public let to: String
    public let files: [PlannedUpdateFile]
}

extension Document {
    /// Classifies every path of an update (base = the recorded version with `baseAnswers`, theirs = the new version
    /// with `answers`, ours = HEAD) without changing anything: the trees and merge are built on a handle of their
    /// own whose new objects stay in memory, so the document's refs, index, objects and files are untouched.
    public func previewTemplateUpdate(_ plan: TemplateUpdatePlan, baseAnswers: [String: JSONValue], answers: [String: JSONValue]) throws -> TemplateUpdatePreview {
        let unrecorded = try repository.changedPaths()
        guard unrecorded.isEmpty else { throw SyncError.unrecordedChanges(document: url.path, paths: unrecorded.sorted()) }
        let origin = try templateOrigin()
        let scratch = try Repository.openDocument(at: url)
        try scratch.keepNewObjectsInMemory()
        let base = try Self.entries(plan.old.renderWithSources(answers: baseAnswers), in: scratch)
        let theirs = try Self.entries(plan.new.renderWithSources(answers: answers), in: scratch)
        let headTree = try head().tree
        var ours: [String: PlanEntry] = [:]
        for entry in try scratch.files(inTree: headTree) where !entry.path.hasPrefix(DocumentMetadata.folder + "/") {
            ours[entry.path] = PlanEntry(path: entry.path, id: entry.id, mode: entry.mode, source: nil)
        }
        let merge = try scratch.mergeTrees(ancestor: try Self.tree(base, in: scratch), ours: headTree, theirs: try Self.tree(theirs, in: scratch))
        var conflicted: [String: MergeConflict] = [:]
        for conflict in merge.conflicts { conflicted[conflict.path] = conflict }

        // Renames: a path gone from theirs whose template file now renders to a path new in theirs (a renamed
        // answer or path segment), else whose exact content appears at such a path (a file the template moved).
        var renamedTo: [String: String] = [:]
        let newPaths = theirs.keys.filter { base[$0] == nil }.sorted()
        for (path, entry) in base.sorted(by: { $0.key < $1.key }) where theirs[path] == nil {
            let taken = Set(renamedTo.values)
            if let target = newPaths.first(where: { theirs[$0]?.source == entry.source && !taken.contains($0) })
                ?? newPaths.first(where: { theirs[$0]?.id == entry.id && !taken.contains($0) }) {
                renamedTo[path] = target
            }
        }
        let renamedFrom = Dictionary(renamedTo.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var files: [PlannedUpdateFile] = []
        for path in Set(base.keys).union(ours.keys).union(theirs.keys).sorted() where renamedTo[path] == nil {
            if let old = renamedFrom[path] {
                files.append(PlannedUpdateFile(path: path, change: "renamed", from: old))
                continue
            }
            let b = base[path]?.id, o = ours[path]?.id, t = theirs[path]?.id
            let change: String
            if o == t { change = "unchanged" }
            else if b == t { change = "yours" }
            else if b == o { change = b == nil ? "added" : t == nil ? "deleted" : "template" }
            else { change = try bothChanged(path, conflicted[path], [base[path], ours[path], theirs[path]], scratch) }
            files.append(PlannedUpdateFile(path: path, change: change, from: nil))
        }
        return TemplateUpdatePreview(template: origin.id, from: TemplateUpdatePlan.label(plan.old), to: TemplateUpdatePlan.label(plan.new), files: files)
    }

    /// A path both sides changed: binary, a clean text merge, or a conflict — as `updateFromTemplate` would decide.
    private func bothChanged(_ path: String, _ conflict: MergeConflict?, _ sides: [PlanEntry?], _ scratch: Repository) throws -> String {
        for side in sides.compactMap({ $0 }) {
            if side.mode == 0o120000 { return "binary" }
            if Repository.looksBinary(try scratch.readBlob(side.id)) { return "binary" }
        }
        guard let conflict else { return "merge" }
        guard let text = try scratch.mergeFileText(conflict, ourLabel: "document", theirLabel: "template") else { return "conflict" }
        return text.isClean ? "merge" : "conflict"
    }

    private static func entries(_ rendered: [(file: DocumentFile, source: String)], in repository: Repository) throws -> [String: PlanEntry] {
        var result: [String: PlanEntry] = [:]
        for (file, source) in rendered where !file.path.hasPrefix(DocumentMetadata.folder + "/") {
            let link = file.symlinkTarget
            let id = try repository.writeBlob(link.map { Data($0.utf8) } ?? file.data)
            let mode: UInt32 = link != nil ? 0o120000 : file.executable ? 0o100755 : 0o100644
            result[file.path] = PlanEntry(path: file.path, id: id, mode: mode, source: source)
        }
        return result
    }

    private static func tree(_ entries: [String: PlanEntry], in repository: Repository) throws -> ObjectID {
        try repository.updateTree(nil, entries.values.map { .upsert(path: $0.path, blob: $0.id, mode: $0.mode) })
    }
}

/// One side's file in an update preview.
private struct PlanEntry {
    let path: String
    let id: ObjectID
    let mode: UInt32
    /// The template file it was rendered from (nil for the document's own files).
    let source: String?
}
