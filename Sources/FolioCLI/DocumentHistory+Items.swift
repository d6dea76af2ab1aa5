import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioLaunch
import FolioPlugins

extension DocumentHistory {
    /// The versions that changed one item, for the history browser.
    func itemHistory(item: String, at: String?) async throws -> ItemHistoryPage { try session.itemHistoryPage(item: item, at: at) }
}

extension DocumentSessionAdapter {
    /// The versions that changed `item` (numbered as in version `at`), each entry's message the version's own followed
    /// by what changed in the item.
    func itemHistoryPage(item: String, at: String?) throws -> ItemHistoryPage {
        try locked {
            let history = try host.itemHistory(document: document, item: item, at: at, associations: associations, editor: editorManifest?.id)
            let tags = try document.tags()
            let entries = history.changes.map { change in
                FolioLaunch.HistoryEntry(id: change.commit, message: "\(change.message) — \(change.change)", author: change.author,
                                         date: Self.dateText(change.time), tags: tags.filter { $0.target.hex == change.commit }.map(\.name))
            }
            var keys: [String: String] = [:]
            for change in history.changes { keys[change.commit] = change.key }
            return ItemHistoryPage(summary: history.summary, entries: entries, keys: keys)
        }
    }
}
