import Dispatch
import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioDisplayWidth
import FolioGit
import Synchronization

/// Continuous sync of one document on a thread of its own: the remote is looked at when the loop starts, every
/// interval and on `syncNow()`; a new local version is pushed after a short debounce (a burst of versions is one
/// push); a round that cannot reach the remote leaves the state offline and is retried with a growing delay while
/// versions wait as commits; a round whose push lost a race for the remote's branch runs again at once (tens of
/// milliseconds), with no backoff; a kept conflict stops merges and pushes until it is settled. Each round holds the document's
/// `.git/folio/sync.lock` (a round another process is running is skipped), reports one `Event`, and saves the state
/// to `.git/folio/sync-state.json` (`SharingState.saved(documentPath:)`).
///
/// Nothing here is half-done by a kill: pulls and pushes are `Document.pull`/`push`, whose every step is atomic.
public final class DocumentSyncLoop: Sendable {
    /// One round's report, for `folio sync --watch` lines and the editor's status line.
    public struct Event: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// The round reached the remote (what it did is in `result`).
            case synced(SyncRoundResult)
            /// A kept conflict waits to be settled: nothing was pushed.
            case conflict(SyncRoundResult)
            /// The round failed (`problem`, one line); it is retried after `retryIn`.
            case offline(problem: String, retryIn: Duration)
            /// The round reached the remote but its push lost a race for the branch (`problem`, one line): it runs
            /// again after `retryIn`, a pause of tens of milliseconds.
            case retrying(problem: String, retryIn: Duration)
            /// Another process is syncing the document, or continuous sync is off: nothing was done.
            case skipped(reason: String)
        }
        public var date: Date
        public var kind: Kind
        /// The state after the round.
        public var state: SharingState

        /// One line: `pushed 2 versions`, `merged origin/main`, `offline (no answer …), retry in 8 s`.
        public var line: String {
            switch kind {
            case let .synced(result): return result.summary
            case let .conflict(result): return result.summary
            case let .offline(problem, retryIn): return "offline (\(problem)), retry in \(DocumentSyncLoop.seconds(retryIn)) s"
            case let .retrying(problem, retryIn): return "\(problem); syncing again in \(DocumentSyncLoop.milliseconds(retryIn)) ms"
            case let .skipped(reason): return "skipped: \(reason)"
            }
        }

        /// Whether the round is worth a line of its own: something changed, or it failed, or a conflict waits.
        public var isNotable: Bool {
            switch kind {
            case let .synced(result): return result.changedSomething || result.problem != nil
            case .conflict, .offline, .retrying: return true
            case .skipped: return false
            }
        }
    }

    /// How the loop runs.
    public struct Options: Sendable {
        /// The timings; `timings.interval` is replaced by the document's interval (`effectiveSyncInterval`) unless
        /// `fixedInterval` is set.
        public var timings: SyncTimings
        public var fixedInterval: Bool
        /// Only sync on its own while the document's continuous sync is on (`syncNow` and `perform` always do).
        public var followsDocumentSetting: Bool
        /// How long a transfer may go without progress.
        public var transferTimeout: Duration
        /// The environment credentials are read from.
        public var environment: [String: String]
        /// Whether the settings file of `environment` is looked at with each local check (one `stat` a second): a
        /// default interval changed there (in any window) applies at once, not when the document is opened again.
        public var followsSettingsFile: Bool

        public init(timings: SyncTimings = SyncTimings(), fixedInterval: Bool = false, followsDocumentSetting: Bool = true,
                    transferTimeout: Duration = TransferOptions.defaultTimeout, environment: [String: String] = ProcessInfo.processInfo.environment,
                    followsSettingsFile: Bool = false) {
            self.timings = timings; self.fixedInterval = fixedInterval; self.followsDocumentSetting = followsDocumentSetting
            self.transferTimeout = transferTimeout; self.environment = environment; self.followsSettingsFile = followsSettingsFile
        }
    }

    private struct Shared {
        var schedule: SyncSchedule
        var state: SharingState
        var started = false
        var stopping = false
        var cancelRequested = false
        var remotes: [RemoteInfo] = []
        /// The default interval of the settings (nil: 30 s), as last read; a document's own interval wins over it.
        var settingsInterval: Double?
        /// The interval the document asks for: its own, else the settings' (set each round and when either changes).
        var baseInterval: Duration?
        /// The longest interval while the window is in front and in use (`setForeground`), nil in the background.
        var foreground: Duration?
        /// The settings file as last looked at (`followsSettingsFile`).
        var settingsStamp: SettingsFileStamp?
    }

    /// The document's folder.
    public let url: URL
    private let store: DocumentStore
    private let options: Options
    private let semanticMerger: @Sendable () -> (any SemanticMerging)?
    private let onEvent: @Sendable (Event) -> Void
    private let shared: Mutex<Shared>
    /// Signalled when the loop should look again (a local version, sync now, stop); extra signals only cost a look.
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// A loop for the document at `url`, opened through `store`; `semanticMerger` is called on the loop's thread (the
    /// editors' merge), `onEvent` after every round on the thread that ran it. Call `start()` to run it.
    public init(document url: URL, store: DocumentStore, options: Options = Options(),
                semanticMerger: @escaping @Sendable () -> (any SemanticMerging)? = { nil },
                onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.url = url
        self.store = store
        self.options = options
        self.semanticMerger = semanticMerger
        self.onEvent = onEvent
        let saved = SharingState.saved(documentPath: url.path)
        var state = saved ?? SharingState(phase: .notShared)
        if state.phase == .syncing { state.phase = .synced }
        state.progress = nil
        var initial = Shared(schedule: SyncSchedule(timings: options.timings, now: .now), state: state)
        initial.settingsInterval = store.settings.syncInterval
        if options.followsSettingsFile { initial.settingsStamp = SettingsFileStamp(Settings.fileURL(environment: options.environment).path) }
        shared = Mutex(initial)
    }

    /// The interval the loop looks at the remote with now: the document's (or the settings'), shortened to the
    /// foreground interval while the window is in front and in use.
    public var interval: Duration { shared.withLock { $0.schedule.timings.interval } }

    /// The document's own interval, else the settings' default (nil until the first round read it).
    public var documentInterval: Duration? { shared.withLock { $0.baseInterval } }

    /// While the window is in front and in use, the remote is looked at at least every `longest` (nil: back to the
    /// document's interval). Applies at once: the next look is that long after the last one.
    public func setForeground(_ longest: Duration?) {
        let changed = shared.withLock { shared -> Bool in
            guard shared.foreground != longest else { return false }
            shared.foreground = longest
            retime(&shared)
            return true
        }
        if changed { wake.signal() }
    }

    /// The schedule retimed to the interval now in force (see `interval`). Called with the lock held.
    private func retime(_ shared: inout Shared) {
        guard !options.fixedInterval, let base = shared.baseInterval else { return }
        shared.schedule.retime(interval: shared.foreground.map { min($0, base) } ?? base, now: .now)
    }

    /// Reads the settings' default interval again when the settings file changed since it was last looked at.
    private func followSettingsFile(_ document: Document) {
        guard options.followsSettingsFile else { return }
        let url = Settings.fileURL(environment: options.environment)
        let stamp = SettingsFileStamp(url.path)
        guard shared.withLock({ $0.settingsStamp != stamp }) else { return }
        let loaded = try? Settings.load(environment: options.environment)  // a broken file keeps the interval it had
        let own = try? document.syncInterval()
        shared.withLock { shared in
            shared.settingsStamp = stamp
            if let loaded { shared.settingsInterval = loaded.syncInterval }
            let interval = shared.settingsInterval
            shared.baseInterval = Self.duration(own ?? interval ?? Settings.defaultSyncInterval)
            retime(&shared)
        }
    }

    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int((seconds * 1000).rounded())) }

    /// The state as of now (from memory).
    public var state: SharingState { shared.withLock { $0.state } }

    /// The remotes as of the last round.
    public var remotes: [RemoteInfo] { shared.withLock { $0.remotes } }

    /// Starts the loop's thread (once); the first round runs at once.
    public func start() {
        let first = shared.withLock { shared in
            defer { shared.started = true }
            return !shared.started
        }
        guard first else { return }
        DetachedThread.start { [self] in
            run()
            finished.signal()
        }
    }

    /// Looks at the remote now, whatever the interval; a pending retry delay starts over.
    public func syncNow() {
        shared.withLock { $0.schedule.requestNow(at: .now) }
        wake.signal()
    }

    /// A local version was just committed: push it after the debounce (the loop also notices versions made by other
    /// processes on its own, within `timings.localCheck`).
    public func notifyCommitted() {
        shared.withLock { $0.schedule.committed(at: .now) }
        wake.signal()
    }

    /// Cancels the running transfer, if any (the round ends offline with "cancelled"; nothing is half-done).
    public func cancel() { shared.withLock { $0.cancelRequested = true } }

    /// Stops the loop: cancels a running transfer, and returns once the loop's thread has finished. Not to be called
    /// from `onEvent`.
    public func stop() {
        let wasRunning = shared.withLock { shared in
            shared.stopping = true
            shared.cancelRequested = true
            return shared.started
        }
        wake.signal()
        if wasRunning { finished.wait(); finished.signal() }
    }

    private var isStopping: Bool { shared.withLock { $0.stopping } }

    // MARK: The loop's thread

    private func run() {
        var document: Document?
        var lastHead: ObjectID?
        var nextLocalCheck = ContinuousClock.now
        while !isStopping {
            let now = ContinuousClock.now
            if document == nil {
                do { document = try store.open(at: url) } catch {
                    finishRound(.failure(error), started: now, remote: nil)
                    waitUntil(shared.withLock { $0.schedule.nextRound })
                    continue
                }
            }
            guard let document else { continue }
            if now >= nextLocalCheck {
                let head = try? document.head().id
                if let head, lastHead != nil, head != lastHead { shared.withLock { $0.schedule.committed(at: now) } }
                lastHead = head ?? lastHead
                nextLocalCheck = now + options.timings.localCheck
                followSettingsFile(document)
            }
            if shared.withLock({ $0.schedule.isDue(at: now) }) {
                runRound(document, started: now)
                lastHead = (try? document.head().id) ?? lastHead
            }
            waitUntil(min(nextLocalCheck, shared.withLock { $0.schedule.nextRound }))
        }
    }

    private func waitUntil(_ deadline: ContinuousClock.Instant) {
        let wait = deadline - .now
        guard wait > .zero else { return }
        let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
        _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds)))
    }

    /// One automatic round: skipped while continuous sync is off (unless asked for) or another process syncs.
    private func runRound(_ document: Document, started: ContinuousClock.Instant) {
        let own = try? document.syncInterval()
        let timings = shared.withLock { shared -> SyncTimings in
            if !options.fixedInterval {
                shared.baseInterval = Self.duration(own ?? shared.settingsInterval ?? Settings.defaultSyncInterval)
                retime(&shared)
            }
            shared.remotes = (try? document.remotes()) ?? shared.remotes
            return shared.schedule.timings
        }
        let continuous = document.continuousSync
        guard (try? document.remotes())?.isEmpty == false else {
            shared.withLock { $0.state = SharingState(phase: .notShared, continuous: continuous) }
            skip("the document has no remote", continuous: continuous, started: started, by: timings.interval)
            return
        }
        if options.followsDocumentSetting && !continuous {
            skip("continuous sync is off", continuous: false, started: started, by: timings.interval)
            return
        }
        let lock: SyncRoundLock?
        do { lock = try SyncRoundLock.take(documentPath: url.path) } catch {
            finishRound(.failure(error), started: started, remote: nil)
            return
        }
        guard let lock else {
            skip("another process is syncing this document", continuous: continuous, started: started, by: .seconds(1))
            return
        }
        shared.withLock { $0.cancelRequested = false }
        let outcome = Result { try document.syncRound(.sync, options: syncOptions(isCancelled: { false }, progress: nil)) }
        withExtendedLifetime(lock) {
            finishRound(outcome, started: started, remote: try? document.syncRemote(nil).name, continuous: continuous,
                        counts: try? document.trackingCounts())
        }
    }

    private func skip(_ reason: String, continuous: Bool, started: ContinuousClock.Instant, by delay: Duration) {
        let state = shared.withLock { shared in
            shared.schedule.postponed(at: .now, by: delay)
            shared.state.continuous = continuous
            return shared.state
        }
        onEvent(Event(date: Date(), kind: .skipped(reason: reason), state: state))
    }

    /// Transfer and merge options for a round: the loop's cancel (and the caller's), progress into the state.
    private func syncOptions(isCancelled: @escaping @Sendable () -> Bool, progress: (@Sendable (String) -> Void)?,
                             acceptContentType: Bool = false) -> SyncOptions {
        let transfer = TransferOptions(environment: options.environment, progress: { [weak self] value in
            let line = "\(value.receivedObjects)/\(value.totalObjects) objects, \(value.receivedBytes / 1024) KiB"
            self?.shared.withLock { $0.state.phase = .syncing; $0.state.progress = line }
            progress?(line)
        }, isCancelled: { [weak self] in
            isCancelled() || (self?.shared.withLock { $0.cancelRequested || $0.stopping } ?? true)
        }, timeout: options.transferTimeout)
        return SyncOptions(transfer: transfer, semanticMerger: semanticMerger(), acceptContentType: acceptContentType)
    }

    /// Records a round's outcome: schedule, state (saved to the document), event.
    @discardableResult
    private func finishRound(_ outcome: Result<SyncRoundResult, any Error>, started: ContinuousClock.Instant, remote: String?,
                             continuous: Bool? = nil, counts: (ahead: Int, behind: Int)?? = nil) -> Event {
        let now = ContinuousClock.now
        let event = shared.withLock { shared -> Event in
            var state = shared.state
            state.progress = nil
            if let continuous { state.continuous = continuous }
            if let remote { state.remote = remote }
            let kind: Event.Kind
            switch outcome {
            case let .success(result):
                shared.schedule.succeeded(started: started, now: now)
                state.ahead = result.ahead; state.behind = result.behind; state.conflicts = result.conflicts
                state.problem = result.problem; state.nextAttempt = nil
                if case let .held(held)? = result.pulled { state.heldContentType = held.summary } else if result.pulled != nil { state.heldContentType = nil }
                if result.conflicts.isEmpty {
                    state.phase = .synced
                    state.lastSynced = Date()
                    kind = .synced(result)
                } else {
                    state.phase = .conflict
                    kind = .conflict(result)
                }
            case let .failure(error as SyncError) where error.isLostPushRace
                && shared.schedule.racesLost < SyncSchedule.raceLimit:
                let delay = shared.schedule.lostRace(at: now, pause: .milliseconds(Int.random(in: 20...120)))
                state.problem = Self.problem(error, remote: remote ?? state.remote)
                state.nextAttempt = Date().addingTimeInterval(Self.timeInterval(delay))
                kind = .retrying(problem: state.problem ?? "", retryIn: delay)
            case let .failure(error):
                let delay = shared.schedule.failed(at: now)
                let problem = Self.problem(error, remote: remote ?? state.remote)
                state.phase = .offline
                state.problem = problem
                if let counts = counts ?? nil { (state.ahead, state.behind) = counts }  // the versions waiting
                state.nextAttempt = Date().addingTimeInterval(Self.timeInterval(delay))
                kind = .offline(problem: problem, retryIn: delay)
            }
            shared.state = state
            return Event(date: Date(), kind: kind, state: state)
        }
        try? event.state.save(documentPath: url.path)  // best effort: the state is shown, never relied on
        onEvent(event)
        return event
    }

    // MARK: Asked for by the user

    /// Runs one round now on the caller's thread (the editor's sync now, push or pull keys), waiting for a round
    /// another process or the loop's thread is running; reports transfer progress lines and stops once `isCancelled`.
    /// The loop's state and schedule take the result as if the loop had run it. Throws what the round threw.
    @discardableResult
    ///
    /// `acceptContentType` takes a remote version that changes the document's content type (held otherwise), as the
    /// user agreed to.
    public func perform(_ mode: SyncRoundMode, acceptContentType: Bool = false, progress: @escaping @Sendable (String) -> Void = { _ in },
                        isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> SyncRoundResult {
        let started = ContinuousClock.now
        let document = try store.open(at: url)
        guard let lock = try SyncRoundLock.wait(documentPath: url.path, timeout: .seconds(120), isCancelled: isCancelled) else {
            if isCancelled() { throw SyncError.syncCancelled(document: url.path) }
            throw SyncError.syncBusy(document: url.path)
        }
        let outcome = Result {
            try document.syncRound(mode, options: syncOptions(isCancelled: isCancelled, progress: progress, acceptContentType: acceptContentType))
        }
        withExtendedLifetime(lock) {
            _ = finishRound(outcome, started: started, remote: try? document.syncRemote(nil).name, continuous: document.continuousSync,
                            counts: try? document.trackingCounts())
        }
        shared.withLock { $0.remotes = (try? document.remotes()) ?? $0.remotes }
        return try outcome.get()
    }

    // MARK: Words

    /// One line made by Folio for a failed round; text from outside (a server's message) is shown as text.
    public static func problem(_ error: any Error, remote: String?) -> String {
        let name = (remote ?? "the remote").shownAsText
        let text: String
        switch error {
        case let timedOut as TransferTimedOut:
            text = "no answer from \(name) for \(seconds(timedOut.timeout)) s"
        case SyncError.syncCancelled:
            text = "cancelled"
        case is TransferCancelled:
            text = "cancelled"
        case let refused as HostKeyRefused:
            text = refused.problem
        case let git as GitError where git.code == -16:  // GIT_EAUTH
            text = "\(name) refused the credentials"
        case let git as GitError:
            text = "cannot reach \(name): \(git.message.shownAsText)"
        case let sync as SyncError:
            switch sync {
            case let .pushRejected(_, reason): text = "\(name) refused the push: \(reason.shownAsText)"
            case let .remoteAhead(_, _, reason): text = "\(name) moved meanwhile and refused the push: \(reason.shownAsText)"
            case let .remoteBusy(_, _, reason): text = "another push was updating \(name) and it refused this one: \(reason.shownAsText)"
            default: text = sync.description.shownAsText
            }
        default:
            text = String(describing: error).shownAsText
        }
        let line = text.replacing("\n", with: " ")
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }

    static func seconds(_ duration: Duration) -> String {
        let value = timeInterval(duration)
        if let whole = Int(exactly: value.rounded()), abs(value - value.rounded()) < 0.05 { return String(whole) }
        return NumberText.fixed(value, digits: 1)
    }

    static func milliseconds(_ duration: Duration) -> String { String(Int((timeInterval(duration) * 1000).rounded())) }

    static func timeInterval(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// What the settings file looks like on disk (inode, size, modification time; nil: no file): settings are saved by
/// rename, so a save changes it.
struct SettingsFileStamp: Equatable, Sendable {
    var inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino); size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec); nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
