import Foundation
import FolioCore
import FolioLaunch
import FolioPlugins
import FolioTemplates
import FolioTerminal

/// The interactive program: the launcher, and what it asks for carried out in turn (create, instantiate, open, run a
/// command), until the user quits. Each pass of `LaunchApp.run` owns the terminal and restores it when it returns.
/// `open` opens that document straight in the editor host; otherwise the scene's saved document is reopened.
func runInteractive(configPath: String?, scene sceneName: String?, open: String?, io: CommandIO) throws -> Int32 {
    guard io.isInteractive else {
        throw TerminalError.needsTerminal
    }
    let sceneID = try SceneStore.sceneID(requested: sceneName)
    let store = SceneStore(environment: io.environment)
    let scene = try LaunchScene.resolve(configPath: configPath, workingDirectory: io.currentDirectory, environment: io.environment)
    let catalog = TemplateCatalogAdapter(environment: io.environment)
    let recent = RecentDocuments(environment: io.environment)
    var message: String?
    var settings = Settings()
    do { settings = try Settings.load(environment: io.environment) } catch { message = FolioCommandLine.oneLine(error) }
    let environment = io.environment

    var documentURL: URL? = open.map(io.url)
    if documentURL == nil, let saved = (try? store.load(sceneID)) ?? nil, let path = saved.documentPath,
       saved.panel == .editor || saved.panel == .history, FileManager.default.fileExists(atPath: path) {
        documentURL = URL(fileURLWithPath: path)
    }

    // The form whose action is being carried out: shown again, values kept, when the action fails.
    var form: FormState?
    while true {
        var session: DocumentSessionAdapter?
        if let url = documentURL {
            do {
                let opened = try DocumentSessionAdapter(url: url, environment: environment)
                recent.record(opened.document)
                session = opened
            } catch {
                message = FolioCommandLine.oneLine(error)
            }
            documentURL = nil
        }
        var configured = LaunchServices(recent: RecentDocumentsAdapter(recent: recent), templates: catalog, document: session, settings: settings,
                                      settingsPath: Settings.fileURL(environment: environment).path, message: message,
                                      saveSettings: { try $0.save(environment: environment) })
        configured.form = message == nil ? nil : form
        configured.editorIDs = pluginHost(io, settings: settings).editors.map(\.editor.id)
        let services = configured
        message = nil
        form = nil
        let outcome = try waitFor {
            try await LaunchApp.run(scene: scene, services: services, sceneID: sceneID, store: store, environment: environment)
        }
        if let reloaded = try? Settings.load(environment: environment) { settings = reloaded }
        form = outcome.form
        switch outcome.effect {
        case .quit:
            return 0
        case let .createBlank(contentType, destination):
            do {
                let url = try uniqueDestination(destination, scene: scene, io: io)
                let document = try DocumentStore(environment: environment).create(at: url, contentType: contentType, title: nil)
                documentURL = document.url
                form = nil
            } catch {
                message = FolioCommandLine.oneLine(error)
            }
        case let .instantiate(templateID, answers, destination):
            do {
                let url = try uniqueDestination(destination, scene: scene, io: io)
                let template = try waitFor { try await catalog.template(templateID) }
                let year = Calendar(identifier: .gregorian).component(.year, from: Date())
                let context: [String: JSONValue] = ["folder_name": .string(url.deletingPathExtension().lastPathComponent),
                                                    "current_year": .string(String(year))]
                let collected = try template.answers(given: TemplateCatalogAdapter.answers(answers, for: template), mode: .defaults, context: context)
                let document = try template.instantiate(at: url, answers: collected, store: try DocumentStore(environment: environment))
                documentURL = document.url
                form = nil
            } catch {
                message = FolioCommandLine.oneLine(error)
            }
        case let .open(path):
            documentURL = io.url(path)
        case let .runCommand(arguments):
            message = runCaptured(arguments, io: io)
        default:
            break
        }
    }
}

/// Runs a `folio` subcommand in this process with its output captured; returns a one-line summary for the message line.
func runCaptured(_ arguments: [String], io: CommandIO) -> String {
    let output = CapturedLines()
    let captured = CommandIO(environment: io.environment, currentDirectory: io.currentDirectory, isInteractive: false,
                             out: { output.append($0) }, err: { output.append($0) }, stdin: { Data() })
    let status = FolioCommandLine.run(arguments, io: captured)
    let last = output.text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
    let summary = "folio \(arguments.joined(separator: " ")): " + (last.isEmpty ? (status == 0 ? "done" : "failed") : last)
    return status == 0 ? summary : "✗ " + summary
}

/// Collects a captured command's output.
final class CapturedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""
    func append(_ text: String) { lock.lock(); buffer += text; lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return buffer }
}

/// Where a new document goes: the form's destination (it starts in the scene's `documentsFolder`) against the
/// current folder, made unique with "-2", "-3"… when taken.
func uniqueDestination(_ destination: String, scene: LaunchScene, io: CommandIO) throws -> URL {
    let trimmed = destination.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw FolioError.invalidDocumentPath(destination, problem: .noName) }
    let base = io.url(trimmed)
    let fileManager = FileManager.default
    try fileManager.createDirectory(at: base.deletingLastPathComponent(), withIntermediateDirectories: true)
    if !fileManager.fileExists(atPath: base.path) { return base }
    let stem = base.deletingPathExtension().lastPathComponent
    let ext = base.pathExtension
    for number in 2...10_000 {
        let name = "\(stem)-\(number)" + (ext.isEmpty ? "" : "." + ext)
        let candidate = base.deletingLastPathComponent().appendingPathComponent(name)
        if !fileManager.fileExists(atPath: candidate.path) { return candidate }
    }
    throw FolioError.alreadyExists(base.path)
}
