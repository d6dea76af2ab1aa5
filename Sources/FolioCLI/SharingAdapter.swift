import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioLaunch
import FolioSync
import Synchronization

/// The editor host's view of a document's sharing (`DocumentSharing`) over a `DocumentSyncLoop`: the state and the
/// remotes from memory, actions run on the caller's thread (the editor host calls them off the UI thread) with a
/// `Document` of their own. Kept conflicts are listed, previewed and settled item by item through the editors'
/// merge (`SharingAdapter+Conflicts.swift`).
final class SharingAdapter: DocumentSharing {
    let loop: DocumentSyncLoop
    let store: DocumentStore
    /// The editors' item-by-item merge (lists, settles and draws conflicts), from the plugin host the window uses.
    let editors: PluginSemanticMerger?
    /// The conflicts as last read, by ref, with the version they were read at: every preview of the conflict screen
    /// (a key press each) needs a conflict's keys, which cost the editor a trial settle to find.
    let readConflicts = Mutex<(head: String, byRef: [String: ConflictDetails])>(("", [:]))
    private let environment: [String: String]
    private let timeout: Duration

    /// An adapter for the document at `url`; its loop is started (the first look at the remote is immediate).
    init(document url: URL, store: DocumentStore, environment: [String: String], editors: PluginSemanticMerger? = nil) {
        self.store = store
        self.editors = editors
        self.environment = environment
        timeout = store.settings.networkTimeoutDuration
        loop = DocumentSyncLoop(document: url, store: store,
                                options: .init(transferTimeout: timeout, environment: environment, followsSettingsFile: true),
                                semanticMerger: { editors ?? semanticMerger(environment: environment) })
        loop.start()
    }

    deinit { loop.stop() }

    func state() -> SharingState { loop.state }

    func remotes() -> [SharingRemote] { loop.remotes.map { SharingRemote(name: $0.name, url: $0.shownURL) } }

    func perform(_ action: SharingAction, progress: @escaping @Sendable (String) -> Void,
                 isCancelled: @escaping @Sendable () -> Bool) throws -> String {
        switch action {
        case .syncNow: return try loop.perform(.sync, progress: progress, isCancelled: isCancelled).summary
        case .acceptContentType: return try loop.perform(.sync, acceptContentType: true, progress: progress, isCancelled: isCancelled).summary
        case .push: return try loop.perform(.push, progress: progress, isCancelled: isCancelled).summary
        case .pull: return try loop.perform(.pull, progress: progress, isCancelled: isCancelled).summary
        default: return try configure(action, progress: progress, isCancelled: isCancelled)
        }
    }

    /// The actions that change the document's remotes or settings.
    private func configure(_ action: SharingAction, progress: @escaping @Sendable (String) -> Void,
                           isCancelled: @escaping @Sendable () -> Bool) throws -> String {
        let document = try store.open(at: loop.url)
        defer { loop.syncNow() }  // the state and remotes shown follow at once
        switch action {
        case let .share(remote, url):
            let transfer = TransferOptions(environment: environment, progress: { value in
                progress("pushing: \(value.receivedObjects)/\(value.totalObjects) objects")
            }, isCancelled: isCancelled, timeout: timeout)
            let pushed = try document.share(remote: remote, url: url, options: transfer)
            return "shared as \(remote.shownAsText): pushed \(pushed.commit.short); continuous sync on"
        case let .continuous(on):
            try document.setContinuousSync(on)
            return "continuous sync \(on ? "on" : "off")"
        case let .interval(seconds):
            try document.setSyncInterval(Double(seconds))
            return "looking at the remote every \(seconds) s"
        case let .addRemote(name, url):
            // A document given a remote here is kept in sync from now on (turned off again with its own action).
            try document.addRemote(name, url: url)
            try document.setContinuousSync(true)
            return "added remote \(name.shownAsText); continuous sync on"
        case let .changeRemote(name, url):
            // The window shows URLs redacted; user information left as `***` stays what it was.
            let original = (try? document.remotes())?.first { $0.name == name }?.url ?? ""
            try document.changeRemote(name, url: RemoteURL.restoringRedaction(url, original: original))
            return "remote \(name.shownAsText) now at \(url.shownAsText)"
        case let .removeRemote(name):
            try document.removeRemote(name)
            return "removed remote \(name.shownAsText)"
        case .syncNow, .acceptContentType, .push, .pull:
            return try perform(action, progress: progress, isCancelled: isCancelled)
        }
    }

    func cancelRound() { loop.cancel() }

    func setForeground(_ longest: Int?) { loop.setForeground(longest.map { .seconds($0) }) }

    /// The interval in force for the document (its own, else the settings' as they are now), as the loop uses it.
    func syncInterval() -> Int? {
        if let interval = loop.documentInterval { return Int(exactly: (Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18).rounded()) }
        guard let document = try? store.open(at: loop.url) else { return nil }
        let seconds = ((try? document.syncInterval()) ?? nil) ?? store.settings.syncInterval ?? 30
        return Int(exactly: seconds.rounded())
    }
}

