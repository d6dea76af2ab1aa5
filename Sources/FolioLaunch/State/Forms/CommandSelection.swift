/// The window's cursor and selection when an editor command starts, items numbered from 0. Every plugin command
/// from the editor host carries it, and the plugin's `apply` gets it (as the ABI's `folio_selection`, numbered from
/// 1), so a command that needs the selection has it even when its usage names no item argument.
public struct CommandSelection: Equatable, Sendable {
    /// The item under the cursor.
    public var cursor: Int
    /// The other end of the range (`v`), nil without one.
    public var anchor: Int?

    /// Creates a selection.
    public init(cursor: Int, anchor: Int? = nil) {
        self.cursor = cursor
        self.anchor = anchor
    }
}

extension EditorState {
    /// The cursor and selection a command started now acts on.
    public var commandSelection: CommandSelection { CommandSelection(cursor: cursor, anchor: selectionAnchor) }
}
