import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioPlugins

/// Merges one file's three versions by meaning (a checklist item by item) before falling back to a conflict.
public protocol SemanticMerging {
    /// The merged bytes; nil when `contentType` has no semantic merge or the sides still conflict.
    func merge(contentType: ContentType, base: Data, ours: Data, theirs: Data) throws -> Data?
    /// The merged bytes, or nil and the editor's lines saying what conflicts ("'Milk': deleted by us, checked by
    /// them"; none when it has no semantic merge).
    func mergeExplained(contentType: ContentType, base: Data, ours: Data, theirs: Data) throws -> (merged: Data?, conflicts: [String])
    /// Whether files of `contentType` are merged by meaning (then never line by line: `Document.mergeForSync`).
    func mergesByMeaning(_ contentType: ContentType) -> Bool
}

extension SemanticMerging {
    /// Whether files of `contentType` are merged by meaning (then never line by line: `wholeFiles`).
    public func mergesByMeaning(_ contentType: ContentType) -> Bool { false }

    public func mergeExplained(contentType: ContentType, base: Data, ours: Data, theirs: Data) throws -> (merged: Data?, conflicts: [String]) {
        (try merge(contentType: contentType, base: base, ours: ours, theirs: theirs), [])
    }
}

/// How a pull, push or clone transfers and merges.
public struct SyncOptions {
    /// Credentials, progress and cancellation of the network transfer.
    public var transfer: FolioGit.TransferOptions
    /// The editor-provided merge tried first on each conflicting file, if any.
    public var semanticMerger: (any SemanticMerging)?
    /// Whether the user accepts a remote version that changes the document's content type (`HeldContentType`):
    /// without it such a version is held, not merged.
    public var acceptContentType: Bool

    /// Options with a transfer set-up and an optional semantic merger.
    public init(transfer: FolioGit.TransferOptions = .init(), semanticMerger: (any SemanticMerging)? = nil, acceptContentType: Bool = false) {
        self.transfer = transfer
        self.semanticMerger = semanticMerger
        self.acceptContentType = acceptContentType
    }
}

/// The editors' item-by-item view of a content type, for settling a kept conflict one item at a time: listing
/// (`folio.items/1`), taking items across versions and merging by meaning (`folio.semantic-merge/1`).
public protocol ItemMerging: SemanticMerging {
    /// The editor of `contentType` when it both lists items and merges by meaning; nil otherwise (its files are then
    /// settled whole).
    func itemEditor(for contentType: ContentType) throws -> (any EditorBackend)?
}
