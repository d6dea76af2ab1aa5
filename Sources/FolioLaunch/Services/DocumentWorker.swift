import Dispatch
import FoundationEssentials
import FolioBasics
import Glibc
import Synchronization

/// Runs every call into the open document — editor commands, renders of the plugin's view, reading its head — one
/// at a time on a queue of its own, so the UI thread keeps reading keys and drawing frames while a plugin works.
/// The document's session serializes its own calls too; one queue keeps them in the order the user asked.
final class DocumentWorker: Sendable {
    private struct Job: Sendable {
        let id: Int
        let label: String
        let isCommand: Bool
    }
    private struct State: Sendable {
        var jobs: [Job] = []  // queued and running, in order; the first one runs
        var started: ContinuousClock.Instant?  // when the first job began
        var nextID = 0
    }
    private let queue = DispatchQueue(label: "folio.editor-host.document-calls")
    private let state = Mutex(State())

    /// Queues `body`; `label` names it for the spinner, `isCommand` when it changes the document.
    func submit(label: String, isCommand: Bool, _ body: @escaping @Sendable () -> Void) {
        let id = state.withLock { state in
            state.nextID += 1
            state.jobs.append(Job(id: state.nextID, label: label, isCommand: isCommand))
            return state.nextID
        }
        queue.async { [self] in
            state.withLock { $0.started = .now }
            body()
            state.withLock { state in
                state.jobs.removeAll { $0.id == id }
                state.started = nil
            }
        }
    }

    /// The call running now (with how long it has run) — a command when any queued job is one — or nil when idle.
    var running: PluginCall? {
        state.withLock { state in
            guard let first = state.jobs.first else { return nil }
            let elapsed = state.started.map { ContinuousClock.now - $0 } ?? .zero
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return PluginCall(label: first.label, isCommand: state.jobs.contains(where: \.isCommand), elapsed: seconds, job: first.id)
        }
    }

    /// Calls `cancel` if job `id` is the one running; the job cannot end meanwhile (its end takes the same lock), so
    /// the cancel never reaches the job after it.
    func cancel(job id: Int, _ cancel: () -> Void) {
        state.withLock { state in
            if state.jobs.first?.id == id { cancel() }
        }
    }

    var isIdle: Bool { state.withLock { $0.jobs.isEmpty } }

    /// Waits until the queue is idle or `timeout` passes, calling `nudge` every 50 ms meanwhile (to cancel again a
    /// call that started after the first cancel). Returns whether it became idle.
    @discardableResult
    func waitUntilIdle(timeout: Duration, nudge: () -> Void) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isIdle {
            if ContinuousClock.now >= deadline { return false }
            nudge()
            DetachedThread.sleep(seconds: 0.05)
        }
        return true
    }
}
