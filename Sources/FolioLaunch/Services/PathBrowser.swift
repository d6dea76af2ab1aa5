import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore

/// One folder's entries as the Open… form sees them.
package struct FolderListing: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        /// A Folio document (a folder with `.git` and `.folio/document.json`).
        case document
        case folder
        case file
    }
    package struct Entry: Equatable, Sendable {
        package var name: String
        package var kind: Kind
        package init(name: String, kind: Kind) { self.name = name; self.kind = kind }
    }
    /// What the path itself is (nil: nothing there, or it cannot be read).
    package var kind: Kind?
    /// The entries when it is a folder (not a document), sorted by name.
    package var entries: [Entry]
    package init(kind: Kind?, entries: [Entry] = []) { self.kind = kind; self.entries = entries }
}

/// Reads folders for the Open… form (completion and the documents inside a folder).
package protocol FolderBrowsing: Sendable {
    /// What `path` is, as the user typed it (`~/` is the home folder, a relative path is from the working folder), and
    /// its entries when it is a folder that is not a document.
    func listing(of path: String) -> FolderListing
}

/// The local file system, from `workingDirectory`, `~` being `home`; at most `limit` entries a folder.
package struct LocalFolders: FolderBrowsing {
    package var home: String?
    package var workingDirectory: String
    package var limit = 2000
    package init(home: String? = ProcessInfo.processInfo.environment["HOME"],
                workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.home = home; self.workingDirectory = workingDirectory
    }

    package func listing(of path: String) -> FolderListing {
        let resolved = resolve(path)
        guard let kind = Self.kind(of: resolved) else { return FolderListing(kind: nil) }
        guard kind == .folder else { return FolderListing(kind: kind) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: resolved)) ?? []).sorted().prefix(limit)
        let base = resolved.hasSuffix("/") ? resolved : resolved + "/"
        return FolderListing(kind: .folder, entries: names.compactMap { name in Self.kind(of: base + name).map { .init(name: name, kind: $0) } })
    }

    /// `path` as a file system path.
    func resolve(_ path: String) -> String {
        if path == "~" || path.hasPrefix("~/"), let home { return home + path.dropFirst() }
        if path.hasPrefix("/") { return path }
        return path.isEmpty ? workingDirectory : workingDirectory + "/" + path
    }

    /// A document, a folder or a file (links followed), nil when nothing is there.
    static func kind(of path: String) -> FolderListing.Kind? {
        var isFolder: Bool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard isFolder else { return .file }
        let base = path.hasSuffix("/") ? path : path + "/"
        var info = stat()
        let document = lstat(base + ".git", &info) == 0 && lstat(base + DocumentMetadata.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        return document ? .document : .folder
    }
}

/// What the Open… form shows under its path: the names Tab completes to, or the documents inside a folder.
package struct PathBrowser: Equatable, Sendable {
    /// The request the list answers: `.complete`, Tab found several names (Tab again cycles through them); `.open`,
    /// ⏎ on a folder that is not a document (its documents, to choose with ↑↓ and ⏎).
    package var intent: BrowseRequest.Intent
    /// The folder part of the path (as typed, ending in "/", or empty), the names are in it.
    package var folder: String
    package var entries: [FolderListing.Entry]
    /// The entry chosen (by Tab or ↑↓), nil before.
    package var selection: Int?
    /// A one-line note ("no match for …").
    package var note: String?
    /// The path as it was when the list was made: Tab cycles while the field holds it or a name of the list.
    package var typed: String
    package init(intent: BrowseRequest.Intent, folder: String, entries: [FolderListing.Entry], selection: Int? = nil, note: String? = nil, typed: String = "") {
        self.intent = intent; self.folder = folder; self.entries = entries; self.selection = selection; self.note = note; self.typed = typed
    }

    /// The path of entry `index`: the folder part and its name, "/" after a folder to go on typing.
    package func path(_ index: Int) -> String {
        guard entries.indices.contains(index) else { return folder }
        return folder + entries[index].name + (entries[index].kind == .folder ? "/" : "")
    }
}

/// The request the Open… form makes of the runtime, which answers with the path's listing (`AppState.browsed`).
package struct BrowseRequest: Equatable, Sendable {
    package enum Intent: Equatable, Sendable {
        /// Tab: complete the path's last part.
        case complete
        /// ⏎: open the document, or list the documents in the folder.
        case open
    }
    /// The path typed.
    package var text: String
    package var intent: Intent
    /// The path to list: the folder part for a completion, the whole path to open.
    package var listed: String {
        guard intent == .complete else { return text }
        guard let slash = text.lastIndex(of: "/") else { return "" }
        return String(text[...slash])
    }
    package init(text: String, intent: Intent) { self.text = text; self.intent = intent }
}
