import FolioCore
import FolioGit
import FolioPlugins

extension DocumentSessionAdapter {
    /// Where the item at `position` of version `old` is in `new`, through the editor's item lists (`folio.items/1`):
    /// the item of `new` whose earlier key is the old one. Nil when it is gone, a version is unknown, or the editor
    /// lists no items (the window then keeps the cursor's row, as before).
    func followItem(at position: [Int], from old: String, to new: String) -> [Int]? {
        guard let lists = itemLists(from: old, to: new) else { return nil }
        return Self.followed(position, in: lists.new)
    }

    /// After this window's command: the item it acted on (`EditorItem.focus`: the item added, the cursor's item
    /// changed or moved, …; after a delete the next one).
    func itemAfterCommand(at position: [Int]?, from old: String, to new: String) -> [Int]? {
        guard let lists = itemLists(from: old, to: new) else { return nil }
        let key = position?.map(String.init).joined(separator: ".")
        let cursor = key.flatMap { key in lists.old.firstIndex { $0.key == key } }
        guard let index = EditorItem.focus(after: lists.new, before: lists.old, cursor: cursor) else { return nil }
        return Self.path(lists.new[index].key)
    }

    private func itemLists(from old: String, to new: String) -> (old: [EditorItem], new: [EditorItem])? {
        guard let oldID = ObjectID(hex: old), let newID = ObjectID(hex: new) else { return nil }
        let lists = locked { try? host.itemLists(document: document, from: oldID, to: newID, associations: associations, editor: editorManifest?.id) }
        return lists ?? nil
    }

    private static func followed(_ position: [Int], in items: [EditorItem]) -> [Int]? {
        guard !position.isEmpty else { return nil }
        let key = position.map(String.init).joined(separator: ".")
        return items.first(where: { $0.previous == key }).flatMap { path($0.key) }
    }

    /// An item key as the view numbers it ("3", "1.2"), nil when it is not numbers.
    private static func path(_ key: String) -> [Int]? {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        return numbers.isEmpty || numbers.count != parts.count ? nil : numbers
    }
}
