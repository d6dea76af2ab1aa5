import FolioCore
import FolioTerminal

/// What the generic view asks the runtime to do.
package enum GenericViewRequest: Equatable, Sendable {
    /// Read a file of the newest version for the view.
    case load(path: String)
    /// Open the file in the user's editor (`$VISUAL`, `$EDITOR`, else `vi`) and record what changed as one commit.
    case edit(path: String)
}

extension AppState {
    /// Keys in the generic document view. Pure: reading and editing files are requests for the runtime.
    mutating func genericKey(_ key: Key, view: inout GenericViewState, effects: inout [AppEffect]) {
        view.message = nil
        switch key {
        case .ctrl("g"), .character(",") where !view.filtering:
            genericReturn = view
            let editor = view.editorForPanels
            if key == .ctrl("g") {
                screen = .history(HistoryState(), editor)
                effects += [.openHistory, .loadHistoryPage(after: nil)]
            } else {
                screen = .settings(SettingsState(settings: settings, returnTo: editor))
                effects.append(.openSettings)
            }
            return
        case .ctrl("w"): screen = .launch; return
        case .ctrl("z"): effects.append(.runEditorCommand("folio.undo")); return
        case .ctrl("y"): effects.append(.runEditorCommand("folio.redo")); return
        case .ctrl("p") where !view.filtering: view.message = Self.unboundKeyHint(key, on: .files).map(StatusLine.note); return
        default: break
        }
        if view.focus == .file { view.fileKey(key, effects: &effects) } else { view.treeKey(key, effects: &effects) }
    }

    /// Back from the history or the settings to the generic view they were opened from (they return to the editor
    /// they were given, which for a generic view stands in for it).
    mutating func returningToGenericView() {
        guard let saved = genericReturn else { return }
        switch screen {
        case let .editor(editor) where editor.path == saved.path:
            var view = saved
            view.commitID = editor.commitID
            view.commitMessage = editor.commitMessage
            screen = .generic(view)
            genericReturn = nil
        case .history, .settings, .form: break
        default: genericReturn = nil
        }
    }
}

extension AppState {
    /// The generic view's keys, for the help overlay (`genericKey`, `treeKey` and `fileKey` handle them).
    static let genericKeys: [(label: String, help: String)] = [
        ("↑ ↓ k j PgUp PgDn", "select a file (in a file: scroll)"),
        ("⏎ → l", "show the file / open or close a folder"),
        ("← h", "close the folder / go to its parent (in a file: scroll left)"),
        ("/", "filter the files (⏎ keeps the filter, esc clears it)"),
        ("e", "edit the file in $VISUAL or $EDITOR; the change is one commit"),
        ("esc q", "back from the file to the tree"),
        ("^G", "history"),
        (",", "settings"),
        ("^Z ^Y", "undo / redo"),
        ("^W", "close the document"),
    ]
}

extension GenericViewState {
    /// The editor state the history and settings screens are given to come back to.
    var editorForPanels: EditorState {
        EditorState(path: path, title: title, contentType: contentType, commitID: commitID, commitMessage: commitMessage)
    }

    mutating func treeKey(_ key: Key, effects: inout [AppEffect]) {
        let count = rows.count
        let page = max(1, viewRows - 1)
        if filtering {
            switch key {
            case let .character(c): filter.append(c); selection = firstFileRow
            case .backspace: if !filter.isEmpty { filter.removeLast(); selection = firstFileRow }
            case .enter: filtering = false
            case .escape: filter = ""; filtering = false; selection = 0
            case .up, .down, .pageUp, .pageDown: moveSelection(key, count: count, page: page)
            default: break
            }
            followSelection(effects: &effects)
            return
        }
        switch key {
        case .up, .down, .pageUp, .pageDown, .home, .end, .character("j"), .character("k"), .character("g"), .character("G"):
            moveSelection(key, count: count, page: page)
        case .enter, .right, .character("l"):
            guard let row = selectedRow else { break }
            if row.isFolder {
                if collapsed.contains(row.path) { collapsed.remove(row.path) } else if key == .enter { collapsed.insert(row.path) }
            } else {
                focus = .file
                if file?.path != row.path { effects.append(.generic(.load(path: row.path))) }
                return
            }
        case .left, .character("h"):
            guard let row = selectedRow else { break }
            if row.isFolder, filter.isEmpty, !collapsed.contains(row.path) { collapsed.insert(row.path) }
            else if let slash = row.path.lastIndex(of: "/"), let parent = rows.firstIndex(where: { $0.isFolder && $0.path == String(row.path[..<slash]) }) {
                selection = parent
            }
        case .character("/"): filtering = true
        case .escape:
            if !filter.isEmpty { filter = ""; selection = 0 } else { message = .note("^W closes the document · ^Q quits") }
        case .character("e"): requestEdit(effects: &effects); return
        default: break
        }
        followSelection(effects: &effects)
    }

    mutating func fileKey(_ key: Key, effects: inout [AppEffect]) {
        guard var shown = file else { focus = .tree; return }
        let page = max(1, viewRows - 1)
        let lastLine = max(0, shown.lines.count - viewRows)
        let widest = shown.widestBound
        switch key {
        case .up, .character("k"): shown.scroll -= 1
        case .down, .character("j"), .enter: shown.scroll += 1
        case .pageUp, .character("b"): shown.scroll -= page
        case .pageDown, .character(" "): shown.scroll += page
        case .home, .character("g"): shown.scroll = 0; shown.column = 0
        case .end, .character("G"): shown.scroll = lastLine
        case .left, .character("h"): shown.column -= 8
        case .right, .character("l"): shown.column += 8
        case .escape, .character("q"): focus = .tree
        case .character("/"): focus = .tree; filtering = true
        case .character("e"): requestEdit(effects: &effects)
        default: break
        }
        shown.scroll = min(max(0, shown.scroll), lastLine)
        shown.column = min(max(0, shown.column), max(0, widest - 8))
        file = shown
    }

    /// `e`: the file to edit, or a hint when a folder or a link is selected.
    mutating func requestEdit(effects: inout [AppEffect]) {
        if let path = fileToEdit { effects.append(.generic(.edit(path: path))) }
        else { message = selectedRow?.kind == .link ? .failure("a link cannot be edited here") : .note("select a file to edit (e)") }
    }

    mutating func moveSelection(_ key: Key, count: Int, page: Int) {
        let last = max(0, count - 1)
        switch key {
        case .up, .character("k"): selection -= 1
        case .down, .character("j"): selection += 1
        case .pageUp: selection -= page
        case .pageDown: selection += page
        case .home, .character("g"): selection = 0
        case .end, .character("G"): selection = last
        default: break
        }
        selection = min(max(0, selection), last)
    }

    /// Keeps the selection on screen and asks for the selected file's content when it is not the one shown.
    mutating func followSelection(effects: inout [AppEffect]) {
        let rows = max(1, viewRows)
        if selection < scroll { scroll = selection }
        if selection >= scroll + rows { scroll = selection - rows + 1 }
        scroll = max(0, min(scroll, max(0, self.rows.count - rows)))
        guard let row = selectedRow, !row.isFolder else { file = nil; return }
        if file?.path != row.path { effects.append(.generic(.load(path: row.path))) }
    }

    /// The first file among the rows (what a filter selects as it is typed, so that `e` has a file at once).
    var firstFileRow: Int { rows.firstIndex { !$0.isFolder } ?? 0 }

    /// Takes the content read for `path` (ignored when the selection has moved on).
    package mutating func showing(_ view: GenericFileView) {
        guard view.path == selectedRow?.path || (focus == .file && view.path == file?.path) else { return }
        file = view
    }
}

extension GenericViewState {
    /// A paste goes into the filter while it is typed, else it is ignored with a hint (never taken as keys).
    mutating func pasting(_ paste: PastedText) {
        if focus == .tree, filtering { filter += paste.oneLine; selection = 0 }
        else { message = AppState.pasteIgnored("/ to filter") }
    }
}
