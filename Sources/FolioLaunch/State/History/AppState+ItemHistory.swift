import FoundationEssentials
import Glibc

/// The versions that changed one item, as the history browser lists them: each version's entry (its message followed
/// by what changed in the item) and the item's number in that version.
package struct ItemHistoryPage: Equatable, Sendable {
    /// The item's summary in the version it was asked in.
    package var summary: String
    package var entries: [HistoryEntry]
    /// The item's number in each listed version, by commit id (what `i` brings back from that version).
    package var keys: [String: String]
    package init(summary: String, entries: [HistoryEntry], keys: [String: String]) {
        self.summary = summary
        self.entries = entries
        self.keys = keys
    }
}

/// The item a history browser is about: its number where it was asked, and its number in each version listed.
package struct ItemHistoryFocus: Equatable, Sendable {
    package var key: String
    package var summary: String = ""
    package var keys: [String: String] = [:]
    package init(key: String) { self.key = key }
}

extension HistoryPageProvider {
    package func itemHistory(item: String, at: String?) async throws -> ItemHistoryPage {
        throw ItemHistoryUnavailable()
    }
}

/// A history provider without item histories.
struct ItemHistoryUnavailable: Error, CustomStringConvertible {
    var description: String { "this document has no history of single items" }
}

extension AppState {
    /// `H` in the editor: the history browser over the versions that changed the item under the cursor (numbered as
    /// its row shows it: "3", or "1.2" in an outline), in the version the window shows.
    mutating func openItemHistory(editor: inout EditorState, effects: inout [AppEffect]) {
        guard let items = editor.items, items.count > 0, editor.cursor < items.count else {
            editor.message = .failure("History of this item needs an item under the cursor")
            return
        }
        let path = items.paths.indices.contains(editor.cursor) ? items.paths[editor.cursor] : []
        let key = path.isEmpty ? String(editor.cursor + 1) : path.map(String.init).joined(separator: ".")
        var history = HistoryState()
        history.item = ItemHistoryFocus(key: key)
        screen = .history(history, editor)
        effects += [.openHistory, .openItemHistory(item: key, at: editor.commitID.isEmpty ? nil : editor.commitID)]
    }

    /// `i` in an item's history: that item back as it was in the selected version.
    func restoreItemKey(history: inout HistoryState, effects: inout [AppEffect]) {
        guard let item = history.item else { history.error = "i brings back one item: open an item's history with H in the editor"; return }
        guard let id = history.selectedID, let key = item.keys[id] else { return }
        effects.append(.restoreItem(item: key, commitID: id))
    }

    /// After an item was brought back: the editor again, showing the result.
    package mutating func itemRestored(_ item: String, from commitID: String) {
        guard case .history(_, var editor) = screen else { return }
        editor.message = .success("Brought back item \(item) as it was in \(commitID.prefix(7))")
        screen = .editor(editor)
    }
}

extension HistoryState {
    /// Takes the versions that changed the item asked for (an answer for another item is dropped).
    package mutating func receive(_ page: ItemHistoryPage, item: String) -> AppEffect? {
        guard var focus = self.item, focus.key == item else { return nil }
        focus.summary = page.summary
        focus.keys = page.keys
        self.item = focus
        return receive(HistoryPage(entries: page.entries, next: nil))
    }
}

extension LaunchApp {
    /// Loads an item's history off the UI thread.
    static func loadItemHistory(_ item: String, at: String?, history: any HistoryPageProvider, mailbox: Mailbox) {
        Task {
            do { mailbox.post(.itemHistory(item, try await history.itemHistory(item: item, at: at))) }
            catch { mailbox.post(.failure(oneLine(error))) }
        }
    }
}
