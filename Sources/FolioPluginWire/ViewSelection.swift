/// The cursor and selection in an editor's view, the one type on both sides of the plugin boundary: Folio's
/// registry and editor host hand it to a plugin, and a Swift plugin reads it (FolioPluginKit's `Selection` is this
/// type). Items are numbered from 1 and 0 is none, as the C ABI's `folio_selection` carries them; a window counts
/// its items from 0 (`items(cursor:anchor:)`).
public struct ViewSelection: Sendable, Equatable {
    /// The item under the cursor (from 1; 0: none).
    public var cursor: Int
    /// The other end of a range (from 1; 0: no range).
    public var anchor: Int
    /// The first item row shown.
    public var scroll: Int
    /// How far the user panned the view from where the editor puts it, in cells (columns right, rows down); 0 from a
    /// host older than ABI 1.2. An editor that follows the cursor over a plane adds it to the origin it chose.
    public var panX: Int
    public var panY: Int

    /// Creates a selection, items from 1 (0: none).
    public init(cursor: Int = 0, anchor: Int = 0, scroll: Int = 0, panX: Int = 0, panY: Int = 0) {
        self.cursor = cursor
        self.anchor = anchor
        self.scroll = scroll
        self.panX = panX
        self.panY = panY
    }

    /// A window's cursor on item `cursor` and range from `anchor` (nil: none), items numbered from 0 as the window
    /// counts them; a negative index is no item.
    public static func items(cursor: Int, anchor: Int? = nil) -> ViewSelection {
        func number(_ index: Int?) -> Int { index.flatMap { $0 >= 0 && $0 < Int.max ? $0 + 1 : nil } ?? 0 }
        return ViewSelection(cursor: number(cursor), anchor: number(anchor))
    }

    /// Whether the selection is a range (`anchor` names an item).
    public var hasRange: Bool { anchor > 0 }
}

extension ViewSelection {
    /// The selection's integer fields in a request (`apply`, `render`, `values`), in their order on the wire:
    /// cursor, anchor, scroll, pan x, pan y (protocol 4).
    public var wireIntegers: [Int64] { [cursor, anchor, scroll, panX, panY].map { Int64($0) } }
}
