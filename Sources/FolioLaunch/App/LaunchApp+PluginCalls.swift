import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTerminal
import Synchronization

extension DocumentSession {
    /// `perform` on the calling thread (the worker's): sessions that can run a command synchronously override it;
    /// this default waits for the async one.
    package func performNow(_ effect: AppEffect) throws {
        try waitFor { try await self.perform(effect) }
    }
}

/// The editor host's calls into the open document: commands, renders and head polls run on the worker, results
/// come back through the mailbox, and Esc or ^Q stop them through the session's cancel (which kills the plugin's
/// host process from any thread).
struct EditorCalls: Sendable {
    let document: any DocumentSession
    let mailbox: Mailbox
    let worker = DocumentWorker()
    let cache = EditorViewCache()

    /// Runs a command (or undo, redo, restore, tag) off the UI thread; the result arrives as `.finished`. The new
    /// head's item layout (a render) is read by a job of its own, so the spinner names what is slow.
    /// `window` is the window as the command starts: the snapshot after the command says where its cursor goes (the
    /// item added, or the same item), and the new head is rendered with the selection the window will then have.
    func start(_ effect: AppEffect, label: String, renderLabel: String, window: EditorState? = nil) {
        let cursor = window.map { (commit: $0.commitID, position: $0.itemUnderCursor?.position) }
        worker.submit(label: label, isCommand: true) { [document, mailbox, worker, cache] in
            do {
                try document.performNow(effect)
            } catch let conflict as EditConflict {
                // Refused, and the window shows what changed meanwhile.
                let snapshot = DocumentSnapshot.read(document)
                cache.prerender(head: snapshot.commitID, view: document.editor, selection: window?.showing(snapshot).viewSelection)
                mailbox.post(.finished(effect, .conflicted(LaunchApp.oneLine(conflict), snapshot)))
                return
            } catch {
                mailbox.post(.finished(effect, .failed(LaunchApp.oneLine(error))))
                return
            }
            worker.submit(label: renderLabel, isCommand: false) { [cache] in
                let snapshot = DocumentSnapshot.read(document, afterCommandFrom: cursor)
                cache.prerender(head: snapshot.commitID, view: document.editor, selection: window?.showing(snapshot).viewSelection)
                mailbox.post(.finished(effect, .succeeded(snapshot)))
            }
        }
    }

    /// Reads the head (another window or process may have changed it) when nothing else runs; arrives as `.snapshot`.
    /// The item under `window`'s cursor is followed: when the head moved, the snapshot says where that item is now,
    /// and the new head is rendered with the selection the window will then have.
    /// When `describing` (the window shows the editor or its history) and the head moved on from the window's
    /// version, the snapshot says who made the new one and what changed (`DocumentSession.arrival`).
    func poll(label: String, window: EditorState, describing: Bool = true) {
        guard worker.isIdle else { return }
        worker.submit(label: label, isCommand: false) { [document, mailbox, cache] in
            var snapshot = DocumentSnapshot.read(document, following: window.itemUnderCursor)
            if describing, !window.commitID.isEmpty, snapshot.commitID != window.commitID {
                snapshot.arrival = document.arrival(from: window.commitID, to: snapshot.commitID)
            }
            cache.prerender(head: snapshot.commitID, view: document.editor, selection: window.showing(snapshot).viewSelection)
            mailbox.post(.snapshot(snapshot))
        }
    }

    /// Asks the editor for a form's current values on the worker (after whatever runs: they describe the version the
    /// form acts on); the answer arrives as `.argumentValues`. The UI never waits for it.
    func argumentValues(command: String, base: String?, selection: ViewSelection?, label: String) {
        worker.submit(label: label, isCommand: false) { [document, mailbox] in
            mailbox.post(.argumentValues(command, base, selection, document.argumentValues(command: command, base: base, selection: selection)))
        }
    }

    /// The view a frame draws with: the latest finished render, never a plugin call on this thread.
    func view(for state: AppState) -> (any EditorViewProvider)? {
        guard let editor = state.currentEditor else { return nil }
        return CachedEditorView(view: document.editor, cache: cache, worker: worker, head: editor.commitID, items: editor.items,
                                label: Self.renderLabel(editor))
    }

    /// Whether a call is queued or running (the loop then wakes more often to show its result).
    var isBusy: Bool { !worker.isIdle }

    /// Cancels again while the user is stopping a call: a cancel sent before the call reached the plugin's host finds
    /// nothing to stop. Only that call: the render queued behind it is not touched.
    func keepCancelling(_ state: AppState) {
        guard let call = state.call, call.cancelling, call.job != 0 else { return }
        worker.cancel(job: call.job) { document.cancelPluginCall() }
    }

    /// Stops what runs and waits (at most 2 s) for the worker, so that leaving the editor host never cuts a commit
    /// in half; the plugin's host is killed, so the wait is short.
    func stop() {
        guard !worker.isIdle else { return }
        document.cancelPluginCall()
        worker.waitUntilIdle(timeout: .seconds(2)) { document.cancelPluginCall() }
    }

    static func renderLabel(_ editor: EditorState) -> String {
        editor.editorName.map { "\($0): render" } ?? "render"
    }
}

extension LaunchApp {
    /// Draws the spinner over the status line (the bottom line off the editor) once a call has run 200 ms.
    static func drawSpinner(_ state: AppState, into grid: inout CellGrid) {
        guard let text = state.call?.spinnerText(tick: state.tick), grid.height > 0, grid.width > 0 else { return }
        var y = grid.height - 1
        if case .editor = state.screen, grid.height >= 2 { y = grid.height - 2 }
        let style = CellStyle(foreground: .named(.yellow), bold: true, reverse: true)
        grid.put(String(repeating: " ", count: grid.width), x: 0, y: y, style: style)
        grid.put(" " + text, x: 0, y: y, style: style, maxWidth: grid.width)
    }
}
