import FoundationEssentials
import FolioBasics
import Glibc
import Synchronization

/// A `folio` command the launcher runs off its event loop (Update Templates, a scene's command button): the launcher
/// stays full screen and in raw mode, shows the command's progress on its status line, and Esc cancels it (its
/// network transfers poll `isCancelled`). The runner reports progress lines and the summary line when it ends.
package final class BackgroundCommand: Sendable {
    /// The command's words (`["templates", "update"]`).
    package let arguments: [String]
    private struct State {
        var progress: String?
        var cancelled = false
        var result: StatusLine?
    }
    private let state = Mutex(State())

    package init(arguments: [String]) { self.arguments = arguments }

    /// The command's latest progress, one line ("team: 12/40 objects, 3 KiB").
    package func report(_ line: String) { state.withLock { $0.progress = line } }
    /// Asks the command to stop (Esc).
    package func cancel() { state.withLock { $0.cancelled = true } }
    /// Whether Esc was pressed; polled by the command's transfers.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }
    /// Sets the summary line once the command has ended.
    func finish(_ summary: StatusLine) { state.withLock { $0.result = summary } }
    /// The summary line, once the command has ended.
    var result: StatusLine? { state.withLock { $0.result } }

    /// The status line while it runs: "⠋ folio templates update: team: 12/40 objects, 3 KiB (esc cancels)".
    func statusLine(tick: Int) -> StatusLine {
        let (progress, cancelled) = state.withLock { ($0.progress, $0.cancelled) }
        let frames = PluginCall.spinnerFrames
        let frame = frames[((tick % frames.count) + frames.count) % frames.count]
        return .note("\(frame) folio \(arguments.joined(separator: " "))" + (progress.map { ": \($0)" } ?? "…")
            + (cancelled ? " (stopping)" : " (esc cancels)"))
    }

    /// Runs `runner` on a thread of its own (it blocks on network and on tasks it waits for), then records its summary.
    func start(_ runner: @escaping @Sendable (BackgroundCommand) -> StatusLine) {
        DetachedThread.start { [self] in finish(runner(self)) }
    }
}

/// The launcher's template source loads, one task per source: each reports its progress line, and each can be
/// cancelled on its own (a source removed in Settings) or all together (Esc while they load).
final class SourceLoaders: Sendable {
    private struct State {
        var tasks: [String: Task<Void, Never>] = [:]
        var progress: [String: String] = [:]
        /// Each source's current load: a result from an earlier one (replaced, or of a removed source) is dropped.
        var generation: [String: Int] = [:]
    }
    private let state = Mutex(State())

    /// Starts loading `name` from `catalog` (stopping a load of it still running); its result is posted to `mailbox`.
    func start(_ name: String, catalog: any TemplateCatalog, mailbox: Mailbox) {
        let (generation, previous) = state.withLock { state in
            let next = (state.generation[name] ?? 0) + 1
            state.generation[name] = next
            state.progress[name] = nil
            return (next, state.tasks[name])
        }
        previous?.cancel()
        let task = Task { [self] in
            let result: SourceState
            do {
                result = .loaded(try await catalog.templates(in: name) { [self] line in
                    state.withLock { if $0.generation[name] == generation { $0.progress[name] = line } }
                })
            } catch {
                result = .failed(Task.isCancelled ? "cancelled" : LaunchApp.oneLine(error))
            }
            let current = state.withLock { state in
                guard state.generation[name] == generation else { return false }
                state.progress[name] = nil
                return true
            }
            if current { mailbox.post(.source(name, result)) }
        }
        state.withLock { $0.tasks[name] = task }
    }

    /// The latest progress line of a source that is loading.
    func progress(_ name: String) -> String? { state.withLock { $0.progress[name] } }

    /// Cancels the loads of sources not in `names` (removed from the settings); their results are dropped.
    func keepOnly(_ names: Set<String>) {
        let dropped = state.withLock { state in
            let gone = state.tasks.filter { !names.contains($0.key) }
            for name in gone.keys { state.tasks[name] = nil; state.progress[name] = nil; state.generation[name] = nil }
            return Array(gone.values)
        }
        for task in dropped { task.cancel() }
    }

    /// Cancels every load (each then reports "cancelled").
    func cancelAll() {
        let all = state.withLock { state in Array(state.tasks.values) }
        for task in all { task.cancel() }
    }
}
