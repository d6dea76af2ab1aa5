import FoundationEssentials
import Glibc
import FolioCore
import FolioLaunch

/// The documents open in one interactive run (its tabs), each with its session kept while it is open — so every
/// open document keeps its plugin host warm and its sync loop running while another is shown.
struct OpenTabs {
    private(set) var sessions: [DocumentSessionAdapter] = []
    /// The one shown; nil while the launcher is.
    var current: Int?
    /// The one shown before the launcher was opened over the tabs (`^T n`): Esc there shows it again.
    var previous: Int?
    /// How many of a window's saved tabs are opened again when it starts.
    static let restoredAtMost = 32

    /// Shows the document at `url`: its tab when it is open already, else a new tab (opening it; throws why not).
    @discardableResult
    mutating func open(_ url: URL, environment: [String: String]) throws -> DocumentSessionAdapter {
        let path = url.standardizedFileURL.path
        if let index = sessions.firstIndex(where: { $0.document.url.standardizedFileURL.path == path }) {
            current = index
            return sessions[index]
        }
        let session = try DocumentSessionAdapter(url: url, environment: environment, sharing: true)
        sessions.append(session)
        current = sessions.count - 1
        return session
    }

    /// Closes tab `index` (its sync loop stops); the one after it is shown, else the one before, else none.
    mutating func close(_ index: Int) {
        guard sessions.indices.contains(index) else { return }
        sessions.remove(at: index)
        if let shown = previous { previous = shown == index ? nil : shown > index ? shown - 1 : shown }
        current = sessions.isEmpty ? nil : min(index, sessions.count - 1)
    }

    /// Shows tab `index` (nothing when there is none).
    mutating func show(_ index: Int) {
        if sessions.indices.contains(index) { current = index }
    }

    /// Shows the launcher over the open documents, remembering the one shown for Esc.
    mutating func showLauncher() {
        previous = current
        current = nil
    }

    /// The tab the launcher's Esc returns to: the one shown before it, while the launcher is shown.
    var returnTab: Int? { current == nil ? previous.flatMap { sessions.indices.contains($0) ? $0 : nil } : nil }

    /// The document shown, if any.
    var shown: DocumentSessionAdapter? { current.map { sessions[$0] } }

    /// Title and path of each tab, in order, for the launcher.
    var described: [(title: String, path: String)] { sessions.map { ($0.title, $0.path) } }
}
