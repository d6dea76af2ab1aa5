import FoundationEssentials
import Glibc

/// Where a shared document stands with its remote: the one description the editor's status line, the launcher's
/// badge, `folio status` and `folio sync --watch` all show. Made by the sync loop (`FolioSync`), saved beside the
/// document's history (`.git/folio/sync-state.json`) so a process that does not sync can still show it.
public struct SharingState: Sendable, Equatable, Codable {
    /// What the sync loop is doing or last found.
    public enum Phase: String, Sendable, Codable, CaseIterable {
        /// No remote, or continuous sync is off and nothing was ever synced.
        case notShared
        /// The last round reached the remote and both sides hold the same versions.
        case synced
        /// A round is running (`progress` says how far).
        case syncing
        /// The last round could not reach the remote (or it refused); changes wait as commits.
        case offline
        /// A remote version could not be merged: it is kept, and nothing is pushed until it is settled.
        case conflict
    }

    public var phase: Phase
    /// The remote synced with (`origin`), nil when the document has none.
    public var remote: String?
    /// When the last round finished with both sides equal.
    public var lastSynced: Date?
    /// Versions here the remote lacks (as of the last look).
    public var ahead: Int
    /// Versions on the remote not here (as of the last look).
    public var behind: Int
    /// A running transfer's progress, one line (`12/40 objects, 3 KiB`).
    public var progress: String?
    /// Why the last round failed (one line, made by Folio: never raw remote text).
    public var problem: String?
    /// Kept conflict refs waiting to be settled (`refs/folio/conflicts/…`).
    public var conflicts: [String]
    /// When the next attempt is due after a failure (retries back off).
    public var nextAttempt: Date?
    /// Whether continuous sync is on for the document.
    public var continuous: Bool
    /// A remote version held back because it changes the document's content type to one never used here (so another
    /// plugin would open it): one line saying so, nil when none is held. It stays until the user accepts it.
    public var heldContentType: String? = nil

    /// A state; every field but the phase defaults to nothing known.
    public init(phase: Phase, remote: String? = nil, lastSynced: Date? = nil, ahead: Int = 0, behind: Int = 0,
                progress: String? = nil, problem: String? = nil, conflicts: [String] = [], nextAttempt: Date? = nil,
                continuous: Bool = false, heldContentType: String? = nil) {
        self.phase = phase; self.remote = remote; self.lastSynced = lastSynced; self.ahead = ahead; self.behind = behind
        self.progress = progress; self.problem = problem; self.conflicts = conflicts; self.nextAttempt = nextAttempt
        self.continuous = continuous; self.heldContentType = heldContentType
    }

    /// A document that is not shared.
    public static let notShared = SharingState(phase: .notShared)

    /// One short line for a status line or `folio status`: `synced 5 s ago`, `↑2 ↓1`, `syncing · 12/40 objects`,
    /// `offline · 3 changes waiting`, `conflict · settle with c`.
    public func summary(now: Date = Date()) -> String {
        let counts = [ahead > 0 ? "↑\(ahead)" : nil, behind > 0 ? "↓\(behind)" : nil].compactMap { $0 }.joined(separator: " ")
        switch phase {
        case .notShared:
            return "not shared"
        case .synced:
            let when = lastSynced.map { "synced " + Self.ago($0, now: now) } ?? "synced"
            if heldContentType != nil { return "\(when) · held: new content type" }
            return counts.isEmpty ? when : "\(when) · \(counts)"
        case .syncing:
            return ["syncing", progress].compactMap { $0 }.joined(separator: " · ")
        case .offline:
            let waiting = ahead == 0 ? "nothing waiting" : "\(ahead) change\(ahead == 1 ? "" : "s") waiting"
            return "offline · \(waiting)"
        case .conflict:
            return "conflict · \(conflicts.count == 1 ? "1 version" : "\(conflicts.count) versions") to settle"
        }
    }

    /// The short badge of the launcher's recent list (`✓`, `↑2`, `offline`, `conflict`), empty when not shared.
    public var badge: String {
        switch phase {
        case .notShared: return ""
        case .synced: return heldContentType != nil ? "held" : ahead > 0 ? "↑\(ahead)" : behind > 0 ? "↓\(behind)" : "✓"
        case .syncing: return "⟳"
        case .offline: return ahead > 0 ? "offline ↑\(ahead)" : "offline"
        case .conflict: return "conflict"
        }
    }

    /// `5 s ago`, `3 min ago`, `2 h ago`, `4 d ago` (a time in the future reads `just now`).
    public static func ago(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        guard seconds.isFinite, seconds >= 1 else { return "just now" }
        guard let whole = Int(exactly: seconds.rounded(.down)) else { return "long ago" }
        switch whole {
        case ..<60: return "\(whole) s ago"
        case ..<3600: return "\(whole / 60) min ago"
        case ..<86_400: return "\(whole / 3600) h ago"
        default: return "\(whole / 86_400) d ago"
        }
    }
}

/// One item both sides changed in ways the editor's merge cannot combine (or one changed and the other removed),
/// as the conflict screen and `folio conflicts DOC show` list it.
public struct ItemConflict: Sendable, Equatable, Codable {
    /// The item's key in the common ancestor (`3`, `1.2`): what `--mine`/`--theirs`/`--both` name.
    public var key: String
    /// The item as it was (summary), nil when both sides added it.
    public var base: String?
    /// This side's version (summary), nil when removed here.
    public var mine: String?
    /// The remote's version (summary), nil when removed there.
    public var theirs: String?
    /// What each side did, as the editor's semantic diff words it (`checked 'Milk'`), one line each.
    public var mineChange: String
    public var theirsChange: String

    public init(key: String, base: String?, mine: String?, theirs: String?, mineChange: String, theirsChange: String) {
        self.key = key; self.base = base; self.mine = mine; self.theirs = theirs
        self.mineChange = mineChange; self.theirsChange = theirsChange
    }
}

/// How one conflicting item is settled.
public enum ItemChoice: String, Sendable, Codable, CaseIterable {
    /// Keep this side's version (a removal here removes it).
    case mine
    /// Keep the remote's version (a removal there removes it).
    case theirs
    /// Keep both: this side's version where it is, the remote's as a new item beside it (where the editor's take
    /// puts it: the checklist, at its own number); with a removal on one side, the version that exists.
    case both
}
