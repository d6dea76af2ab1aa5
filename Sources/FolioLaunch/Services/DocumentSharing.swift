import FolioCore
import FoundationEssentials
import Glibc

/// A remote of the open document, as the remote settings screen lists it.
package struct SharingRemote: Equatable, Sendable {
    package var name: String
    package var url: String
    package init(name: String, url: String) { self.name = name; self.url = url }
}

/// Something the user asks of the open document's sharing (a key, a palette command or the remote settings screen).
package enum SharingAction: Equatable, Sendable {
    /// Pull then push now, whatever the interval.
    case syncNow
    /// Sync now taking the held remote version that changes the document's content type (the user agreed).
    case acceptContentType
    case push
    case pull
    /// Add `remote` at `url`, push, and turn continuous sync on.
    case share(remote: String, url: String)
    /// Turn continuous sync on or off for this document.
    case continuous(Bool)
    /// How often the remote is looked at, in seconds, for this document.
    case interval(seconds: Int)
    case addRemote(name: String, url: String)
    case changeRemote(name: String, url: String)
    case removeRemote(name: String)
}

/// A kept remote version that could not be merged, with the items in conflict.
package struct SharingConflict: Equatable, Sendable {
    /// The kept version's ref (`refs/folio/conflicts/…`).
    package var ref: String
    /// Its summary line (already safe text).
    package var summary: String
    /// The conflicting items; empty when the editor cannot list items (the whole file is chosen instead).
    package var items: [ItemConflict]
    package init(ref: String, summary: String, items: [ItemConflict]) { self.ref = ref; self.summary = summary; self.items = items }
}

/// What the editor host needs to show and drive the open document's sharing. FolioCLI adapts the sync loop
/// (FolioSync) to it; tests use in-memory fakes. Every method but `state()` and `remotes()` may block on the
/// network or a plugin: the editor host calls them off the UI thread.
package protocol DocumentSharing: Sendable {
    /// The state as of now (cheap, from memory: the status line calls it every frame).
    func state() -> SharingState
    /// The document's remotes.
    func remotes() -> [SharingRemote]
    /// Carries out `action`, reporting progress lines and stopping (with an error) once `isCancelled` is true;
    /// returns a one-line summary of what it did, or throws with a one-line reason.
    func perform(_ action: SharingAction, progress: @escaping @Sendable (String) -> Void,
                 isCancelled: @escaping @Sendable () -> Bool) throws -> String
    /// The kept conflicts, oldest first, with their items.
    func conflicts() throws -> [SharingConflict]
    /// The document as it would be with `choices` applied to the conflict `ref`, drawn by the editor at `width`.
    func preview(ref: String, choices: [String: ItemChoice], width: Int) throws -> [String]
    /// Settles the conflict `ref` with one merge commit taking `choices` (item key → side; a conflict without items
    /// has the one key `SharingConflict.wholeFile`, mine or theirs); returns its summary line.
    func settle(ref: String, choices: [String: ItemChoice]) throws -> String
    /// How often the remote is looked at, in seconds, for this document (the remote settings screen shows it); nil
    /// when not known. Cheap, from memory. Defaults to nil.
    func syncInterval() -> Int?
    /// Stops the sync round the document's own loop is running, if any (Esc); it ends as if offline, nothing
    /// half-done. Defaults to nothing.
    func cancelRound()
    /// While the window is in front and in use, the remote is looked at at least every `longest` seconds (nil:
    /// back to the document's interval); applies at once. Cheap. Defaults to nothing.
    func setForeground(_ longest: Int?)
}

extension DocumentSharing {
    package func syncInterval() -> Int? { nil }
    package func cancelRound() {}
    package func setForeground(_ longest: Int?) {}
}

/// How often an open window looks at its remote: at least every `longest` seconds while it is in use (a key
/// pressed within `idleAfter`, or just opened), at the document's interval once idle, so that an idle window costs
/// what it did (one look per interval, 30 s by default).
package enum ForegroundSync {
    package static let longest = 5
    package static let idleAfter: TimeInterval = 60

    /// The longest wait between looks at `now` for a window last used at `lastUsed`: nil once idle.
    package static func longest(lastUsed: Date, now: Date) -> Int? {
        now.timeIntervalSince(lastUsed) < idleAfter ? longest : nil
    }
}
