import FoundationEssentials

/// Cursor and selection in an editor's view, items numbered from 1 (0 for none).
public struct ViewSelection: Sendable, Equatable {
    public var cursor: Int
    public var anchor: Int
    public var scroll: Int
    /// How far the user panned the view from where the editor puts it, in cells (ABI 1.2: columns right, rows down).
    public var panX: Int
    public var panY: Int

    /// Creates a selection.
    public init(cursor: Int = 0, anchor: Int = 0, scroll: Int = 0, panX: Int = 0, panY: Int = 0) {
        self.cursor = cursor
        self.anchor = anchor
        self.scroll = scroll
        self.panX = panX
        self.panY = panY
    }
}

/// The outcome of a three-way semantic merge.
public enum SemanticMergeResult: Sendable, Equatable {
    case merged(Data)
    case conflicts([String])
}
