import FoundationEssentials
import FolioCore
import FolioDisplayWidth
import FolioGit

/// A remote version held back because it would change which plugin opens the document: it changes the document's
/// content type (`.folio/document.json`) to one this document was never opened with. Nothing was merged or pushed;
/// its objects were fetched and checked, and wait under the remote-tracking ref until the user accepts the type.
public struct HeldContentType: Sendable, Equatable {
    /// The branch on the remote (`origin/main`).
    public let source: String
    /// The remote's version.
    public let commit: ObjectID
    /// The content type the document has here.
    public let current: ContentType
    /// The content type the remote's version gives it.
    public let incoming: ContentType

    /// One line saying what was held and why, without commands (the CLI adds how to accept it).
    public var summary: String {
        "held back \(source.shownAsText) at \(commit.short): it changes the document's content type from '\(current.identifier.shownAsText)' "
            + "to '\(incoming.identifier.shownAsText)', which would open it with a plugin it was never opened with; nothing was merged or pushed"
    }
}

extension Document {
    /// The document's git config key listing the content types the user accepted for it, one identifier per line.
    static let acceptedContentTypesKey = "folio.acceptedContentTypes"

    /// The held content-type change `theirs` would bring in, nil when integrating it keeps the type or moves it to one
    /// already used here: the current type, or one accepted before (`acceptContentTypes`). A remote that did not
    /// change the type since the common version (only this side did) is not held: the merge keeps this side's.
    func heldContentType(_ theirs: ObjectID, source: String) throws -> HeldContentType? {
        let ours = try head().id
        let incoming = try contentType(at: theirs)
        let current = try contentType(at: ours)
        guard incoming != current, !acceptedContentTypes.contains(incoming) else { return nil }
        if try !repository.isAncestor(ours, of: theirs), let base = try repository.mergeBase(ours, theirs), try contentType(at: base) == incoming {
            return nil
        }
        return HeldContentType(source: source, commit: theirs, current: current, incoming: incoming)
    }

    /// The content types the user accepted for this document.
    var acceptedContentTypes: Set<ContentType> {
        let text = repository.configString(Self.acceptedContentTypesKey) ?? ""
        return Set(text.split(separator: "\n").map { ContentType(String($0)) })
    }

    /// Records the held change's types as used here (the type it had and the one accepted), so a later change
    /// between them is not held again.
    func acceptContentTypes(_ held: HeldContentType) throws {
        var accepted = acceptedContentTypes
        accepted.insert(held.current)
        accepted.insert(held.incoming)
        try repository.setConfig(Self.acceptedContentTypesKey, accepted.map(\.identifier).sorted().joined(separator: "\n"))
    }

    /// The content type a commit's `.folio/document.json` names (checked when the commit came in).
    func contentType(at commit: ObjectID) throws -> ContentType {
        let tree = try repository.commit(commit).tree
        guard let entry = try repository.entry(atPath: DocumentMetadata.path, inTree: tree) else {
            throw FolioError.refusedVersion(document: url.path, refused: RefusedObject(commit: commit, object: tree, path: DocumentMetadata.path,
                                                                                       problem: .invalidDocument("it has no \(DocumentMetadata.path)")))
        }
        return try DocumentMetadata.decode(repository.readBlob(entry.id)).contentType
    }

    /// The content-type change the sync remote's tracking ref waits with, if any (for `syncStatus`).
    func waitingContentType() throws -> HeldContentType? {
        guard let remote = try? syncRemote(nil), let tracking = try repository.referenceTarget(trackingRef(remote.name)),
              try !repository.isAncestor(tracking, of: head().id) else { return nil }
        return try heldContentType(tracking, source: "\(remote.name)/\(branchName)")
    }
}
