import FolioCore
import FolioPlugins
import FoundationEssentials
import Glibc

/// `folio view PATH [--at REV]`: a version (default: the newest) as its editor draws it; a document no editor opens
/// (a project, an unknown type) or whose editor is quarantined is shown as its primary file's text, with why on stderr.
enum ViewCommand {
    static func run(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
        let start = EditorCommandStart(io)
        let store = try start.store()
        // Reading only: works on a read-only document, never finishes or starts a change.
        let document = try documentArgument(args, io, readOnly: true, store: store)
        let settings = store.settings
        let width = try args.int("--width") ?? 80, height = try args.int("--height") ?? 24
        guard (1...2000).contains(width), (1...2000).contains(height) else { throw UsageError("--width and --height must be between 1 and 2000") }
        // Resolved once, first: an unknown revision is one line naming it, whatever the editor; the id is what is read.
        let rev = try args.value("--at").map { "\(try document.resolve($0))" }
        let lines: [String]
        let host = start.host(io, settings: settings)
        reportUsageNotices(host, type: document.metadata.contentType, settings: settings, editor: args.value("--editor"), command: "view", io)
        do {
            let request = RenderRequest(width: width, height: height, selection: ViewSelection(cursor: try args.int("--cursor") ?? 0))
            lines = try host.view(of: document, at: rev, request, associations: settings.editorAssociations, editor: args.value("--editor"))
        } catch let error as PluginQuarantinedError {
            io.error("folio view: \(String(describing: error).shownAsText) (showing the file as text; enable with: folio plugins enable \(error.record.plugin.shownAsText))")
            lines = try textView(document, at: rev, width: width, height: height)
        } catch PluginError.noEditor(let type) where args.value("--editor") == nil {
            io.error("folio view: no editor for content type \(type.shownAsText) (showing \(document.metadata.primaryFile.shownAsText) as text)")
            lines = try textView(document, at: rev, width: width, height: height)
        }
        if args.flag("--json") { try io.json(lines); return 0 }
        for line in lines { io.line(line) }
        return 0
    }

    /// The primary file of version `rev` as text: at most `height` lines, each cut to `width` cells, control
    /// characters shown as escapes (the same clipping as an editor's view lines).
    static func textView(_ document: Document, at rev: String?, width: Int, height: Int) throws -> [String] {
        let text = String(decoding: try document.read(path: document.metadata.primaryFile, at: rev), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.prefix(height).map { PluginText.viewLine($0, width: width) }
    }
}
