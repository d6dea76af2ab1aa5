import Foundation
import FolioCore
import FolioTerminal

/// An open document as the editor host and history browser need it.
public protocol DocumentSession: Sendable {
    var path: String { get }
    var title: String { get }
    var contentType: ContentType { get }
    /// The latest commit: id and message (empty strings before the first commit).
    func latestCommit() -> (id: String, message: String)
    var editor: any EditorViewProvider { get }
    var history: any HistoryPageProvider { get }
    /// Performs `.runEditorCommand`, `.restore`, `.tag` or `.compare`; throws with a one-line reason.
    func perform(_ effect: AppEffect) async throws
}

/// What the launcher needs from the rest of Folio.
public struct LaunchServices: Sendable {
    public var recent: any RecentDocumentsProvider
    public var templates: any TemplateCatalog
    /// The document to show in the editor host (restored scene or just opened), if any.
    public var document: (any DocumentSession)?
    public var settings: Settings
    public var settingsPath: String
    public init(recent: any RecentDocumentsProvider, templates: any TemplateCatalog, document: (any DocumentSession)? = nil,
                settings: Settings = Settings(), settingsPath: String = "") {
        self.recent = recent; self.templates = templates; self.document = document; self.settings = settings; self.settingsPath = settingsPath
    }
}

/// Why the launcher returned: the effect the caller performs (create, instantiate, open, run a command) or quit.
public struct LaunchOutcome: Equatable, Sendable {
    public var effect: AppEffect
}

/// The interactive launcher.
public enum LaunchApp {
    /// Runs the launcher full-screen until the user picks something that leaves it (returned as the outcome) or quits.
    /// The terminal is restored on every exit path; the scene's window state is saved under `sceneID`.
    public static func run(scene: LaunchScene, services: LaunchServices, sceneID: String, store: SceneStore,
                           environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> LaunchOutcome {
        let capability = ColorCapability.detect(environment: environment)
        let mailbox = Mailbox()
        var state = AppState(recent: RecentList.merge(pinned: scene.recent.pinned, recent: services.recent.recentDocuments(limit: scene.recent.count),
                                                      count: scene.recent.count),
                             templates: services.templates.sourceNames().map { TemplateSourceStatus(name: $0, state: .loading) })
        if let document = services.document {
            var editor = EditorState(path: document.path, title: document.title, contentType: document.contentType,
                                     commitID: document.latestCommit().id, commitMessage: document.latestCommit().message,
                                     commands: document.editor.commands())
            if let saved = try? store.load(sceneID), saved.documentPath == document.path {
                editor.scroll = saved.scroll
                if let selection = saved.selection { editor.selectionAnchor = selection.start; editor.cursor = selection.end }
            }
            state.screen = .editor(editor)
        }
        let loaders = Task {
            await withTaskGroup(of: Void.self) { group in
                for name in services.templates.sourceNames() {
                    group.addTask {
                        do { mailbox.post(.source(name, .loaded(try await services.templates.templates(in: name)))) }
                        catch { mailbox.post(.source(name, .failed(Self.oneLine(error)))) }
                    }
                }
            }
        }
        defer { loaders.cancel() }

        return try await TerminalSession.run { terminal in
            var buffer = FrameBuffer(capability: capability, synchronized: environment["TERM"] != "dumb")
            var size = terminal.size
            var lastTick = Date()
            while true {
                terminal.write(buffer.update(to: frame(state, scene: scene, services: services, width: size.width, height: size.height)))
                let events = terminal.nextEvents(timeoutMilliseconds: 80)
                if Date().timeIntervalSince(lastTick) > 0.08 { state.tick += 1; lastTick = Date() }
                for message in mailbox.drain() {
                    switch message {
                    case let .source(name, sourceState):
                        if let index = state.templates.firstIndex(where: { $0.name == name }) { state.templates[index].state = sourceState }
                    case let .history(page):
                        if case .history(var history, let editor) = state.screen {
                            history.entries += page.entries; history.next = page.next; history.exhausted = page.next == nil; history.loading = false
                            state.screen = .history(history, editor)
                        }
                    case let .diff(lines):
                        if case .history(var history, let editor) = state.screen { history.diff = lines; state.screen = .history(history, editor) }
                    case let .failure(text):
                        if case .history(var history, let editor) = state.screen { history.error = text; history.loading = false; state.screen = .history(history, editor) }
                    }
                }
                for event in events {
                    switch event {
                    case let .resize(width, height): size = (width, height); buffer.invalidate()
                    case .redraw: buffer.invalidate()
                    case let .key(key):
                        let (next, effects) = state.handling(key, scene: scene)
                        state = next
                        for effect in effects {
                            switch effect {
                            case .createBlank, .instantiate, .open, .runCommand, .quit:
                                try? store.save(sceneState(state), id: sceneID)
                                return LaunchOutcome(effect: effect)
                            case let .loadHistoryPage(cursor):
                                if let document = services.document {
                                    Task { do { mailbox.post(.history(try await document.history.page(after: cursor, limit: 50))) } catch { mailbox.post(.failure(Self.oneLine(error))) } }
                                }
                            case let .loadDiff(id):
                                if let document = services.document {
                                    Task { do { mailbox.post(.diff(try await document.history.diff(of: id))) } catch { mailbox.post(.failure(Self.oneLine(error))) } }
                                }
                            case .runEditorCommand, .restore, .tag, .compare:
                                if let document = services.document {
                                    Task { do { try await document.perform(effect) } catch { mailbox.post(.failure(Self.oneLine(error))) } }
                                }
                            case .openHistory, .openSettings: break
                            }
                        }
                    }
                }
            }
        }
    }

    /// One frame of the current screen.
    static func frame(_ state: AppState, scene: LaunchScene, services: LaunchServices, width: Int, height: Int) -> CellGrid {
        switch state.screen {
        case .launch: return LaunchLayout(scene: scene, width: width, height: height, context: state.launchContext).grid
        case let .picker(picker): return Screens.picker(picker, sources: state.templates, width: width, height: height, tick: state.tick)
        case let .form(form): return Screens.form(form, width: width, height: height)
        case let .editor(editor):
            guard let document = services.document else { return CellGrid(width: width, height: height) }
            return Screens.editor(editor, view: document.editor, width: width, height: height)
        case let .history(history, editor): return Screens.history(history, title: editor.title, width: width, height: height, tick: state.tick)
        case .settings: return Screens.settings(services.settings, path: services.settingsPath, width: width, height: height)
        }
    }

    /// The window state to save for the current screen.
    static func sceneState(_ state: AppState) -> SceneState {
        switch state.screen {
        case let .editor(editor): return SceneState(documentPath: editor.path, selection: editor.selection, scroll: editor.scroll, panel: .editor)
        case let .history(_, editor): return SceneState(documentPath: editor.path, selection: editor.selection, scroll: editor.scroll, panel: .history)
        case .picker: return SceneState(panel: .picker)
        case .settings: return SceneState(panel: .settings)
        case .launch, .form: return SceneState(panel: .launch)
        }
    }

    static func oneLine(_ error: any Error) -> String {
        "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Results from background tasks, handed to the run loop.
final class Mailbox: @unchecked Sendable {
    enum Message: Sendable {
        case source(String, SourceState)
        case history(HistoryPage)
        case diff([String])
        case failure(String)
    }
    private let lock = NSLock()
    private var messages: [Message] = []
    func post(_ message: Message) { lock.lock(); messages.append(message); lock.unlock() }
    func drain() -> [Message] { lock.lock(); defer { messages.removeAll(); lock.unlock() }; return messages }
}
