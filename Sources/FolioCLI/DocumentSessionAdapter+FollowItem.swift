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

    /// After this window's command: the one item it added, else the item that was under the cursor.
    func itemAfterCommand(at position: [Int]?, from old: String, to new: String) -> [Int]? {
        guard let lists = itemLists(from: old, to: new) else { return nil }
        let added = lists.new.filter { $0.previous == nil }
        if added.count == 1, lists.new.count > lists.old.count, let only = added.first { return Self.path(only.key) }
        return position.flatMap { Self.followed($0, in: lists.new) }
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
