import FoundationEssentials
import Glibc
import FolioCore
import FolioLaunch
import FolioPlugins

extension DocumentHistory {
    /// The semantic diff when the document's editor has one, else the text diff with why (as `folio diff --semantic`).
    func describedDiff(from a: String?, to b: String) async throws -> HistoryDiff { try session.describedDiff(from: a, to: b) }
}

extension DocumentSessionAdapter {
    /// The change from `a` (default: the parent) to `b`, described by the editor when it can, else by git.
    func describedDiff(from a: String?, to b: String) throws -> HistoryDiff {
        try locked {
            let note: String
            do {
                if let semantic = try host.semanticDiff(document: document, from: a, to: b, associations: associations, editor: editorManifest?.id) {
                    return HistoryDiff(lines: Self.lines(semantic), kind: .semantic)
                }
                note = "\(editorManifest?.id ?? "the editor") has no semantic diff"
            } catch let error as FolioError {
                throw error  // an unknown version or an unreadable repository: the text diff would fail the same way
            } catch {
                note = FolioCommandLine.oneLine(error)  // no editor, quarantined, crashed, refused the bytes
            }
            return HistoryDiff(lines: Self.lines(try document.diff(from: a, to: b)), kind: .text(note: note))
        }
    }

    static func lines(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.last == "" ? Array(lines.dropLast()) : lines
    }
}
