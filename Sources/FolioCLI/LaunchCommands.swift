import FoundationEssentials
import Glibc
import FolioCore
import FolioLaunch
import FolioTerminal

/// The recent documents as the launcher lists them (none when the list cannot be read: the commands that show it
/// say why first, through `RecentDocuments.load`).
struct RecentDocumentsAdapter: RecentDocumentsProvider {
    let recent: RecentDocuments

    func recentDocuments(limit: Int) -> [RecentDocument] {
        ((try? recent.load()) ?? []).prefix(limit).map { entry in
            let type = entry.contentType.split(separator: ".").last.map(String.init) ?? entry.contentType
            let missing = !RecentDocuments.exists(entry)
            return RecentDocument(path: entry.path, title: entry.title, detail: missing ? "missing" : type, pinned: entry.pinned == true, missing: missing)
        }
    }

    func setPinned(_ pinned: Bool, path: String) throws { try recent.setPinned(pinned, path: path) }
    func remove(path: String) throws { try recent.remove(path: path) }
    /// The state the document's last sync round saved (`.git/folio/sync-state.json`); not shared when none.
    func sharingState(path: String) -> SharingState { SharingState.saved(documentPath: path) ?? .notShared }
}

let launchCommands: [Command] = [
    Command("launch", usage: "launch [--render] [--width W --height H] [--ansi] [--config FILE] [--scene NAME]",
            summary: "Open the launch screen (or print one frame of it with --render)") { args, io in
        try args.expectAtMost(0)
        if args.flag("--render") || !io.isInteractive {
            let recent = RecentDocumentsAdapter(recent: RecentDocuments(environment: io.environment))
            _ = try recent.recent.load()  // a list that cannot be read is an error, not an empty list
            let frame = try renderLaunchFrame(width: try args.int("--width") ?? 80, height: try args.int("--height") ?? 24,
                                              ansi: args.flag("--ansi"), configPath: args.value("--config").map { io.url($0).path },
                                              workingDirectory: io.currentDirectory, environment: io.environment,
                                              recent: recent.recentDocuments(limit: RecentList.loadLimit))
            io.out(frame)
            return 0
        }
        return try runInteractive(configPath: args.value("--config").map { io.url($0).path }, scene: args.value("--scene"), open: [], io: io)
    },
    Command("open", usage: "open PATH... [--scene NAME] [--config FILE]",
            summary: "Open documents in the editor host, one tab each (on a terminal; ^T lists them)") { args, io in
        _ = try args.positional(0, "PATH")
        let paths = args.positionals
        // Fail before touching the terminal when a document cannot be opened.
        let store = try DocumentStore(environment: io.environment)
        for path in paths { _ = try store.open(at: io.url(path)) }
        return try runInteractive(configPath: args.value("--config").map { io.url($0).path }, scene: args.value("--scene"), open: paths, io: io)
    },
]

/// Timings of the interactive program, for `folio-bench`.
public enum LaunchBenchmarks {
    /// The time to build and encode the first launch frame (what `folio launch` writes before any template source
    /// has resolved): scene, recent list and settings loaded, layout and ANSI bytes produced.
    public static func firstFrame(environment: [String: String], width: Int = 100, height: Int = 30,
                                  workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let scene = try LaunchScene.resolve(configPath: nil, workingDirectory: workingDirectory, environment: environment)
        let catalog = TemplateCatalogAdapter(environment: environment)
        let recent = RecentDocumentsAdapter(recent: RecentDocuments(environment: environment)).recentDocuments(limit: RecentList.loadLimit)
        _ = try? Settings.load(environment: environment)
        let state = AppState(recent: RecentList.merge(pinned: scene.recent.pinned, recent: recent, count: RecentList.loadLimit),
                             templates: catalog.sourceNames().map { TemplateSourceStatus(name: $0, state: .loading) })
        var buffer = FrameBuffer(capability: .truecolor)
        let grid = LaunchLayout(scene: scene, width: width, height: height, context: state.launchContext).grid
        _ = buffer.update(to: grid)
        return clock.now - start
    }

    /// The average time of one editor frame for `document` (e.g. a 10,000-item checklist) with the cursor moving down
    /// a line per frame: the plugin's view of the visible part, the host frame and the changed bytes. `frames`
    /// frames are timed after one warm-up frame (which opens the document and lays out its items).
    public static func editorFrame(document url: URL, width: Int = 100, height: Int = 30, frames: Int = 200,
                                   environment: [String: String]) throws -> Duration {
        let session = try DocumentSessionAdapter(url: url, environment: environment)
        let durations = editorFrames(session, count: frames, width: width, height: height)
        return durations.reduce(.zero, +) / max(1, frames)
    }

    /// Each of `count` editor frames of `session` (the plugin's view of the visible part, the host frame and the
    /// changed bytes) with the cursor moving down a line per frame, after one untimed warm-up frame that lays out the
    /// items.
    static func editorFrames(_ session: DocumentSessionAdapter, count: Int, width: Int, height: Int) -> [Duration] {
        var editor = EditorState(path: session.path, title: session.title, contentType: session.contentType,
                                 commitID: session.latestCommit().id, commitMessage: session.latestCommit().message, commands: session.editor.commands())
        editor.items = session.editor.itemLayout()
        editor.viewRows = max(1, height - 3 - (editor.items?.headerLines ?? 0))
        var buffer = FrameBuffer(capability: .truecolor)
        _ = buffer.update(to: Screens.editor(editor, view: session.editor, width: width, height: height))
        var state = AppState()
        state.screen = .editor(editor)
        let clock = ContinuousClock()
        var durations: [Duration] = []
        for _ in 0..<max(1, count) {
            let start = clock.now
            state = state.handling(.down, scene: .defaultScene).0
            guard case let .editor(current) = state.screen else { break }
            _ = buffer.update(to: Screens.editor(current, view: session.editor, width: width, height: height))
            durations.append(clock.now - start)
        }
        return durations
    }
}
