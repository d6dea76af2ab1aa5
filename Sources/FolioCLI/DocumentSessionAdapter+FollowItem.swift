import FolioCore
import FolioGit
import FolioPlugins

extension DocumentSessionAdapter {
    /// Where the item at `position` of version `old` is in `new`, through the editor's item lists (`folio.items/1`):
    /// the item of `new` whose earlier key is the old one. Nil when it is gone, a version is unknown, or the editor
    /// lists no items (the window then keeps the cursor's row, as before).
    func followItem(at position: [Int], from old: String, to new: String) -> [Int]? {
        guard !position.isEmpty, let oldID = ObjectID(hex: old), let newID = ObjectID(hex: new) else { return nil }
        let key = position.map(String.init).joined(separator: ".")
        let lists = locked { try? host.itemLists(document: document, from: oldID, to: newID, associations: associations, editor: editorManifest?.id) }
        guard let lists, let moved = lists.new.first(where: { $0.previous == key }) else { return nil }
        let parts = moved.key.split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        return numbers.isEmpty || numbers.count != parts.count ? nil : numbers
    }
}
