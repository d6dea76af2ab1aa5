import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

/// What the generic document view needs from a document: its files, their content, and an edit in the user's
/// editor recorded as one commit. The integration layer adapts `Document` to it; tests use fakes.
package protocol GenericDocumentAccess: Sendable {
    /// Why the document opens in the generic view; nil when an editor opens it.
    var reason: GenericViewReason? { get }
    /// The newest commit: id and first line (empty strings when there is none).
    func head() -> (id: String, message: String)
    /// The newest version's files with their sizes.
    func files() throws -> [GenericFileEntry]
    /// The content of `path` in the newest version, for the read-only view.
    func content(of path: String) throws -> GenericFileView
    /// Lets `runEditor` change `path` in the document's folder (it gets the file's location), then records what
    /// changed as one commit; returns the line the status bar shows. Nothing is recorded when `runEditor` throws.
    func edit(_ path: String, runEditor: (URL) throws -> Void) throws -> StatusLine
}

/// The generic view's side of the run loop: opening on it, keeping it current, and carrying out its requests.
enum GenericViewRuntime {
    /// Replaces the opening screen with the generic view when the document has no usable editor.
    static func opening(_ state: inout AppState, services: LaunchServices) {
        guard let access = services.generic, let reason = access.reason, let document = services.document else { return }
        var view = GenericViewState(path: document.path, title: document.title, contentType: document.contentType, reason: reason)
        reload(&view, access)
        state.screen = .generic(view)
    }

    /// Sizes the view for the terminal and, at most every `interval`, picks up a new head (another window, an
    /// undo, a restore in the history).
    static func update(_ state: inout AppState, services: LaunchServices, height: Int, lastPoll: inout Date, interval: TimeInterval = 0.5) {
        guard case var .generic(view) = state.screen, let access = services.generic else { return }
        view.viewRows = max(1, height - 4)
        if Date().timeIntervalSince(lastPoll) >= interval {
            lastPoll = Date()
            if access.head().id != view.commitID { reload(&view, access) }
        }
        state.screen = .generic(view)
    }

    /// Carries out a request of the view; true when the terminal was handed to another program (redraw it all).
    static func carryOut(_ request: GenericViewRequest, state: inout AppState, services: LaunchServices, terminal: TerminalSession,
                         environment: [String: String]) -> Bool {
        guard case var .generic(view) = state.screen, let access = services.generic else { return false }
        defer { state.screen = .generic(view) }
        switch request {
        case let .load(path):
            view.showing(load(path, access))
            return false
        case let .edit(path):
            let editor = ExternalEditor(environment: environment)
            do {
                view.message = try access.edit(path) { url in
                    try terminal.suspended { try editor.run(file: url.path) }
                }
            } catch {
                view.message = .failure(LaunchApp.oneLine(error))
            }
            let message = view.message
            reload(&view, access)
            view.message = message
            return true
        }
    }

    /// The listing, the head and the shown file read again.
    static func reload(_ view: inout GenericViewState, _ access: any GenericDocumentAccess) {
        let head = access.head()
        do {
            view.replacingEntries(try access.files(), commitID: head.id, commitMessage: head.message)
        } catch {
            view.loadError = LaunchApp.oneLine(error)
            view.commitID = head.id
            view.commitMessage = head.message
        }
        if let shown = view.file, view.entries.contains(where: { $0.path == shown.path }) {
            var fresh = load(shown.path, access)
            fresh.scroll = min(shown.scroll, max(0, fresh.lines.count - 1))
            fresh.column = shown.column
            view.file = fresh
        } else if view.focus == .tree, let row = view.selectedRow, !row.isFolder {
            view.file = load(row.path, access)
        }
    }

    static func load(_ path: String, _ access: any GenericDocumentAccess) -> GenericFileView {
        do { return try access.content(of: path) } catch {
            return GenericFileView(path: path, lines: [], binary: false, size: 0, note: "✗ " + LaunchApp.oneLine(error))
        }
    }
}
