import FoundationEssentials
import Glibc
import FolioCore
import FolioLaunch
import FolioPlugins
import FolioSync

/// The conflict screen's side of `DocumentSharing`: kept conflicts as items (and files chosen whole), the document
/// as a set of choices would make it, drawn by its editor, and the settlement as one merge commit.
extension SharingAdapter {
    func conflicts() throws -> [SharingConflict] {
        let document = try store.open(at: loop.url)
        return try document.keptConflicts().map { kept in
            let details = try conflictDetails(kept.ref, in: document)
            return SharingConflict(ref: details.ref, summary: details.summary, items: details.items + details.files.map(Self.wholeFile))
        }
    }

    func preview(ref: String, choices: [String: ItemChoice], width: Int) throws -> [String] {
        let document = try store.open(at: loop.url)
        let details = try conflictDetails(ref, in: document)
        // Items not chosen yet are drawn as they are here.
        var complete = Dictionary(uniqueKeysWithValues: details.keys.map { ($0, ItemChoice.mine) })
        for (key, choice) in expanded(choices, files: details.files) where complete[key] != nil { complete[key] = choice }
        let bytes = try document.settledBytes(ref, choices: complete, editors: editors)
        if let editor = try editors?.itemEditor(for: document.metadata.contentType) {
            return try editor.openDocument(bytes).view(RenderRequest(width: max(1, width), height: 10_000))
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A kept conflict's items and files, read again only when the document moved on since they were read.
    private func conflictDetails(_ ref: String, in document: Document) throws -> ConflictDetails {
        let head = try document.head().id.hex
        if let known = readConflicts.withLock({ $0.head == head ? $0.byRef[ref] : nil }) { return known }
        let details = try document.conflictDetails(ref, editors: editors)
        readConflicts.withLock { read in
            if read.head != head { read = (head, [:]) }
            read.byRef[ref] = details
        }
        return details
    }

    func settle(ref: String, choices: [String: ItemChoice]) throws -> String {
        let document = try store.open(at: loop.url)
        let files = choices[SharingConflict.wholeFile] == nil ? [] : try conflictDetails(ref, in: document).files
        let commit = try document.settleConflict(ref, choices: expanded(choices, files: files), editors: editors)
        loop.syncNow()  // the merge is pushed at once
        guard let commit else { return "already merged: nothing to settle" }
        return "[\(commit.id.short)] \(commit.summary)"
    }

    /// The conflict screen's one whole-file choice (`SharingConflict.wholeFile`) applied to every file chosen whole.
    private func expanded(_ choices: [String: ItemChoice], files: [String]) -> [String: ItemChoice] {
        guard let whole = choices[SharingConflict.wholeFile] else { return choices }
        var result = choices.filter { $0.key != SharingConflict.wholeFile }
        for file in files where result[file] == nil { result[file] = whole }
        return result
    }

    /// A file settled whole, shown as one more item keyed by its path (mine or theirs).
    private static func wholeFile(_ path: String) -> ItemConflict {
        ItemConflict(key: path, base: nil, mine: "your \(path)", theirs: "their \(path)",
                     mineChange: "changed \(path) (chosen whole)", theirsChange: "changed \(path) (chosen whole)")
    }
}
