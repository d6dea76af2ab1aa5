/// The window's cursor and selection when an editor command starts. Every plugin command from the editor host
/// carries it, and the plugin's `apply` gets it (as the ABI's `folio_selection`, items numbered from 1), so a command
/// that needs the selection has it even when its usage names no item argument.
extension EditorState {
    /// The cursor and selection a command started now acts on.
    public var commandSelection: ViewSelection { .items(cursor: cursor, anchor: selectionAnchor) }
}
