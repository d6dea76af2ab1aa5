import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioTemplates

/// What `folio update` does when the document and the template changed the same thing.
public enum UpdateConflictMode: String, Sendable {
    /// Change nothing when anything conflicts.
    case abort
    /// Write standard conflict markers into conflicting text files and list them.
    case markers
}

/// One path an update could not merge cleanly, and what was done with it.
public struct UpdateConflict: Sendable, Equatable, Encodable {
    public let path: String
    /// What happened: `markers`, `kept-document` (binary, or removed by the template), `restored-template` (you deleted it, the template changed it).
    public let resolution: String
}

/// The outcome of a template update.
public struct TemplateUpdateResult: Sendable, Equatable {
    /// The update commit; nil when the document already had everything or the update was aborted.
    public let commit: CommitInfo?
    public let template: String
    public let fromVersion: String
    public let toVersion: String
    /// Conflicts (with `--conflict=abort`, what made it abort; nothing was changed then).
    public let conflicts: [UpdateConflict]
    /// Whether the update stopped because of conflicts.
    public let aborted: Bool
}

/// The two template versions of an update: the recorded one (the base) and the new one.
public struct TemplateUpdatePlan: Sendable {
    public let old: Template
    public let new: Template

    /// The version label of a template: its manifest version, else its ref, else its short commit.
    public static func label(_ template: Template) -> String {
        template.manifest.version ?? template.ref ?? String(template.commit.prefix(7))
    }

    /// Whether the new version is another commit than the recorded one.
    public var isNewer: Bool { old.commit != new.commit }

    /// Loads the recorded template and the version to update to (`ref`; default: newest semver tag, else the
    /// source's default branch) for a document's origin, whose source the caller vouches for with `trusted`.
    public static func load(_ origin: DocumentOrigin.Template, to ref: String?, trusted: TrustedTemplateSource, environment: [String: String],
                            offline: Bool = false, limits: TemplateLimits? = nil) async throws -> TemplateUpdatePlan {
        let resolver = TemplateResolver(environment: environment, offline: offline, limits: limits)
        let old = try await resolver.recordedTemplate(origin, trusted: trusted)
        let name = origin.source == TemplateSource.bundledLocation ? "bundled" : origin.source
        let resolved = try await resolver.resolve(TemplateSource(name: name, location: origin.source, ref: ref))
        let new = try await resolver.template(origin.id, in: resolved)
        return TemplateUpdatePlan(old: old, new: new)
    }
}

extension Document {
    /// The file listing the template sources the user trusted for this document: inside `.git/folio`, so it is
    /// never committed, pushed or cloned.
    private var trustFile: URL { repository.gitDirectory.appendingPathComponent("folio/trusted-template-sources.json") }

    /// The template sources recorded as trusted for this document (by `recordTrustedTemplateSource`).
    public func trustedTemplateSources() throws -> [String] { try LocationListFile(trustFile).read() }

    /// Records locally (never in the document's history) that the user trusts `location` as this document's
    /// template source: the document was made here from it, or the user confirmed it.
    public func recordTrustedTemplateSource(_ location: String) throws { try LocationListFile(trustFile).append(location) }

    /// The template origin of a document, or an error saying it was not made from one.
    public func templateOrigin() throws -> DocumentOrigin.Template {
        guard metadata.origin.kind == "template", let origin = metadata.origin.template else {
            throw FolioError.notFromTemplate(document: url.path)
        }
        return origin
    }

    /// Three-way merges the new template rendering into the document: base = the recorded version rendered with
    /// `baseAnswers`, ours = the document, theirs = the new version rendered with `answers`; one commit
    /// "Update from <id> <old> → <new>" that also records the new origin. Renames follow, deletions stay unless the
    /// template changed the file, binary files are never merged as text. With the same version and `changedAnswers`
    /// (names of answers that changed), the commit is "Change answers of <id> <version>: <names>". `render` makes
    /// each side's files (by default the template's rendering; with trusted programs, what they leave of it);
    /// `recorded` are files the update rewrites besides (another tool's record of the template, `.cruft.json`).
    public func updateFromTemplate(_ plan: TemplateUpdatePlan, baseAnswers: [String: JSONValue], answers: [String: JSONValue],
                                   conflictMode: UpdateConflictMode, changedAnswers: [String] = [], alsoWriting recorded: [DocumentFile] = [],
                                   render: (Template, [String: JSONValue]) throws -> [DocumentFile] = { try $0.render(answers: $1) }) throws -> TemplateUpdateResult {
        let unrecorded = try repository.changedPaths()
        guard unrecorded.isEmpty else { throw SyncError.unrecordedChanges(document: url.path, paths: unrecorded.sorted()) }
        let origin = try templateOrigin()
        let fromLabel = TemplateUpdatePlan.label(plan.old), toLabel = TemplateUpdatePlan.label(plan.new)
        let baseTree = try tree(of: render(plan.old, baseAnswers))
        let theirTree = try tree(of: render(plan.new, answers))
        var newMetadata = metadata
        newMetadata.origin.template = DocumentOrigin.Template(
            id: origin.id, version: plan.new.manifest.version, source: origin.source, ref: plan.new.ref,
            commit: plan.new.commit, answers: plan.new.recordableAnswers(answers))
        let metadataBlob = try repository.writeBlob(newMetadata.encoded())

        var conflicts: [UpdateConflict] = []
        struct Aborted: Error {}
        let title = plan.isNewer || changedAnswers.isEmpty ? "Update from \(origin.id) \(fromLabel) → \(toLabel)"
            : "Change answers of \(origin.id) \(toLabel): \(changedAnswers.joined(separator: ", "))"
        do {
            let commit = try commitTree(message: title) { headTree in
                conflicts = []
                let ours = try headTree ?? repository.emptyTree()
                let merge = try repository.mergeTrees(ancestor: baseTree, ours: ours, theirs: theirTree)
                var changes: [TreeChange] = []
                for conflict in merge.conflicts {
                    let path = conflict.path
                    if let ourSide = conflict.ours, conflict.theirs != nil,
                       let text = try repository.mergeFileText(conflict, ourLabel: "document", theirLabel: "template \(toLabel)") {
                        changes.append(.upsert(path: ourSide.path, blob: try repository.writeBlob(text.data), mode: ourSide.mode))
                        conflicts.append(UpdateConflict(path: path, resolution: text.isClean ? "merged" : "markers"))
                    } else if conflict.ours == nil, let theirSide = conflict.theirs {
                        changes.append(.upsert(path: theirSide.path, blob: theirSide.id, mode: theirSide.mode))
                        conflicts.append(UpdateConflict(path: theirSide.path, resolution: "restored-template"))
                    } else {
                        conflicts.append(UpdateConflict(path: path, resolution: "kept-document"))
                    }
                }
                conflicts.removeAll { $0.resolution == "merged" }
                if !conflicts.isEmpty && conflictMode == .abort { throw Aborted() }
                changes.append(.upsert(path: DocumentMetadata.path, blob: metadataBlob, mode: 0o100644))
                for file in recorded { changes.append(.upsert(path: file.path, blob: try repository.writeBlob(file.data), mode: 0o100644)) }
                return try repository.updateTree(merge.tree, changes)
            }
            return TemplateUpdateResult(commit: commit, template: origin.id, fromVersion: fromLabel, toVersion: toLabel,
                                        conflicts: conflicts, aborted: false)
        } catch is Aborted {
            return TemplateUpdateResult(commit: nil, template: origin.id, fromVersion: fromLabel, toVersion: toLabel,
                                        conflicts: conflicts, aborted: true)
        }
    }

    /// A git tree in the document's repository holding rendered files (Folio's own folder never comes from a template).
    private func tree(of files: [DocumentFile]) throws -> ObjectID {
        var changes: [TreeChange] = []
        for file in files where !file.path.hasPrefix(DocumentMetadata.folder + "/") {
            if let link = file.symlinkTarget {
                changes.append(.upsert(path: file.path, blob: try repository.writeBlob(Data(link.utf8)), mode: 0o120000))
            } else {
                changes.append(.upsert(path: file.path, blob: try repository.writeBlob(file.data), mode: file.executable ? 0o100755 : 0o100644))
            }
        }
        return try repository.updateTree(nil, changes)
    }
}
