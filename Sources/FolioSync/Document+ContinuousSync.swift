import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit

extension Document {
    static let continuousSyncKey = "folio.continuousSync"
    static let syncIntervalKey = "folio.syncInterval"

    /// Whether continuous sync is on for this document (`folio.continuousSync` in its `.git/config`; off when unset).
    public var continuousSync: Bool {
        guard let text = repository.configString(Self.continuousSyncKey)?.lowercased() else { return false }
        return ["true", "yes", "on", "1"].contains(text)
    }

    /// The document's own interval between looks at its remote (`folio.syncInterval`, seconds), nil when unset. A
    /// value outside `Settings.syncIntervalRange` or not a number is `SyncError.invalidSyncInterval`.
    public func syncInterval() throws -> Double? {
        guard let text = repository.configString(Self.syncIntervalKey) else { return nil }
        guard let seconds = Double(text.trimming(.whitespaces)), Settings.syncIntervalRange.contains(seconds) else {
            throw SyncError.invalidSyncInterval(document: url.path, value: text)
        }
        return seconds
    }

    /// The interval to use: the document's own, else `settings`', else 30 s.
    public func effectiveSyncInterval(settings: Settings) throws -> Double {
        try syncInterval() ?? settings.syncInterval ?? Settings.defaultSyncInterval
    }

    /// Turns continuous sync on or off, and sets the document's interval when `interval` is given (seconds within
    /// `Settings.syncIntervalRange`). Written to the document's `.git/config` only.
    public func setContinuousSync(_ on: Bool, interval: Double? = nil) throws {
        if let interval {
            guard Settings.syncIntervalRange.contains(interval) else {
                throw SyncError.invalidSyncInterval(document: url.path, value: String(interval))
            }
            try repository.setConfig(Self.syncIntervalKey, Self.intervalText(interval))
        }
        try repository.setConfig(Self.continuousSyncKey, on)
    }

    /// Sets only the document's interval (seconds within `Settings.syncIntervalRange`).
    public func setSyncInterval(_ interval: Double) throws {
        guard Settings.syncIntervalRange.contains(interval) else {
            throw SyncError.invalidSyncInterval(document: url.path, value: String(interval))
        }
        try repository.setConfig(Self.syncIntervalKey, Self.intervalText(interval))
    }

    private static func intervalText(_ seconds: Double) -> String {
        if let whole = Int(exactly: seconds) { return String(whole) }
        return String(seconds)
    }

    /// Shares the document: adds `remote` at `url` (unless it already has that remote at that URL), pushes, and turns
    /// continuous sync on. A push that fails leaves the remote added and continuous sync off.
    @discardableResult
    public func share(remote: String, url location: String, options: TransferOptions = TransferOptions()) throws -> PushResult {
        var added = false
        if let existing = try repository.remotes().first(where: { $0.name == remote }) {
            guard existing.url == location else { throw SyncError.remoteExists(name: remote, document: url.path) }
        } else {
            try addRemote(remote, url: location)
            added = true
        }
        let pushed: PushResult
        do {
            pushed = try push(to: remote, options: options)
        } catch {
            // A share that could not push leaves no remote behind: sharing again (a mistyped URL corrected) just works.
            if added { try? removeRemote(remote) }
            throw error
        }
        try setContinuousSync(true)
        return pushed
    }

    /// Changes the URL of an existing remote.
    public func changeRemote(_ name: String, url location: String) throws {
        _ = try remoteNamed(name)
        try repository.setRemoteURL(name, url: location)
    }

    /// Versions ahead of and behind the sync remote's tracking ref, read locally (as of the last fetch or push); all
    /// versions are ahead when the remote was never synced. Nil when the document has no remote.
    public func trackingCounts() throws -> (ahead: Int, behind: Int)? {
        guard let remote = try? syncRemote(nil) else { return nil }
        let head = try head().id
        guard let tracking = try repository.referenceTarget(trackingRef(remote.name)) else {
            return (try repository.countCommits(from: head), 0)
        }
        return try repository.aheadBehind(local: head, upstream: tracking)
    }

    /// The document's sharing state for `folio status` and the launcher: what the sync loop last saved, brought up to
    /// date with what can be read here without the network (remote, continuous sync, kept conflicts, versions ahead
    /// and behind the remote-tracking ref).
    public func sharingState() throws -> SharingState {
        let saved = SharingState.saved(documentPath: url.path)
        guard let remote = try? syncRemote(nil) else { return .notShared }
        var state = saved ?? SharingState(phase: .notShared)
        state.remote = remote.name
        state.continuous = continuousSync
        state.progress = nil
        state.conflicts = try liveConflictRefs().kept
        let head = try head().id
        if let tracking = try repository.referenceTarget(trackingRef(remote.name)) {
            (state.ahead, state.behind) = try repository.aheadBehind(local: head, upstream: tracking)
            if saved == nil || state.phase == .syncing { state.phase = .synced }
        } else {
            state.ahead = try repository.countCommits(from: head)
            state.behind = 0
            if state.phase == .syncing { state.phase = .notShared }
        }
        if let heldBack = Self.heldBackReason(conflicts: state.conflicts.count) {
            state.phase = .conflict
            state.problem = heldBack
        } else if state.phase == .conflict {
            state.phase = .synced
            if state.problem?.hasPrefix(Self.heldBackPrefix) == true { state.problem = nil }  // settled since
        }
        if state.phase == .notShared && state.continuous {
            state.phase = .offline  // continuous sync is on but no round has reached the remote yet
            state.problem = state.problem ?? "not synced yet"
        }
        return state
    }
}
