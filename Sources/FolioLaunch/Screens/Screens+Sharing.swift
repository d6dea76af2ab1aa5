import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

// The sharing parts of the screens: the editor's sync state and conflict banner, the running action's line, the
// remote settings screen and the conflict screen. Every text from a remote or an editor goes through
// `CellGrid.put`, which shows control characters as escapes.

extension Screens {
    /// The status line's right side: the sync state (when the document is shared) then the latest commit; the
    /// commit is what is cut short when the line is narrow.
    static func statusRight(_ state: EditorState, commit: String, now: Date) -> (text: String, sync: String?) {
        guard let sharing = state.sharing, sharing.phase != .notShared else { return (commit, nil) }
        let sync = "⇅ " + sharing.summary(now: now)
        return (sync + " · " + commit, sync)
    }

    /// The colour of the sync state on the status line: calm when synced, yellow while busy or offline, red on a
    /// conflict.
    static func syncStyle(_ phase: SharingState.Phase) -> CellStyle {
        switch phase {
        case .notShared, .synced: CellStyle(reverse: true)
        case .syncing, .offline: CellStyle(foreground: .named(.yellow), bold: true, reverse: true)
        case .conflict: CellStyle(foreground: .named(.red), bold: true, reverse: true)
        }
    }

    /// The one-line conflict banner over the editor's title row.
    static let conflictBanner = "⚠ A remote version conflicts with yours — press C to settle"

    /// The one-line banner over the editor's title row while a remote version that changes the content type is held.
    static let heldTypeBanner = "⚠ Held: a remote version changes the type (another plugin) — ^P Accept"

    static func drawConflictBanner(_ state: EditorState, into grid: inout CellGrid) {
        guard grid.height > 0 else { return }
        if state.sharing?.phase == .conflict {
            grid.putLine(" " + conflictBanner, y: 0, style: CellStyle(foreground: .named(.red), bold: true, reverse: true))
        } else if state.sharing?.heldContentType != nil {
            grid.putLine(" " + heldTypeBanner, y: 0, style: CellStyle(foreground: .named(.yellow), bold: true, reverse: true))
        }
    }

    /// The running sharing action's line (spinner, progress, "esc cancels") over the status line of the editor and of
    /// the sharing screens.
    package static func decorateSharing(_ grid: inout CellGrid, state: AppState) {
        guard let activity = state.sharingActivity, grid.height >= 2, grid.width > 0 else { return }
        switch state.screen {
        case .editor, .sharing: break
        default: return
        }
        let style = CellStyle(foreground: .named(.yellow), bold: true, reverse: true)
        grid.putLine(" " + activity.statusLine(tick: state.tick), y: grid.height - 2, style: style)
    }

    // MARK: Remote settings

    /// The cells a remote form field has.
    static func remoteFieldWidth(columns: Int) -> Int { max(1, columns - 18) }

    /// The remote settings screen: the remotes (the selected one marked), the interval and continuous sync, the form
    /// when open, the question or the last result.
    package static func remoteSettings(_ state: RemoteSettingsState, title: String, width: Int, height: Int) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        chrome(&grid, title: "Remote settings — " + title, right: state.continuous ? "continuous sync on" : "continuous sync off",
               hints: state.editing == nil ? "↑↓ remote · a add · e change URL · x remove · i interval · c continuous · esc back · ? help"
                   : "⏎ next / do it · tab move · esc close the form · F1 help")
        var y = 2
        func line(_ text: String, x: Int = 0, style: CellStyle = .plain) {
            if y < height - 2 { grid.put(text, x: x, y: y, style: style, maxWidth: max(0, width - x - 1)) }
            y += 1
        }
        line(" Remotes", style: theme.heading)
        if state.remotes.isEmpty { line("   none yet: a adds one (the editor's Share adds one and pushes)", style: theme.subtitle) }
        let nameWidth = min(16, max(6, state.remotes.map { DisplayWidth.width(of: TerminalText.visible($0.name)) }.max() ?? 6))
        for (index, remote) in state.remotes.enumerated() {
            let selected = index == state.selection && state.editing == nil
            if y < height - 2 {
                grid.put(selected ? " ▸ " : "   ", x: 0, y: y, style: theme.key)
                let name = DisplayWidth.pad(DisplayWidth.truncate(TerminalText.visible(remote.name), to: nameWidth), to: nameWidth)
                grid.put(name, x: 3, y: y, style: selected ? CellStyle(bold: true) : theme.action)
                grid.put(remote.url, x: 5 + nameWidth, y: y, style: theme.subtitle, maxWidth: max(0, width - 6 - nameWidth))
            }
            y += 1
        }
        y += 1
        line(" Sync", style: theme.heading)
        line("   interval     " + (state.interval.map(intervalText) ?? "not known"), style: theme.action)
        line("   continuous   " + (state.continuous ? "on" : "off"), style: theme.action)
        if state.editing != nil { y += 1; drawRemoteForm(state, into: &grid, y: &y) }
        if let removing = state.removing, height >= 3 {
            let question = "? Remove \(TerminalText.visible(removing))? y removes it (the document keeps its history); any other key keeps it"
            grid.putLine(" " + question, y: height - 2, style: CellStyle(foreground: .named(.yellow), bold: true))
        } else if let message = state.message, height >= 3 {
            grid.putLine(" " + message.shown, y: height - 2, style: theme.style(message))
        }
        return grid
    }

    private static func drawRemoteForm(_ state: RemoteSettingsState, into grid: inout CellGrid, y: inout Int) {
        let heading: String
        switch state.editing {
        case .add?: heading = "Add a remote"
        case .share?: heading = "Share: add a remote, push, and sync continuously"
        case let .change(name)?: heading = "New URL for " + name
        case .interval?: heading = "Look at the remote every … seconds (1–86400)"
        case nil: return
        }
        let bottom = grid.height - 2
        if y < bottom { grid.put(" " + heading, x: 0, y: y, style: theme.heading, maxWidth: max(0, grid.width - 1)) }
        y += 1
        for (index, label) in state.fieldLabels.enumerated() where state.fields.indices.contains(index) {
            guard y < bottom else { break }
            let focused = index == state.focus
            grid.put(focused ? " ▸ " : "   ", x: 0, y: y, style: theme.key)
            grid.put(DisplayWidth.pad(label, to: 12), x: 3, y: y, style: focused ? CellStyle(bold: true) : theme.subtitle)
            state.fields[index].draw(into: &grid, x: 16, y: y, width: remoteFieldWidth(columns: grid.width), style: CellStyle(underline: true), focused: focused)
            y += 1
        }
        if let problem = state.problem, y < bottom {
            grid.put("✗ " + problem, x: 3, y: y, style: theme.error, maxWidth: max(0, grid.width - 4))
            y += 1
        }
    }

    // MARK: Conflicts

    /// Where the conflict screen's parts go: the item list, and the preview beside it (100 columns and more) or below.
    struct ConflictLayout: Equatable {
        var width: Int
        var height: Int
        var sideBySide: Bool { width >= 100 }
        var top: Int { 3 }
        var bottom: Int { max(top, height - 2) }
        var listWidth: Int { sideBySide ? width / 2 : width }
        /// The rows the list has (the whole height beside the preview, the upper half above it).
        var listBottom: Int { sideBySide ? bottom : top + max(1, (bottom - top) * 3 / 5) }
        var previewX: Int { sideBySide ? listWidth + 2 : 1 }
        var previewTop: Int { sideBySide ? top : listBottom + 1 }
        var previewWidth: Int { max(1, width - previewX - 1) }
    }

    static func conflictLayout(width: Int, height: Int) -> ConflictLayout { ConflictLayout(width: width, height: height) }

    /// The rows of one conflicting item: its key and choice, then base, mine and theirs with what each side did.
    static func conflictRows(_ item: ItemConflict, choice: ItemChoice?) -> [String] {
        [
            "item \(item.key) · " + choiceText(choice),
            "    base    " + (item.base ?? "(added on both sides)"),
            "    mine    " + (item.mine ?? "(removed)") + " — " + item.mineChange,
            "    theirs  " + (item.theirs ?? "(removed)") + " — " + item.theirsChange,
        ]
    }

    static func choiceText(_ choice: ItemChoice?) -> String {
        switch choice {
        case .mine?: "keep mine"
        case .theirs?: "keep theirs"
        case .both?: "keep both"
        case nil: "no choice yet (m, t or b)"
        }
    }

    /// The conflict screen: the kept version's summary, each conflicting item with its choice, and the preview of the
    /// document as the choices make it.
    package static func conflicts(_ state: ConflictScreenState, title: String, width: Int, height: Int) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        let more = state.conflicts.count > 1 ? "1 of \(state.conflicts.count) kept versions" : ""
        chrome(&grid, title: "Settle a conflict — " + title, right: more,
               hints: "↑↓ item · m mine · t theirs · b both · M/T all · ⏎ settle · esc back · ? help")
        let layout = conflictLayout(width: width, height: height)
        if let message = state.message, height >= 3 {
            grid.putLine(" " + message.shown, y: height - 2, style: theme.style(message))
        }
        guard height > layout.top else { return grid }
        if state.loading { grid.put(" Reading the conflicts…", x: 0, y: layout.top, style: theme.subtitle); return grid }
        if let error = state.error { grid.put(" ✗ " + error, x: 0, y: layout.top, style: theme.error, maxWidth: width - 1); return grid }
        guard let current = state.current else {
            grid.put(" Nothing left to settle — esc goes back", x: 0, y: layout.top, style: theme.subtitle, maxWidth: width - 1)
            return grid
        }
        grid.put(" Remote version: " + current.summary, x: 0, y: 1, style: theme.subtitle, maxWidth: max(0, width - 1))
        drawConflictList(state, current: current, layout: layout, into: &grid)
        drawConflictPreview(state, layout: layout, into: &grid)
        return grid
    }

    private static func drawConflictList(_ state: ConflictScreenState, current: SharingConflict, layout: ConflictLayout, into grid: inout CellGrid) {
        let blocks: [[String]] = current.items.isEmpty
            ? [["the whole file (its editor cannot list items) · " + choiceText(state.choices[SharingConflict.wholeFile]),
                "    mine    this copy as it is", "    theirs  the remote version"]]
            : current.items.map { conflictRows($0, choice: state.choices[$0.key]) }
        let blockHeight = (blocks.first?.count ?? 4) + 1
        // One row is kept for "3–4 of 9 items" when they do not all fit.
        let fitsAll = blocks.count * blockHeight - 1 <= layout.listBottom - layout.top
        let room = fitsAll ? blocks.count : max(1, (layout.listBottom - layout.top - 1) / blockHeight)
        let first = max(0, min(state.selection - room + 1, blocks.count - room))
        var y = layout.top
        for (index, block) in blocks.enumerated().dropFirst(first) {
            guard y < layout.listBottom else { break }
            let selected = index == state.selection
            let chosen = state.choices[state.keys.indices.contains(index) ? state.keys[index] : ""] != nil
            for (row, text) in block.enumerated() where y + row < layout.listBottom {
                let style = row == 0 ? (selected ? theme.selected : chosen ? theme.action : theme.key) : theme.subtitle
                if row == 0 { grid.put(selected ? " ▸ " : "   ", x: 0, y: y, style: theme.key) }
                grid.put(text, x: 3, y: y + row, style: style, maxWidth: max(0, layout.listWidth - 4))
            }
            y += blockHeight
        }
        if blocks.count > room, layout.listBottom - 1 > layout.top {
            grid.put("\(first + 1)–\(min(blocks.count, first + room)) of \(blocks.count) items", x: 3, y: layout.listBottom - 1, style: theme.subtitle,
                     maxWidth: max(0, layout.listWidth - 4))
        }
    }

    private static func drawConflictPreview(_ state: ConflictScreenState, layout: ConflictLayout, into grid: inout CellGrid) {
        if layout.sideBySide { vline(&grid, x: layout.listWidth, from: layout.top, to: layout.bottom) }
        var y = layout.previewTop
        guard y < layout.bottom else { return }
        grid.put("Preview: the document with these choices", x: layout.previewX, y: y, style: theme.heading, maxWidth: layout.previewWidth)
        y += 1
        if let error = state.previewError {
            grid.put("✗ " + error, x: layout.previewX, y: y, style: theme.error, maxWidth: layout.previewWidth)
            return
        }
        guard state.previewIsCurrent else {
            grid.put("drawing…", x: layout.previewX, y: y, style: theme.subtitle)
            return
        }
        for text in state.preview where y < layout.bottom {
            grid.put(text, x: layout.previewX, y: y, maxWidth: layout.previewWidth)
            y += 1
        }
    }
}

extension LaunchLayout {
    /// A recent document's sharing badge as it fits a row `innerWidth` cells wide: at most a quarter of it (16 cells),
    /// shown as text (control characters as escapes).
    static func shownBadge(_ badge: String, innerWidth: Int) -> String {
        guard !badge.isEmpty else { return "" }
        return DisplayWidth.truncate(TerminalText.visible(badge), to: min(16, max(0, innerWidth / 4)))
    }

    /// Draws the badge at `x` (before the detail), coloured by what it says.
    static func drawBadge(_ shown: String, of badge: String, into grid: inout CellGrid, x: Int, y: Int, selected: Bool) {
        guard !shown.isEmpty else { return }
        let color: CellStyle = badge.hasPrefix("conflict") ? Theme.standard.error
            : badge.hasPrefix("offline") ? CellStyle(foreground: .named(.yellow)) : Theme.standard.success
        grid.put(shown, x: x, y: y, style: selected ? Theme.standard.selected : color)
    }
}

extension Screens {
    /// "every 30 s (every 5 s while this window is in use)": the interval and, when shorter, the foreground one.
    static func intervalText(_ seconds: Int) -> String {
        seconds <= ForegroundSync.longest ? "every \(seconds) s" : "every \(seconds) s (every \(ForegroundSync.longest) s while this window is in use)"
    }
}
