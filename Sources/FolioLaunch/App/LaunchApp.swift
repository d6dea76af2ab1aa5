import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal
import Synchronization

/// An open document as the editor host and history browser need it.
package protocol DocumentSession: Sendable {
    var path: String { get }
    var title: String { get }
    var contentType: ContentType { get }
    /// The latest commit: id and message (empty strings before the first commit).
    func latestCommit() -> (id: String, message: String)
    var editor: any EditorViewProvider { get }
    var history: any HistoryPageProvider { get }
    /// Performs `.runEditorCommand`, `.restore` or `.tag` as one commit (a tag makes none); throws with a one-line reason.
    /// The editor host calls it off the UI thread.
    func perform(_ effect: AppEffect) async throws
    /// `perform` on the calling thread (the editor host's worker thread); defaults to waiting for `perform`.
    func performNow(_ effect: AppEffect) throws
    /// The id of the document's editor ("tally"), nil when none fits.
    var editorName: String? { get }
    /// One line to show in the status when the document opens (a linked build used, a duplicate plugin refused, the
    /// plugin that edits its type disabled); nil when there is nothing to say.
    var openingNotice: String? { get }
    /// Stops the plugin call in progress, if any (from any thread): `perform` or the render then ends with an error.
    func cancelPluginCall()
    /// The document's sharing (sync state, sync actions, conflicts), nil when the session offers none.
    var sharing: (any DocumentSharing)? { get }
    /// Where the item at `position` ([3], [1, 2]) of version `old` is in version `new`, as the editor matches items
    /// (nil when it is gone, or the editor cannot tell). Called off the UI thread.
    func followItem(at position: [Int], from old: String, to new: String) -> [Int]?
    /// Where the cursor goes after this window's command made `new` from `old`: on the one item the command added,
    /// else on the item that was at `position` (moved, renamed: the same item); nil when it is gone (a delete: the
    /// row stays, so the next item comes up) or the editor cannot tell. Called off the UI thread.
    func itemAfterCommand(at position: [Int]?, from old: String, to new: String) -> [Int]?
    /// The current values of `command`'s arguments for `selection` in version `base` (the head when nil), as the
    /// editor gives them for its form to start from; `.none` by default. Called off the UI thread.
    func argumentValues(command: String, base: String?, selection: ViewSelection?) -> ArgumentValuesAnswer
    /// Who made version `new` and what changed since `old` (the editor's semantic diff, its item marks), for a
    /// version that arrived from elsewhere on a window showing `old`; nil by default (nothing is said). Called off
    /// the UI thread.
    func arrival(from old: String, to new: String) -> DocumentArrival?
}

extension DocumentSession {
    package var editorName: String? { nil }
    package func argumentValues(command: String, base: String?, selection: ViewSelection?) -> ArgumentValuesAnswer { .none }
    package var openingNotice: String? { nil }
    package func arrival(from old: String, to new: String) -> DocumentArrival? { nil }
    package func cancelPluginCall() {}
    package var sharing: (any DocumentSharing)? { nil }
    package func followItem(at position: [Int], from old: String, to new: String) -> [Int]? { nil }
    package func itemAfterCommand(at position: [Int]?, from old: String, to new: String) -> [Int]? {
        position.flatMap { followItem(at: $0, from: old, to: new) }
    }
}

/// What the launcher needs from the rest of Folio.
package struct LaunchServices: Sendable {
    package var recent: any RecentDocumentsProvider
    package var templates: any TemplateCatalog
    /// The document to show in the editor host (restored scene or just opened), if any.
    package var document: (any DocumentSession)?
    package var settings: Settings
    package var settingsPath: String
    /// A one-line message to show when the launcher opens (a command's output, an error).
    package var message: StatusLine?
    /// Saves edited settings (the integration layer writes `settings.json`); throws with a one-line reason.
    package var saveSettings: @Sendable (Settings) throws -> Void
    /// Runs a command button's `folio` command (off the event loop, on a thread of its own) and returns its one-line
    /// summary; it reports progress to and polls the cancel of the `BackgroundCommand` it is given. Nil: the launcher
    /// returns the command as its outcome instead, for the caller to run.
    package var runCommand: (@Sendable (BackgroundCommand) -> StatusLine)?
    /// A form to show again on start, with `message` (why its action failed) on its field and every value kept.
    package var form: FormState?
    /// The open document's files for the generic view (used when no editor opens it).
    package var generic: (any GenericDocumentAccess)?
    /// The ids of the installed editors, for checking an editor association in settings (empty: not checked).
    package var editorIDs: [String] = []
    /// The folders the Open… form completes paths in and lists documents from.
    package var folders: any FolderBrowsing = LocalFolders()
    /// The messages of the screens shown before in this run (the log carries on across them).
    package var messageLog = MessageLog()
    /// The documents open in this run (tabs: title and path) and which one `document` is (nil: none is shown).
    package var tabs: [(title: String, path: String)] = []
    package var currentTab: Int?
    /// The tab the launcher returns to with Esc when it was opened from it (`^T n`), nil otherwise.
    package var returnTab: Int?
    package init(recent: any RecentDocumentsProvider, templates: any TemplateCatalog, document: (any DocumentSession)? = nil,
                settings: Settings = Settings(), settingsPath: String = "", message: StatusLine? = nil,
                saveSettings: @escaping @Sendable (Settings) throws -> Void = { _ in }) {
        self.recent = recent; self.templates = templates; self.document = document; self.settings = settings; self.settingsPath = settingsPath
        self.message = message; self.saveSettings = saveSettings
    }
}

/// Why the launcher returned: the effect the caller performs (create, instantiate, open, run a command) or quit.
package struct LaunchOutcome: Equatable, Sendable {
    package var effect: AppEffect
    /// The form that asked for the effect, if any: the runtime shows it again (values kept) when the effect fails.
    package var form: FormState? = nil
    /// The message log as it was when the launcher returned, for the next screen to carry on.
    package var messageLog = MessageLog()
}

/// The interactive launcher.
package enum LaunchApp {
    /// Runs the launcher full-screen until the user picks something that leaves it (returned as the outcome) or quits.
    /// The scene's window state is saved under `sceneID`. With `terminal` (the program's one session) the terminal
    /// stays as it is when this returns, and keys read but not acted on go back to it for the next screen; without,
    /// a session of its own is opened and the terminal restored on every exit path.
    package static func run(scene: LaunchScene, services: LaunchServices, sceneID: String, store: SceneStore,
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           terminal: TerminalSession? = nil) async throws -> LaunchOutcome {
        let capability = ColorCapability.detect(environment: environment)
        let mailbox = Mailbox()
        var state = AppState(recent: RecentList.loaded(scene: scene, from: services.recent),
                             templates: services.templates.sourceNames().map { TemplateSourceStatus(name: $0, state: .loading) })
        state.settings = services.settings
        state.knownEditors = services.editorIDs
        state.home = environment["HOME"]
        state.tabs = TabBar(titles: services.tabs.map(\.title), current: services.currentTab, returnTo: services.returnTab)
        state.takingMessages(from: services, at: Date())
        state.currentFolder = FileManager.default.currentDirectoryPath
        state.recent = RecentList.withBadges(state.recent, from: services.recent)
        if let form = services.form, let failure = services.message { state.returningToForm(form, failure: failure.text) }
        var startEffects: [AppEffect] = []
        // Where each open document's cursor was, kept in the scene with the tabs.
        var windows = Dictionary(((try? store.load(sceneID)) ?? nil)?.tabs.map { $0.map { ($0.path, $0) } } ?? [], uniquingKeysWith: { first, _ in first })
        if let document = services.document {
            let saved = (try? store.load(sceneID)) ?? nil
            state.screen = initialScreen(document: document, saved: saved)
            if case .history = state.screen { startEffects.append(.loadHistoryPage(after: nil)) }
            GenericViewRuntime.opening(&state, services: services)
        }
        let loaders = SourceLoaders()
        for name in services.templates.sourceNames() { loaders.start(name, catalog: services.templates, mailbox: mailbox) }
        defer { loaders.cancelAll() }
        // The command button's command running in the background, if any: keys other than Esc wait for it.
        var background: BackgroundCommand?

        let calls = services.document.map { EditorCalls(document: $0, mailbox: mailbox) }
        let sharing = SharingRuntime(sharing: services.document?.sharing, mailbox: mailbox)
        defer { sharing.stop() }
        let loop: (TerminalSession) async throws -> LaunchOutcome = { terminal in
            var buffer = FrameBuffer(capability: capability, synchronized: environment["TERM"] != "dumb")
            var size = terminal.size
            var lastTick = Date()
            var lastPoll = Date()
            var lastGenericPoll = Date()
            var lastBadges = Date()
            var lastUsed = Date()
            var gate = FrameGate()
            var pending = startEffects
            while true {
                // Effects that stay inside the launcher (loading history, running editor commands, saving settings).
                for effect in HistoryState.latestDiffOnly(HistoryState.latestPreviewOnly(pending)) { carryOut(effect, state: state, services: services, mailbox: mailbox, calls: calls) }
                pending = []
                // Plugin calls run on the worker: observe the call, then take its results (a finished call posts its
                // result before the worker goes idle, so both are seen together).
                var replay: [Key] = []
                if let calls { state.observeCall(calls.worker.running); calls.keepCancelling(state) }
                let beforeMessages = state
                state.now = Date()
                for message in mailbox.drain() { receive(message, state: &state, pending: &pending, replay: &replay) }
                state.noteMessages(since: beforeMessages)
                showProgress(of: loaders, background: &background, state: &state, services: services, mailbox: mailbox)
                state.sizeHistory(width: size.width, height: size.height)
                if let effect = state.followHistoryPreview() { pending.append(effect) }
                if case var .editor(editor) = state.screen {
                    editor.viewRows = max(1, size.height - 3 - (editor.items?.headerLines ?? 0))
                    editor.columns = size.width
                    state.screen = .editor(editor)
                }
                GenericViewRuntime.update(&state, services: services, height: size.height, lastPoll: &lastGenericPoll)
                updateSharing(&state, runtime: sharing, services: services, width: size.width, height: size.height, lastBadges: &lastBadges, lastUsed: lastUsed)
                // The frame shows the latest finished render and, after 200 ms, a spinner; an idle window draws only
                // when something it shows may have changed (FrameGate).
                let drew = gate.needsFrame(state, width: size.width, height: size.height, renderGeneration: calls?.cache.generation,
                                           animating: isAnimating(state, calls: calls, background: background), now: Date())
                if drew {
                    var grid = frame(state, scene: scene, services: services, view: calls?.view(for: state), width: size.width, height: size.height)
                    drawSpinner(state, into: &grid)
                    terminal.write(buffer.update(to: grid))
                }
                let events = replay.map(TerminalEvent.key)
                    + terminal.nextEvents(timeoutMilliseconds: calls?.isBusy == true || calls?.cache.isCurrent == false || state.historyIsLoading ? 20
                                                                : drew ? 80 : FrameGate.idleWaitMilliseconds)
                if Date().timeIntervalSince(lastTick) > 0.08 { state.tick += 1; lastTick = Date() }
                // Another window (or process) may have changed the document: poll its head (on the worker) and re-render on change.
                if let calls, Date().timeIntervalSince(lastPoll) > 0.3 {
                    lastPoll = Date()
                    if let editor = state.currentEditor {
                        calls.poll(label: EditorCalls.renderLabel(editor), window: editor, describing: state.shownEditor != nil)
                    }
                }
                for (index, event) in events.enumerated() {
                    switch event {
                    case let .resize(width, height): size = (width, height); buffer.invalidate(); gate = FrameGate()
                    case .redraw: buffer.invalidate(); gate = FrameGate()
                    case let .key(key):
                        lastUsed = Date()
                        if let running = background {
                            // Esc, ^C or ^Q stops the command; other keys wait for it to end.
                            if key == .escape || key == .ctrl("c") || key == .ctrl("q") { running.cancel() }
                            continue
                        }
                        state.message = nil
                        state.columns = size.width; state.rows = size.height; state.now = Date()
                        let (next, effects) = state.handling(key, scene: scene)
                        let submitted = AppState.submittedForm(state.screen)
                        // A command's form that opened asks the editor for the item's current values (off this thread).
                        if let ask = AppState.argumentValuesRequest(from: state.currentEditor?.prompt, to: next.currentEditor?.prompt) { pending.append(ask) }
                        state = next
                        for effect in effects {
                            switch effect {
                            case .cancelPluginCall:
                                services.document?.cancelPluginCall()
                            case let .generic(request):
                                if GenericViewRuntime.carryOut(request, state: &state, services: services, terminal: terminal, environment: environment) { buffer.invalidate(); gate = FrameGate() }
                            case let .editArgumentText(text):
                                CommandFormEditing.carryOut(text, state: &state, terminal: terminal, environment: environment)
                                buffer.invalidate(); gate = FrameGate()
                            case let .runCommand(arguments) where services.runCommand != nil:
                                if background == nil, let runner = services.runCommand {
                                    let command = BackgroundCommand(arguments: arguments)
                                    command.start(runner)
                                    background = command
                                }
                            case .stopLoadingTemplates:
                                loaders.cancelAll()
                            case let .sharing(request):
                                sharing.carryOut(request)
                            case let .browse(request):
                                // The Open… form's Tab: a local folder read at once.
                                _ = state.browsed(request, listing: services.folders.listing(of: request.listed))
                            case let .open(path) where AppState.isOpenForm(submitted):
                                // The Open… form's ⏎: a folder of documents lists them; anything else is opened.
                                let request = BrowseRequest(text: path, intent: .open)
                                if let open = state.browsed(request, listing: services.folders.listing(of: path), in: submitted) {
                                    try? store.save(sceneState(state, tabs: services.tabs.map(\.path), windows: &windows), id: sceneID)
                                    calls?.stop()
                                    return LaunchOutcome(effect: open, form: submitted)
                                }
                            case .createBlank, .instantiate, .open, .runCommand, .quit, .switchTab, .closeTab, .newTab:
                                try? store.save(sceneState(state, tabs: services.tabs.map(\.path), windows: &windows), id: sceneID)
                                calls?.stop()
                                terminal.unread(Array(events[(index + 1)...]))
                                return LaunchOutcome(effect: effect, form: submitted, messageLog: state.messageLog)
                            default: pending.append(effect)
                            }
                        }
                        // A source removed in Settings stops loading.
                        loaders.keepOnly(Set(state.templates.map(\.name)))
                        try? store.save(sceneState(state, tabs: services.tabs.map(\.path), windows: &windows), id: sceneID)
                    }
                }
            }
        }
        if let terminal { return try await loop(terminal) }
        return try await TerminalSession.run(loop)
    }

    /// Puts the background work's progress into the frame: each loading source's progress line, and the running
    /// command's status line (its summary once it has ended; template sources then load again, as it may have
    /// updated them).
    static func showProgress(of loaders: SourceLoaders, background: inout BackgroundCommand?, state: inout AppState,
                             services: LaunchServices, mailbox: Mailbox) {
        for index in state.templates.indices where state.templates[index].state == .loading {
            state.templates[index].progress = loaders.progress(state.templates[index].name)
        }
        guard let running = background else { return }
        guard let summary = running.result else { state.message = running.statusLine(tick: state.tick); return }
        state.message = summary
        state.messageLog.append(summary, at: Date())
        background = nil
        guard running.arguments.first == "templates" else { return }
        for index in state.templates.indices {
            state.templates[index].state = .loading
            state.templates[index].progress = nil
            loaders.start(state.templates[index].name, catalog: services.templates, mailbox: mailbox)
        }
    }

    /// Starts an effect that stays inside the launcher: a history page or diff (a task), an editor command (the
    /// worker), saving settings.
    static func carryOut(_ effect: AppEffect, state: AppState, services: LaunchServices, mailbox: Mailbox, calls: EditorCalls?) {
        switch effect {
        case let .loadHistoryPage(cursor, limit):
            if let document = services.document {
                Task { do { mailbox.post(.history(try await document.history.page(after: cursor, limit: limit))) } catch { mailbox.post(.failure(Self.oneLine(error))) } }
            }
        case let .loadDiff(id):
            if let document = services.document { loadDiff(.commit(id), from: nil, to: id, history: document.history, mailbox: mailbox) }
        case let .compare(a, b):
            if let document = services.document { loadDiff(.compare(a, b), from: a, to: b, history: document.history, mailbox: mailbox) }
        case let .loadPreview(subject):
            if let document = services.document { loadPreview(subject, document: document, mailbox: mailbox) }
        case let .openItemHistory(item, at):
            if let document = services.document { loadItemHistory(item, at: at, history: document.history, mailbox: mailbox) }
        case .runEditorCommand, .restore, .tag, .restoreItem:
            calls?.start(effect, label: state.callLabel(effect), renderLabel: state.currentEditor.map(EditorCalls.renderLabel) ?? "render",
                         window: state.currentEditor)
        case let .loadArgumentValues(command, base, selection):
            calls?.argumentValues(command: command, base: base, selection: selection,
                                  label: state.currentEditor.map { "\($0.editorName ?? "editor"): values" } ?? "values")
        case let .saveSettings(settings):
            do { try services.saveSettings(settings) } catch { mailbox.post(.failure(Self.oneLine(error))) }
        case let .checkTemplateSource(check):
            checkSource(check, catalog: services.templates, mailbox: mailbox)
        case let .pinRecent(path, pinned):
            do { try services.recent.setPinned(pinned, path: path) } catch { mailbox.post(.failure(Self.oneLine(error))) }
        case let .removeRecent(path):
            do { try services.recent.remove(path: path) } catch { mailbox.post(.failure(Self.oneLine(error))) }
        default: break
        }
    }

    /// Takes one result from a background task or the worker into the state; keys typed during a command that
    /// succeeded are added to `replay`.
    static func receive(_ message: Mailbox.Message, state: inout AppState, pending: inout [AppEffect], replay: inout [Key]) {
        switch message {
        case let .finished(effect, result):
            replay += state.finishingCall(result)
            if case let .failed(text) = result { state.reopeningPrompt(after: effect, failure: text) }
            if case .succeeded = result, HistoryState.reloadsAfter(effect), case .history(let history, let editor) = state.screen {
                var fresh = history.reloaded()
                fresh.preview.shown = history.preview.shown  // the versions stay drawn after a restore if they were
                state.screen = .history(fresh, editor)
                pending.append(.loadHistoryPage(after: nil))
            }
            if case .succeeded = result, case let .tag(commitID, name) = effect { state.historyTagged(commitID, name: name) }
            if case .succeeded = result, case let .restoreItem(item, commitID) = effect { state.itemRestored(item, from: commitID) }
        case let .snapshot(snapshot):
            pending += state.receivingSnapshot(snapshot)
        case let .source(name, sourceState):
            if let index = state.templates.firstIndex(where: { $0.name == name }) { state.templates[index].state = sourceState }
        case let .history(page):
            state.updateHistory { history in pending += history.arrived(page) }
        case let .diff(subject, diff):
            state.updateHistory { $0.receive(diff, for: subject) }
        case let .diffFailed(subject, text):
            state.updateHistory { $0.receiveFailure(text, for: subject) }
        case let .preview(subject, comparison):
            state.updateHistory { $0.receivePreview(comparison, for: subject) }
        case let .previewFailed(subject, text):
            state.updateHistory { $0.receivePreviewFailure(text, for: subject) }
        case let .itemHistory(item, page):
            state.updateHistory { history in if let effect = history.receive(page, item: item) { pending.append(effect) } }
        case let .sharing(event):
            state.receiveSharing(event)
        case let .sourceChecked(check):
            state.receiveSourceCheck(check)
        case let .argumentValues(command, base, selection, answer):
            state.receiveArgumentValues(answer, command: command, base: base, selection: selection)
        case let .failure(text):
            state.showFailure(text)
        }
    }

    /// One frame of the current screen.
    /// `view` replaces the document's own view (the editor host passes the one that never calls a plugin).
    static func frame(_ state: AppState, scene: LaunchScene, services: LaunchServices, view: (any EditorViewProvider)? = nil,
                      width: Int, height: Int, now: Date = Date()) -> CellGrid {
        var grid = screenFrame(state, scene: scene, services: services, view: view, width: width, height: height, now: now)
        Screens.decorateSharing(&grid, state: state)
        Screens.decorate(&grid, state: state, scene: scene)
        return grid
    }

    static func screenFrame(_ state: AppState, scene: LaunchScene, services: LaunchServices, view: (any EditorViewProvider)? = nil,
                            width: Int, height: Int, now: Date = Date()) -> CellGrid {
        switch state.screen {
        case .launch:
            var grid = LaunchLayout(scene: scene, width: width, height: height, context: state.launchContext).grid
            // A command's output or an error, one line at the bottom until the next key.
            if let message = state.message, height > 0, width > 0 {
                Screens.putMessage(message.shown, bottom: height - 1, style: Screens.theme.style(message), into: &grid)
            } else if let loading = LaunchLayout.templateProgressLine(state.templates), height > 0, width > 0 {
                grid.putLine(" " + loading, y: height - 1, style: CellStyle(foreground: .named(.yellow)))
            }
            return grid
        case let .picker(picker): return Screens.picker(picker, sources: state.templates, width: width, height: height, tick: state.tick)
        case let .form(form): return Screens.form(form, width: width, height: height, currentFolder: state.currentFolder, home: state.home)
        case let .editor(editor):
            guard let document = services.document else { return CellGrid(width: width, height: height) }
            return Screens.editor(editor, view: view ?? document.editor, width: width, height: height, now: now)
        case let .history(history, editor): return Screens.history(history, title: editor.title, width: width, height: height, tick: state.tick)
        case let .generic(view): return Screens.generic(view, message: state.message, width: width, height: height)
        case let .settings(settings): return Screens.settings(state.settings, path: services.settingsPath, width: width, height: height, editing: settings,
                                                               sources: state.templates)
        case let .sharing(page, editor): return sharingFrame(page, editor: editor, width: width, height: height)
        }
    }

    /// The screen a window opens on with a document: its editor, with the selection, scroll and panel the scene saved.
    static func initialScreen(document: any DocumentSession, saved: SceneState?) -> AppState.Screen {
        let head = document.latestCommit()
        var editor = EditorState(path: document.path, title: document.title, contentType: document.contentType,
                                 commitID: head.id, commitMessage: head.message, commands: document.editor.commands())
        editor.editorName = document.editorName
        editor.message = document.openingNotice.map(StatusLine.note)
        editor.items = document.editor.itemLayout()
        guard var saved else { return .editor(editor) }
        if saved.documentPath != document.path {
            // Another of the window's open documents: where its cursor was when it was last shown.
            guard let tab = saved.tabs?.first(where: { $0.path == document.path }) else { return .editor(editor) }
            saved = SceneState(documentPath: tab.path, selection: tab.selection, scroll: tab.scroll, panel: .editor)
        }
        editor.scroll = max(0, saved.scroll)
        if let selection = saved.selection {
            let last = max(0, (editor.items?.count ?? Int.max / 2) - 1)
            if selection.start == selection.end { editor.cursor = min(last, max(0, selection.end)) }
            else { editor.selectionAnchor = min(last, max(0, selection.start)); editor.cursor = min(last, max(0, selection.end)) }
        }
        return saved.panel == .history ? .history(HistoryState(), editor) : .editor(editor)
    }

    /// The window state to save for the current screen, with the open documents (`tabs`, paths in order) and where
    /// each one's cursor was (`windows`, updated with the shown one's).
    static func sceneState(_ state: AppState, tabs: [String], windows: inout [String: SceneState.Tab]) -> SceneState {
        var scene = sceneState(state)
        if let path = scene.documentPath { windows[path] = SceneState.Tab(path: path, selection: scene.selection, scroll: scene.scroll) }
        scene.tabs = tabs.isEmpty ? nil : tabs.map { windows[$0] ?? SceneState.Tab(path: $0) }
        return scene
    }

    /// The window state to save for the current screen.
    static func sceneState(_ state: AppState) -> SceneState {
        switch state.screen {
        case let .editor(editor): return SceneState(documentPath: editor.path, selection: editor.savedSelection, scroll: editor.scroll, panel: .editor)
        case let .history(_, editor): return SceneState(documentPath: editor.path, selection: editor.savedSelection, scroll: editor.scroll, panel: .history)
        case .picker: return SceneState(panel: .picker)
        case let .settings(settings):
            guard let editor = settings.returnTo else { return SceneState(panel: .settings) }
            return SceneState(documentPath: editor.path, selection: editor.savedSelection, scroll: editor.scroll, panel: .editor)
        case .launch, .form: return SceneState(panel: .launch)
        case let .generic(view): return SceneState(documentPath: view.path, panel: .editor)
        case let .sharing(_, editor): return SceneState(documentPath: editor.path, selection: editor.savedSelection, scroll: editor.scroll, panel: .editor)
        }
    }

    static func oneLine(_ error: any Error) -> String {
        "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Results from background tasks and the worker, handed to the run loop.
final class Mailbox: Sendable {
    enum Message: Sendable {
        /// A command call ended.
        case finished(AppEffect, CallResult)
        /// The document's head, read by a poll.
        case snapshot(DocumentSnapshot)
        case source(String, SourceState)
        case history(HistoryPage)
        /// A history diff, for the commit (or pair) it describes.
        case diff(HistoryState.DiffSubject, HistoryDiff)
        case diffFailed(HistoryState.DiffSubject, String)
        /// Two versions drawn and compared, for the preview subject they show.
        case preview(HistoryPreview.Subject, VersionComparison)
        case previewFailed(HistoryPreview.Subject, String)
        /// The versions that changed one item, for the item they were asked for.
        case itemHistory(String, ItemHistoryPage)
        /// A result of the open document's sharing (an action, conflicts, a preview, a settlement).
        case sharing(SharingEvent)
        /// A template source added in Settings, checked.
        case sourceChecked(SourceCheck)
        /// The editor's current values for a form (command, base, selection).
        case argumentValues(String, String?, ViewSelection?, ArgumentValuesAnswer)
        case failure(String)
    }
    private let messages = Mutex<[Message]>([])
    func post(_ message: Message) { messages.withLock { $0.append(message) } }
    func drain() -> [Message] { messages.withLock { drained in defer { drained.removeAll() }; return drained } }
}

extension EditorState {
    /// The selection to save for the window: the range, or the cursor alone.
    var savedSelection: EditorSelection? { selection ?? EditorSelection(start: cursor, end: cursor) }
}

extension AppState {
    /// Picks up a new head of the open document (a command here, another window, another process): the status line,
    /// the item layout, and the cursor kept in range.
    mutating func refreshDocument(_ document: any DocumentSession) {
        applying(DocumentSnapshot.read(document))
    }
}
