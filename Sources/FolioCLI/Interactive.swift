import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioLaunch
import FolioPlugins
import FolioTemplates
import FolioTerminal
import Synchronization

/// The interactive program: the launcher, and what it asks for carried out in turn (create, instantiate, open, run a
/// command), until the user quits. One terminal session holds the terminal for the whole run: between two passes of
/// `LaunchApp.run` it stays in raw mode on the alternate screen, and keys typed meanwhile wait for the next pass.
/// `open` opens those documents (tabs; the first is shown); otherwise the scene's open documents are reopened. Every
/// document stays open (its session, plugin host and sync loop) until its tab is closed.
func runInteractive(configPath: String?, scene sceneName: String?, open: [String] = [], io: CommandIO) throws -> Int32 {
    guard io.isInteractive else {
        throw TerminalError.needsTerminal
    }
    let sceneID = try SceneStore.sceneID(requested: sceneName)
    let store = SceneStore(environment: io.environment)
    let scene = try LaunchScene.resolve(configPath: configPath, workingDirectory: io.currentDirectory, environment: io.environment)
    let catalog = TemplateCatalogAdapter(environment: io.environment)
    let recent = RecentDocuments(environment: io.environment)
    var message: StatusLine?
    var settings = Settings()
    do { settings = try Settings.load(environment: io.environment) } catch { message = .failure(FolioCommandLine.oneLine(error)) }
    if message == nil { do { _ = try recent.load() } catch { message = .failure(FolioCommandLine.oneLine(error)) } }
    let environment = io.environment

    var tabs = OpenTabs()
    var documentURL: URL?
    if !open.isEmpty {
        for path in open { do { try tabs.open(io.url(path), environment: environment) } catch { message = .failure(FolioCommandLine.oneLine(error)) } }
        tabs.show(0)
        tabs.sessions.forEach { recent.record($0.document) }
    } else if let saved = (try? store.load(sceneID)) ?? nil {
        // The window's open documents, as they were; the one shown then is shown again.
        // At most `OpenTabs.restoredAtMost` (each open document keeps a plugin host and a sync loop; the scene file
        // is only a file, and a long list in it must not start hundreds of them).
        for tab in (saved.tabs ?? []).prefix(OpenTabs.restoredAtMost) where FileManager.default.fileExists(atPath: tab.path) {
            try? tabs.open(URL(fileURLWithPath: tab.path), environment: environment)
        }
        tabs.current = nil
        if let path = saved.documentPath, saved.panel == .editor || saved.panel == .history, FileManager.default.fileExists(atPath: path) {
            documentURL = URL(fileURLWithPath: path)
        }
    }

    // The form whose action is being carried out: shown again, values kept, when the action fails.
    var form: FormState?
    // The messages shown so far: the log carries on from one screen to the next.
    var messageLog = MessageLog()
    return try TerminalSession.withSession { terminal in
        while true {
            if let url = documentURL {
                do { recent.record(try tabs.open(url, environment: environment).document) } catch { message = .failure(FolioCommandLine.oneLine(error)) }
                documentURL = nil
            }
            let session = tabs.shown
            var configured = LaunchServices(recent: RecentDocumentsAdapter(recent: recent), templates: catalog, document: session, settings: settings,
                                          settingsPath: Settings.fileURL(environment: environment).path, message: message,
                                          saveSettings: { try $0.save(environment: environment) })
            configured.form = message == nil ? nil : form
            configured.messageLog = messageLog
            configured.tabs = tabs.described
            configured.currentTab = tabs.current
            configured.returnTab = tabs.returnTab
            configured.generic = session.flatMap { GenericDocumentFiles(session: $0, environment: environment) }
            configured.editorIDs = pluginHost(io, settings: settings).editors.map(\.editor.id)
            // A command button's command runs inside the launcher, which stays full screen; Esc cancels its transfers.
            configured.runCommand = { command in runCaptured(command.arguments, io: io, background: command) }
            let services = configured
            message = nil
            form = nil
            let outcome = try waitFor {
                try await LaunchApp.run(scene: scene, services: services, sceneID: sceneID, store: store, environment: environment, terminal: terminal)
            }
            if let reloaded = try? Settings.load(environment: environment) { settings = reloaded }
            form = outcome.form
            messageLog = outcome.messageLog
            switch outcome.effect {
            case .quit:
                return 0
            case let .createBlank(contentType, destination):
                do {
                    let url = try newDestination(destination, io: io)
                    let document = try DocumentStore(environment: environment).create(at: url, contentType: contentType, title: nil)
                    documentURL = document.url
                    form = nil
                } catch {
                    message = .failure(FolioCommandLine.oneLine(error))
                    form = form.map { DestinationTaken.suggesting(in: $0, after: error) }
                }
            case let .instantiate(templateID, answers, destination):
                do {
                    let url = try newDestination(destination, io: io)
                    let template = try waitFor { try await catalog.template(templateID) }
                    let context = Template.defaultsContext(for: url)
                    let collected = try template.answers(given: TemplateCatalogAdapter.answers(answers, for: template), mode: .defaults, context: context)
                    let document = try template.instantiate(at: url, answers: collected, store: try DocumentStore(environment: environment))
                    documentURL = document.url
                    form = nil
                } catch {
                    message = .failure(FolioCommandLine.oneLine(error))
                    form = form.map { DestinationTaken.suggesting(in: $0, after: error) }
                }
            case let .open(path):
                documentURL = io.url(path)
            case let .switchTab(index):
                tabs.show(index)
            case let .closeTab(index):
                tabs.close(index)
            case .newTab:
                tabs.showLauncher()
            case let .runCommand(arguments):
                message = runCaptured(arguments, io: io)
            default:
                break
            }
        }
    }
}

/// Runs a `folio` subcommand in this process with its output captured; returns a one-line summary for the message line.
/// In the launcher's `background`, the command's transfers report progress to it and stop when it is cancelled.
func runCaptured(_ arguments: [String], io: CommandIO, background: BackgroundCommand? = nil) -> StatusLine {
    let output = CapturedLines()
    var captured = CommandIO(environment: io.environment, currentDirectory: io.currentDirectory, isInteractive: false,
                             out: { output.append($0) }, err: { output.append($0) }, stdin: { Data() })
    if let background {
        captured = captured.backgrounded(isCancelled: { background.isCancelled }, progress: { background.report($0) })
    }
    let status = FolioCommandLine.run(arguments, io: captured)
    return CapturedSummary.line(arguments: arguments, output: output.text, status: status)
}

/// Collects a captured command's output.
final class CapturedLines: Sendable {
    private let buffer = Mutex("")
    func append(_ text: String) { buffer.withLock { $0 += text } }
    var text: String { buffer.withLock { $0 } }
}

/// Where a new document goes: the form's destination (it starts in the scene's `documentsFolder`) against the
/// current folder. When something is there already the user is asked (`DestinationTaken`): nothing is created
/// until they confirm the free name offered or type another.
func newDestination(_ destination: String, io: CommandIO) throws -> URL {
    let trimmed = destination.trimming(.whitespaces)
    guard !trimmed.isEmpty else { throw FolioError.invalidDocumentPath(path: destination, problem: .noName) }
    let base = io.url(trimmed)
    let fileManager = FileManager.default
    var isFolder: Bool = false
    if !fileManager.fileExists(atPath: base.path, isDirectory: &isFolder) {
        try fileManager.createDirectory(at: base.deletingLastPathComponent(), withIntermediateDirectories: true)
        return base
    }
    throw DestinationTaken(destination: trimmed, isFolder: isFolder, suggestion: DestinationTaken.freeName(for: trimmed, io: io))
}

/// A new document's destination that already exists: the form asks again, offering the first free "NAME-2"-style
/// name (nil when none of 10,000 is free).
struct DestinationTaken: Error, CustomStringConvertible {
    let destination: String
    let isFolder: Bool
    let suggestion: String?

    var description: String {
        let what = "'\(destination)' already exists" + (isFolder ? " (a folder)" : "")
        guard let suggestion else { return what + ": type another name" }
        return what + ": ⏎ creates '\(suggestion)' instead, or type another name"
    }

    /// The first of "NAME-2", "NAME-3"… beside `destination` that does not exist.
    static func freeName(for destination: String, io: CommandIO) -> String? {
        var trimmed = destination
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let slash = trimmed.lastIndex(of: "/")
        let folder = slash.map { String(trimmed[...$0]) } ?? ""
        let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
        let ext = PathText.pathExtension(name)
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        for number in 2...10_000 {
            let candidate = folder + "\(stem)-\(number)" + (ext.isEmpty ? "" : "." + ext)
            if !FileManager.default.fileExists(atPath: io.url(candidate).path) { return candidate }
        }
        return nil
    }

    /// `form` with the free name in its destination field when `error` is a taken destination (the message says so).
    static func suggesting(in form: FormState, after error: any Error) -> FormState {
        guard let taken = error as? DestinationTaken, let suggestion = taken.suggestion,
              let index = form.fields.firstIndex(where: { $0.name == "destination" }) else { return form }
        var form = form
        form.fields[index].value = suggestion
        return form
    }
}
