import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioGit
import FolioLaunch
import FolioPlugins
import FolioSync
import Synchronization

/// An open document for the editor host: the plugin's view and commands, the status line's latest commit, the history
/// browser's pages and diffs, and every command as one commit.
///
/// `Document` is not thread-safe, and the run loop renders while commands run in tasks, so every use of it goes
/// through `lock`. The plugin's parsed document is kept per head, and the last rendered view per (head, size,
/// cursor, selection, scroll), so an idle frame costs no plugin call and a cursor move costs one render.
///
/// `@unchecked Sendable` is safe: the `var`s below and `document` are used only inside `locked` (a `Mutex<()>`
/// held around them), and `sharingAdapter` is set once in `init` before the session is shared. The state is not
/// inside the `Mutex` itself because the non-Sendable `Document` and the caches are used from 15 `locked` blocks
/// in 7 files that also call into it; moving them into a `Mutex<State>` is a later, larger change.
final class DocumentSessionAdapter: DocumentSession, @unchecked Sendable {
    let document: Document
    let host: EditorRegistry
    let associations: [String: String]
    /// The editor chosen for the document, nil when none fits (then the primary file is shown as text).
    let editorManifest: EditorManifest?
    /// Why there is no editor (immutable after init; thrown again when a command needs the editor).
    let editorError: (any Error)?
    /// Why there is no editor, shown in the view.
    var editorProblem: String? { editorError.map(FolioCommandLine.oneLine).map { problem in openingNotice.map { problem + "; " + $0 } ?? problem } }
    /// The first of the host's usage notices for this document's type (`EditorRegistry.usageNotices`).
    let openingNotice: String?

    let path: String
    let title: String
    let contentType: ContentType

    /// Versions the history browser's preview drew lately.
    let drawnVersions = DrawnVersions()

    /// Held around every use of `document` and the state below (`locked`).
    private let lock = Mutex(())
    private var openedHead: String?
    private var opened: (any EditorDocumentHandle)?
    private var openError: String?
    private var layoutHead: String?
    /// The newest version as last read, and the stamp of the files naming it then.
    private var knownHead: (stamp: HeadStamp, head: CommitInfo)?
    private var layout: ItemLayout?
    /// The last render: the head and request it was for, and what it showed.
    private var cachedKey: (head: String, request: RenderRequest)?
    private var cachedView: PluginView = []
    /// The head whose render or open the user cancelled (Esc), with the line to show instead: not retried until the
    /// head changes, so one Esc stops a view that spins.
    private var cancelled: (head: String, line: String)?
    /// The history browser's walk, kept between its pages, and the count of versions from where it began
    /// (`DocumentSessionAdapter+HistoryPages.swift`; used with the lock held).
    var historyWalk: (pages: HistoryPages, total: Int)?

    init(document: Document, host: EditorRegistry, associations: [String: String], editorOverride: String? = nil) {
        self.document = document
        self.host = host
        self.associations = associations
        path = document.url.path
        title = document.metadata.title
        contentType = document.metadata.contentType
        do {
            editorManifest = try host.chooseEditor(for: document, associations: associations, override: editorOverride)
            editorError = nil
        } catch {
            editorManifest = nil
            editorError = error
        }
        openingNotice = host.usageNotices(for: document.metadata.contentType, associations: associations, override: editorOverride)
            .map { "\($0)" + usageHint($0) }.first
    }

    /// Opens the document at `url` with the plugin host of `environment`; with `sharing`, its sync loop runs while
    /// the session lives (the editor host's window).
    convenience init(url: URL, environment: [String: String], sharing: Bool = false) throws {
        let store = try DocumentStore(environment: environment)
        let document = try store.open(at: url)
        let host = EditorRegistry(environment: environment, settings: store.settings)
        self.init(document: document, host: host, associations: store.settings.editorAssociations)
        guard sharing else { return }
        // The window's sharing: its sync loop starts now (the first look at the remote is immediate), and merges,
        // conflict lists and previews use this window's plugin host.
        sharingAdapter = SharingAdapter(document: document.url, store: store, environment: environment,
                                        editors: PluginSemanticMerger(host: host, associations: store.settings.editorAssociations))
    }

    /// The document's sharing, for a window opened with `sharing` (`init(url:environment:sharing:)`); set once,
    /// before the session is handed to the launcher.
    private(set) var sharingAdapter: SharingAdapter?
    var sharing: (any DocumentSharing)? { sharingAdapter }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }

    func latestCommit() -> (id: String, message: String) {
        locked {
            guard let head = currentHead() else { return ("", "") }
            return (head.id.hex, head.summary)
        }
    }

    /// The newest version, read again only when the files naming it changed (`HeadStamp`): the window polls its
    /// head several times a second, and an idle window should cost next to nothing. Called with the lock held.
    private func currentHead() -> CommitInfo? {
        let stamp = document.headStamp()
        if let known = knownHead, known.stamp == stamp { return known.head }
        let head = try? document.head()
        knownHead = head.map { (stamp, $0) }
        return head
    }

    var editor: any EditorViewProvider { SessionEditorView(session: self) }

    /// Stops the plugin call in progress, if any (kills its host process; callable from any thread). The editor
    /// comes back with a fresh host on the next call.
    func cancelPluginCall() { host.cancelCalls() }
    var history: any HistoryPageProvider { DocumentHistory(session: self) }

    // MARK: Commands

    func perform(_ effect: AppEffect) async throws { try performNow(effect) }

    var editorName: String? { editorManifest?.id }

    /// Runs the command on the calling thread (the editor host's worker). A cancel (Esc) reads as
    /// `editor 'tally': 'spin' cancelled; nothing was changed`.
    func performNow(_ effect: AppEffect) throws {
        do { try performLocked(effect) } catch let failure as PluginHostFailure where failure.cause == .cancelled {
            throw PluginCallCancelled(editor: failure.editor, command: failure.command)
        }
    }

    private func performLocked(_ effect: AppEffect) throws {
        defer { sharingAdapter?.loop.notifyCommitted() }  // a new version is pushed after the debounce
        try locked {
            switch effect {
            case let .runEditorCommand(id, arguments, base, selection):
                switch id {
                case "folio.undo": try document.undo()
                case "folio.redo": try document.redo()
                default:
                    guard let editorManifest else { throw editorError ?? PluginError.noEditor(contentType: "\(contentType)") }
                    let outcome = try host.edit(document, command: id, arguments: arguments, base: base, selection: selection ?? ViewSelection(),
                                                associations: associations, editor: editorManifest.id)
                    if outcome.commit == nil { throw FolioError.noChange(outcome.description) }
                }
            case let .restore(commitID):
                if try document.restore(commitID) == nil { throw FolioError.noChange("that version is the current one") }
            case let .tag(commitID, name):
                try document.tag(name, at: commitID)
            case let .restoreItem(item, commitID):
                let outcome = try host.restoreItem(document: document, item: item, from: commitID, associations: associations, editor: editorManifest?.id)
                if outcome.commit == nil { throw FolioError.noChange("item \(item) is already as it was in that version") }
            default:
                break
            }
        }
    }

    // MARK: View (called with the lock held)

    /// The plugin's parsed document at the current head, opened once per head.
    private func openedDocument() -> (head: String, document: (any EditorDocumentHandle)?) {
        let head = currentHead()?.id.hex ?? ""
        if head != openedHead {
            openedHead = head
            opened = nil
            openError = nil
            cachedKey = nil
            if let editorManifest {
                do {
                    opened = try host.backend(editorManifest.id).openDocument(try document.read(path: document.metadata.primaryFile))
                } catch {
                    openError = FolioCommandLine.oneLine(noteCancel(error, head: head))
                }
            }
        }
        return (head, opened)
    }

    /// The editor's view for `request` at the current head: its lines, or the failure that stopped them (a cancelled
    /// call, a crash, the editor's refusal; without an editor, the primary file as text under why).
    func render(_ request: RenderRequest) -> PluginView {
        locked {
            guard request.width > 0, request.height > 0 else { return [] }
            let (head, opened) = openedDocument()
            if let cachedKey, cachedKey.head == head, cachedKey.request == request { return cachedView }
            let view: PluginView
            if let cancelled, cancelled.head == head {
                view = .failed(cancelled.line)
            } else if let opened {
                do { view = .lines(try opened.view(request)) } catch {
                    view = .failed(FolioCommandLine.oneLine(noteCancel(error, head: head)))
                    // The plugin's host was replaced (or the document is gone from it): open it again next frame.
                    if error is PluginHostFailure { openedHead = nil }
                }
            } else {
                // No editor (or it refused the file): the primary file as text.
                let problem = openError ?? editorProblem ?? "no editor"
                let text = (try? document.read(path: document.metadata.primaryFile)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                view = .failed(problem, text: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            }
            cachedKey = (head, request)
            cachedView = view.prefix(request.height)
            return cachedView
        }
    }

    /// `error`, or the cancel it is (remembered for `head`) as `PluginCallCancelled`.
    private func noteCancel(_ error: any Error, head: String) -> any Error {
        guard let failure = error as? PluginHostFailure, failure.cause == .cancelled else { return error }
        let cancel = PluginCallCancelled(editor: failure.editor, command: failure.command)
        cancelled = (head, cancel.description)
        return cancel
    }

    func itemLayout() -> ItemLayout? {
        locked { () -> ItemLayout? in
            let (head, opened) = openedDocument()
            if head == layoutHead { return layout }
            layoutHead = head
            guard cancelled?.head != head else { layout = nil; return nil }
            do {
                let lines = try opened?.view(RenderRequest(width: 200, height: 10_000_000))
                layout = lines.flatMap { ViewLines.outlineLayout($0) }
            } catch {
                _ = noteCancel(error, head: head)
                layout = nil
            }
            return layout
        }
    }

    func commands() -> [EditorCommand] { editorManifest?.commands ?? [] }

    // MARK: History (called through DocumentHistory)

    /// `2026-12-01 07:00`, local time.
    static func dateText(_ date: Date) -> String { Timestamps.localMinute(date) }

    /// The semantic diff when the editor has one, else the text diff; from `a` (default: the parent) to `b`.
    func diff(from a: String?, to b: String) throws -> [String] {
        try locked {
            let semantic = try? host.semanticDiff(document: document, from: a, to: b, associations: associations, editor: editorManifest?.id)
            let text = try semantic ?? document.diff(from: a, to: b)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return lines.last == "" ? Array(lines.dropLast()) : lines
        }
    }
}

/// A plugin call the user stopped (Esc in the editor host); its host was killed and nothing was written.
struct PluginCallCancelled: Error, CustomStringConvertible {
    let editor: String
    let command: String
    var description: String { "editor '\(editor)': '\(command)' cancelled; nothing was changed" }
}

/// The plugin's view of a session's document.
struct SessionEditorView: EditorViewProvider {
    let session: DocumentSessionAdapter
    func render(_ request: RenderRequest) -> PluginView { session.render(request) }
    func commands() -> [EditorCommand] { session.commands() }
    func itemLayout() -> ItemLayout? { session.itemLayout() }
}

/// A session's history, a page at a time.
struct DocumentHistory: HistoryPageProvider {
    let session: DocumentSessionAdapter
    func page(after cursor: String?, limit: Int) async throws -> HistoryPage { try session.page(after: cursor, limit: limit) }
    func diff(of commitID: String) async throws -> [String] { try session.diff(from: nil, to: commitID) }
    func diff(between a: String, and b: String) async throws -> [String] { try session.diff(from: a, to: b) }
}
