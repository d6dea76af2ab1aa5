import FolioCore
import FoundationEssentials
import Glibc
import Synchronization

/// The plugin's view as the UI thread draws it: the view of the latest finished render. A frame that needs another
/// render (the cursor moved, the head changed, the window was resized) asks the worker for it and draws the previous
/// lines meanwhile; renders asked for while one runs collapse into one for the latest request.
final class EditorViewCache: Sendable {
    /// A render request for the version `head`.
    struct Request: Equatable, Sendable {
        var render: RenderRequest
        var head: String
    }
    private struct State: Sendable {
        var wanted: Request?
        var shown: (request: Request, view: PluginView)? { didSet { generation &+= 1 } }
        var jobQueued = false
        /// Counts the lines shown changing, so the run loop knows a finished render needs a frame.
        var generation: UInt64 = 0
    }
    private let state = Mutex(State())

    /// The view to draw for `request` now; queues a render on `worker` when it is not the one for `request`.
    func lines(for request: Request, view: any EditorViewProvider, worker: DocumentWorker, label: String) -> PluginView {
        let (shown, submit) = state.withLock { state -> (PluginView, Bool) in
            state.wanted = request
            if let shown = state.shown, shown.request == request { return (shown.view, false) }
            let submit = !state.jobQueued
            state.jobQueued = true
            return (state.shown?.view ?? [], submit)
        }
        if submit { worker.submit(label: label, isCommand: false) { [self] in renderWanted(view) } }
        return shown
    }

    /// Whether the lines drawn are the ones for the latest request (no render pending).
    var isCurrent: Bool { state.withLock { !$0.jobQueued } }

    /// Changes whenever the lines to draw change (a render or prerender finished).
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Renders the latest request until the lines shown are for it (on the worker).
    private func renderWanted(_ view: any EditorViewProvider) {
        while true {
            let next = state.withLock { state -> Request? in
                guard let wanted = state.wanted, wanted != state.shown?.request else { state.jobQueued = false; return nil }
                return wanted
            }
            guard let request = next else { return }
            let rendered = view.render(request.render)
            state.withLock { $0.shown = (request, rendered) }
        }
    }

    /// Renders the latest request again for a new head `head` (on the worker, before the state learns of the head),
    /// so that the frame that shows the new head's status and items also shows its lines: a key pressed meanwhile
    /// acts on the version the user sees.
    ///
    /// With `selection`, the one the window will have for the new head (`EditorState.showing`): the cursor already on
    /// the item a command acted on, not on the row it was on.
    func prerender(head: String, view: any EditorViewProvider, selection: ViewSelection? = nil) {
        guard var request = state.withLock({ $0.wanted }), request.head != head else { return }
        request.head = head
        if let selection { request.render.selection = selection }
        let rendered = view.render(request.render)
        state.withLock { $0.shown = (request, rendered) }
    }
}

/// The view provider a frame draws with: renders come from the cache (never a plugin call on the UI thread).
struct CachedEditorView: EditorViewProvider {
    let view: any EditorViewProvider
    let cache: EditorViewCache
    let worker: DocumentWorker
    /// The head the state shows, so a new head asks for a new render.
    let head: String
    /// The state's item layout (read off the UI thread with the head).
    let items: ItemLayout?
    let label: String

    func render(_ request: RenderRequest) -> PluginView {
        cache.lines(for: .init(render: request, head: head), view: view, worker: worker, label: label)
    }
    func commands() -> [EditorCommand] { view.commands() }
    func itemLayout() -> ItemLayout? { items }
}
