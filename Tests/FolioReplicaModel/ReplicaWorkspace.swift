import FolioCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A temporary folder for one run, with an environment isolated from the user's (HOME, XDG folders and git config
/// inside it, a fixed author), the document store over it, and git run there; removed when the run ends.
final class ReplicaWorkspace {
    let url: URL
    let environment: [String: String]
    let store: DocumentStore

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-replicas-\(UUID().uuidString)")
        let home = url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config", "XDG_CACHE_HOME": home.path + "/.cache",
            "XDG_DATA_HOME": home.path + "/.local/share", "XDG_STATE_HOME": home.path + "/.local/state", "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Ada Tester", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_COMMITTER_NAME": "Ada Tester",
            "GIT_COMMITTER_EMAIL": "ada@example.com", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TERM": "dumb", "LANG": "C.UTF-8",
        ]
        store = DocumentStore(settings: Settings(sync: .none), environment: environment)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Runs `program` in `directory` to its end: its status and its output and errors together.
    func run(_ program: String, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// git's output; a failure is an error naming the command.
    @discardableResult
    func git(_ arguments: [String], in directory: URL) throws -> String {
        let result = try run("git", arguments, in: directory)
        guard result.status == 0 else { throw ReplicaModelError("git \(arguments.joined(separator: " ")) exited \(result.status): \(result.output)") }
        return result.output
    }
}

/// `folio sync --watch --interval 1` over one clone, as a process of its own writing to a log in the workspace.
final class ReplicaWatch {
    private let folio: URL
    private let workspace: ReplicaWorkspace
    private let log: URL
    private var process: Process?

    init(folio: URL, workspace: ReplicaWorkspace) {
        self.folio = folio
        self.workspace = workspace
        log = workspace.url.appendingPathComponent("watch.log")
    }

    deinit { stop() }

    func start(_ document: URL) throws {
        guard process == nil else { return }
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        let process = Process()
        process.executableURL = folio
        process.arguments = ["sync", "--watch", "--interval", "1", "--timeout", "5", document.path]
        process.environment = workspace.environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
    }

    /// SIGKILL, whatever it is doing.
    func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// SIGTERM, and wait for it to end.
    func stop() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        self.process = nil
    }

    /// How it ended, when it ended without being killed or stopped.
    func endedByItself() -> String? {
        guard let process, !process.isRunning else { return nil }
        self.process = nil
        return process.terminationReason == .uncaughtSignal ? "signal \(process.terminationStatus)" : "status \(process.terminationStatus)"
    }

    func logTail() -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(8).joined(separator: "\n")
    }
}
