import FoundationEssentials
import Glibc

/// How a `DocumentSyncLoop` times its rounds.
public struct SyncTimings: Sendable, Equatable {
    /// Between two looks at the remote.
    public var interval: Duration
    /// A push waits this long after the last new local version (a burst of edits is one push)…
    public var pushDelay: Duration
    /// …but no longer than this after the first one.
    public var pushDelayLimit: Duration
    /// The first retry after a failed round; each further failure doubles it…
    public var retryDelay: Duration
    /// …up to this.
    public var retryDelayLimit: Duration
    /// How often the document's branch is looked at for versions made by other processes (no network).
    public var localCheck: Duration

    /// Folio's defaults: look every 30 s, push 1 s after the last change (at most 5 s after the first), retry after
    /// 2 s doubling to 5 min, look for local versions every second.
    public init(interval: Duration = .seconds(30), pushDelay: Duration = .seconds(1), pushDelayLimit: Duration = .seconds(5),
                retryDelay: Duration = .seconds(2), retryDelayLimit: Duration = .seconds(300), localCheck: Duration = .seconds(1)) {
        self.interval = interval; self.pushDelay = pushDelay; self.pushDelayLimit = pushDelayLimit
        self.retryDelay = retryDelay; self.retryDelayLimit = retryDelayLimit; self.localCheck = localCheck
    }
}

/// When the next sync round is due: the pure timing of `DocumentSyncLoop` (no clock of its own, so tests drive it
/// with made-up times). Rounds are due at the poll interval, after a debounced local change, or at once when asked;
/// after a failure only when the retry is due (changes wait meanwhile), the retry delay doubling up to its limit; after
/// a push that lost a race for the remote's branch, at once (a random pause of tens of milliseconds), without backoff.
public struct SyncSchedule: Sendable, Equatable {
    public var timings: SyncTimings
    /// The next look at the remote.
    public private(set) var nextPoll: ContinuousClock.Instant
    /// The first and last local version not yet pushed (nil when none waits).
    public private(set) var firstUnpushed: ContinuousClock.Instant?
    public private(set) var lastUnpushed: ContinuousClock.Instant?
    /// The delay of the next retry after a failure, nil when the last round succeeded.
    public private(set) var retryDelay: Duration?
    /// When the failed round is retried.
    public private(set) var retryAt: ContinuousClock.Instant?
    /// Waiting pushes are held until then (a round was skipped).
    public private(set) var heldUntil: ContinuousClock.Instant?
    /// Rounds in a row that lost a race for the remote's branch (reset by a round that reaches its end).
    public private(set) var racesLost = 0

    /// Rounds in a row that may lose a race for the remote's branch and be run again at once; the next one counts as
    /// a failure (backoff), so a server that always answers so is not hammered.
    public static let raceLimit = 8

    /// A schedule whose first round is due at `now` (a document is looked at as soon as it is opened).
    public init(timings: SyncTimings, now: ContinuousClock.Instant) {
        self.timings = timings
        nextPoll = now
    }

    /// A new local version appeared at `now`: push after the debounce.
    public mutating func committed(at now: ContinuousClock.Instant) {
        if firstUnpushed == nil { firstUnpushed = now }
        lastUnpushed = now
    }

    /// Sync now (the user asked): due at once, and the retry delay starts over.
    public mutating func requestNow(at now: ContinuousClock.Instant) {
        nextPoll = now
        racesLost = 0
        retryDelay = nil
        retryAt = nil
        heldUntil = nil
    }

    /// When the debounced push is due, if a local version waits.
    public var pushDue: ContinuousClock.Instant? {
        guard let firstUnpushed, let lastUnpushed else { return nil }
        let due = min(lastUnpushed + timings.pushDelay, firstUnpushed + timings.pushDelayLimit)
        return heldUntil.map { max($0, due) } ?? due
    }

    /// When the next round is due: a pending retry wins over everything (offline, changes wait); else the earlier of
    /// the next poll and the debounced push.
    public var nextRound: ContinuousClock.Instant {
        if let retryAt { return retryAt }
        return pushDue.map { min($0, nextPoll) } ?? nextPoll
    }

    /// Whether a round should run at `now`.
    public func isDue(at now: ContinuousClock.Instant) -> Bool { now >= nextRound }

    /// A round that started at `started` reached the remote: the retry delay starts over, the versions noted up to
    /// the round's start are pushed, and the next poll is an interval from `now`.
    public mutating func succeeded(started: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        retryDelay = nil
        retryAt = nil
        heldUntil = nil
        racesLost = 0
        if let lastUnpushed, lastUnpushed <= started { firstUnpushed = nil; self.lastUnpushed = nil }
        nextPoll = now + timings.interval
    }

    /// A round failed at `now`: retried after the current delay, which then doubles up to its limit. Returns the
    /// delay until the retry.
    @discardableResult
    public mutating func failed(at now: ContinuousClock.Instant) -> Duration {
        let delay = retryDelay ?? timings.retryDelay
        racesLost = 0
        retryAt = now + delay
        retryDelay = min(delay * 2, timings.retryDelayLimit)
        nextPoll = now + max(delay, timings.interval)
        return delay
    }

    /// A round reached the remote at `now` but lost the race for its branch (the push was refused because the remote
    /// moved meanwhile, or another push held it): it runs again after `pause` (a small random delay, so racing
    /// writers spread out), the retry delay neither used nor grown: it is kept for a remote that cannot be reached.
    /// After `raceLimit` lost races in a row it is a failure (`failed(at:)`). Returns the delay until the next round.
    @discardableResult
    public mutating func lostRace(at now: ContinuousClock.Instant, pause: Duration) -> Duration {
        racesLost += 1
        guard racesLost <= Self.raceLimit else { return failed(at: now) }
        retryAt = now + pause
        nextPoll = now + max(pause, timings.interval)
        return pause
    }

    /// The interval changed to `interval` at `now` (the user's setting, the window coming to the front or going to
    /// the background): the next look is an interval after the last one with the new interval, never before `now`.
    /// A pending retry is left as it is (the remote could not be reached).
    public mutating func retime(interval: Duration, now: ContinuousClock.Instant) {
        let previous = timings.interval
        timings.interval = interval
        guard retryAt == nil, interval != previous else { return }
        nextPoll = max(now, nextPoll - previous + interval)
    }

    /// A round was skipped (another process syncs the document, or there is a conflict to settle): look again after
    /// `delay`, keeping any retry delay.
    public mutating func postponed(at now: ContinuousClock.Instant, by delay: Duration) {
        nextPoll = now + delay
        heldUntil = now + delay
        if retryAt != nil { retryAt = now + delay }
    }
}
