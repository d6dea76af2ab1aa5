/// What a render asks of an editor: a view of at most `height` lines of at most `width` cells, with the cursor,
/// range, scroll and pan of `selection`. Folio's own Swift API passes it whole from the editor host's frame to the
/// plugin call (the C ABI keeps its own `render(width, height, folio_selection)`, which is versioned).
public struct RenderRequest: Sendable, Equatable {
    /// The view's width in terminal cells.
    public var width: Int
    /// The most lines the view has.
    public var height: Int
    /// Cursor, range, scroll and pan (items from 1, 0 for none).
    public var selection: ViewSelection

    /// Creates a request.
    public init(width: Int, height: Int, selection: ViewSelection = ViewSelection()) {
        self.width = width
        self.height = height
        self.selection = selection
    }
}
