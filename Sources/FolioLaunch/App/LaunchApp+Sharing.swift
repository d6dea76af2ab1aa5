import Dispatch
import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTerminal
import Synchronization

/// Carries out the open document's sharing requests off the UI thread: an action (sync, push, pull, share, a remote
/// change) on a thread of its own, reporting progress and polling Esc; reading conflicts, drawing previews and
/// settling one at a time on a queue. Results come back through the mailbox.
final class SharingRuntime: Sendable {
    let sharing: (any DocumentSharing)?
    let mailbox: Mailbox
    private struct State {
        var progress: String?
        var cancelled = false
        /// The number of the latest preview asked for: an older one still waiting is dropped.
        var previewRequest: UInt64 = 0
        /// The foreground interval last given to the sharing (`keepForeground`); `.some(nil)`: in the background.
        var foreground: Int??
    }
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "folio.editor-host.sharing")

    init(sharing: (any DocumentSharing)?, mailbox: Mailbox) { self.sharing = sharing; self.mailbox = mailbox }

    /// The running action's latest progress line.
    var progress: String? { state.withLock { $0.progress } }
    /// Whether Esc asked the running action to stop.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func carryOut(_ request: SharingRequest) {
        guard let sharing else {
            if case let .perform(action) = request { mailbox.post(.sharing(.performed(action, .failed("this document is not shared here")))) }
            return
        }
        switch request {
        case let .perform(action): perform(action, sharing: sharing)
        case .cancel: state.withLock { $0.cancelled = true }
        case .cancelRound: sharing.cancelRound()
        case .loadConflicts:
            queue.async { [mailbox] in
                do { mailbox.post(.sharing(.conflicts(try sharing.conflicts()))) } catch { mailbox.post(.sharing(.conflictsFailed(LaunchApp.oneLine(error)))) }
            }
        case let .preview(subject): preview(subject, sharing: sharing)
        case let .settle(ref, choices):
            queue.async { [mailbox] in
                let outcome: SharingOutcome
                do { outcome = .done(try sharing.settle(ref: ref, choices: choices)) } catch { outcome = .failed(LaunchApp.oneLine(error)) }
                mailbox.post(.sharing(.settled(ref: ref, outcome)))
            }
        }
    }

    /// Runs `action` on a thread of its own (it blocks on the network); the state allows one at a time.
    private func perform(_ action: SharingAction, sharing: any DocumentSharing) {
        state.withLock { $0.progress = nil; $0.cancelled = false }
        DetachedThread.start { [self] in
            let outcome: SharingOutcome
            do {
                outcome = .done(try sharing.perform(action, progress: { [self] line in state.withLock { $0.progress = line } },
                                                    isCancelled: { [self] in isCancelled }))
            } catch {
                outcome = .failed(LaunchApp.oneLine(error))
            }
            state.withLock { $0.progress = nil }
            mailbox.post(.sharing(.performed(action, outcome)))
        }
    }

    /// Draws a preview after the diff's short wait unless a newer one was asked for meanwhile (keys pressed in a row
    /// ask for one preview); an answer that arrives after the choices changed is dropped by the state.
    private func preview(_ subject: ConflictPreviewSubject, sharing: any DocumentSharing) {
        let request = state.withLock { $0.previewRequest &+= 1; return $0.previewRequest }
        let isStale: @Sendable () -> Bool = { [self] in state.withLock { $0.previewRequest } != request }
        queue.asyncAfter(deadline: .now() + .milliseconds(120)) { [mailbox] in
            guard !isStale() else { return }
            do {
                let lines = try sharing.preview(ref: subject.ref, choices: subject.choices, width: subject.width)
                if !isStale() { mailbox.post(.sharing(.preview(subject, lines))) }
            } catch {
                if !isStale() { mailbox.post(.sharing(.previewFailed(subject, LaunchApp.oneLine(error)))) }
            }
        }
    }

    /// Stops the running action (leaving the editor host): its transfer ends at its next check.
    func stop() { state.withLock { $0.cancelled = true } }

    /// Gives the sharing the window's foreground interval (`ForegroundSync`) when it changed: at once, and only then.
    func keepForeground(_ longest: Int?) {
        guard let sharing, state.withLock({ state in defer { state.foreground = .some(longest) }; return state.foreground != .some(longest) }) else { return }
        sharing.setForeground(longest)
    }
}

extension LaunchApp {
    /// How often the launcher reads the recent documents' sharing states again (their badges).
    static let badgeInterval: TimeInterval = 5

    /// Once per frame: the open document's sharing state (its status line; the loop already draws a frame at least
    /// every 80 ms, so "synced N s ago" moves without a timer of its own), its remotes on the remote settings screen,
    /// the running action's progress, the conflict screen's preview, and the launcher's badges now and then.
    /// `lastUsed` is when a key was last pressed (or the window opened): the document's remote is looked at more
    /// often while the window is in use (`ForegroundSync`).
    static func updateSharing(_ state: inout AppState, runtime: SharingRuntime, services: LaunchServices, width: Int, height: Int,
                              lastBadges: inout Date, lastUsed: Date = Date()) {
        runtime.keepForeground(state.currentEditor == nil ? nil : ForegroundSync.longest(lastUsed: lastUsed, now: Date()))
        if let sharing = runtime.sharing, state.currentEditor != nil {
            var onRemotes = false
            if case .sharing(.remotes, _) = state.screen { onRemotes = true }
            state.observeSharing(sharing.state(), remotes: onRemotes ? sharing.remotes() : [], interval: onRemotes ? sharing.syncInterval() : nil,
                                 progress: runtime.progress)
        } else {
            state.sharingActivity?.progress = runtime.progress
        }
        if case let .sharing(request)? = state.followConflictPreview(columns: width, rows: height) { runtime.carryOut(request) }
        if case .launch = state.screen, Date().timeIntervalSince(lastBadges) >= badgeInterval {
            lastBadges = Date()
            state.recent = RecentList.withBadges(state.recent, from: services.recent)
        }
    }

    /// The sharing screen shown over the editor.
    static func sharingFrame(_ page: SharingScreen, editor: EditorState, width: Int, height: Int) -> CellGrid {
        switch page {
        case let .remotes(remotes): Screens.remoteSettings(remotes, title: editor.title, width: width, height: height)
        case let .conflicts(conflicts): Screens.conflicts(conflicts, title: editor.title, width: width, height: height)
        }
    }
}

extension RecentList {
    /// `list` with each document's badge from the sharing state saved for it (empty when not shared).
    package static func withBadges(_ list: [RecentDocument], from provider: any RecentDocumentsProvider) -> [RecentDocument] {
        list.map { document in
            var document = document
            document.badge = document.missing ? "" : provider.sharingState(path: document.path).badge
            return document
        }
    }
}
