/// The window's cursor and selection when an editor command starts. Every plugin command from the editor host
/// carries it, and the plugin's `apply` gets it (as the ABI's `folio_selection`, items numbered from 1), so a command
/// that needs the selection has it even when its usage names no item argument.
extension EditorState {
    /// The cursor and selection a command started now acts on.
    package var commandSelection: ViewSelection { .items(cursor: cursor, anchor: selectionAnchor) }

    /// The cursor, range, scroll and pan the editor's view is drawn with. A view that numbers its items (`items`)
    /// gets the cursor and range; one that does not gets no cursor (the host draws it) and the range's first row.
    package var viewSelection: ViewSelection {
        guard items != nil else { return ViewSelection(anchor: selection.map { $0.start + 1 } ?? 0) }
        var view = commandSelection
        view.scroll = scroll
        view.panX = pan.x
        view.panY = pan.y
        return view
    }
}
