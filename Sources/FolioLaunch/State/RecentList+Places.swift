import FoundationEssentials
import FolioBasics
import Glibc
import FolioTerminal

extension RecentList {
    /// How many recent documents the launcher loads: all the recent list keeps (it scrolls; the filter searches them all).
    package static let loadLimit = 500

    /// The recent list the launcher starts with: the scene's pinned paths first, then every recent document the
    /// provider keeps (not only the rows that fit: the list scrolls and the filter searches them all).
    package static func loaded(scene: LaunchScene, from provider: any RecentDocumentsProvider) -> [RecentDocument] {
        merge(pinned: scene.recent.pinned, recent: provider.recentDocuments(limit: loadLimit), count: loadLimit)
    }

    /// Where each document is, for the documents whose title another one shares (others are absent): the folder
    /// holding it, `~/`-relative under `home`, e.g. `~/work/notes` for `/home/ada/work/notes/Notes`.
    package static func places(of documents: [RecentDocument], home: String?) -> [String: String] {
        var byTitle: [String: [RecentDocument]] = [:]
        for document in documents { byTitle[document.title, default: []].append(document) }
        var places: [String: String] = [:]
        for (_, same) in byTitle where Set(same.map(\.path)).count > 1 {
            for document in same { places[document.path] = shortened(folder(of: document.path), home: home) }
        }
        return places
    }

    /// The folder holding `path` (the path itself when it has no parent).
    static func folder(of path: String) -> String {
        let parent = PathText.parent(path)
        return parent.isEmpty ? path : parent
    }

    /// `path` with `home` written `~`.
    package static func shortened(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, home != "/" else { return path }
        let base = home.hasSuffix("/") ? String(home.dropLast()) : home
        if path == base { return "~" }
        if path.hasPrefix(base + "/") { return "~" + path.dropFirst(base.count) }
        return path
    }

    /// `text` cut to `width` cells from its start ("…/work/notes"): the end of a path says the most.
    static func truncatingStart(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.width(of: text) > width else { return text }
        var kept: [String] = []
        var used = 1
        for part in DisplayWidth.clusters(text).reversed() {
            if used + part.width > width { break }
            kept.append(part.grapheme)
            used += part.width
        }
        return "…" + kept.reversed().joined()
    }
}
