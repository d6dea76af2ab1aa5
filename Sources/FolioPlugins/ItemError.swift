import FoundationEssentials
import Glibc

/// Why an item's history or restore cannot be made.
public enum ItemError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The document's editor has no `folio.items/1`.
    case unsupported(editor: String)
    /// `item` names no item of the version (`count` items there, keyed as the view numbers them).
    case noSuchItem(item: String, version: String, count: Int)
    /// The editor's take changed something besides the item it was asked to put back.
    case takeChangedOthers(editor: String, item: String)

    public var description: String {
        switch self {
        case let .unsupported(editor):
            return "editor '\(editor)' does not know its items (it has no \(FolioExtensionID.items)), so it has no history of one item and cannot bring one back"
        case let .noSuchItem(item, version, count):
            return "there is no item '\(item)' in version \(version) (it has \(count == 0 ? "no items" : count == 1 ? "1 item" : "\(count) items"))"
        case let .takeChangedOthers(editor, item):
            return "editor '\(editor)' changed other items while putting back item '\(item)'; nothing was changed"
        }
    }
}
