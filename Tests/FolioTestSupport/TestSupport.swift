import Foundation
import Synchronization
import FolioCore

/// A temporary folder removed when the value is released, or when the test process exits if it never is (a test
/// case's property, a value a closure kept): before, each run of the suite left about 150 folders in /tmp.
public final class TemporaryDirectory: @unchecked Sendable {
    // Unchecked: `url` is immutable; the live set is behind its Mutex.
    public let url: URL

    public init(_ name: String = "folio-test") {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // Resolve symlinks (e.g. /tmp) so paths compare equal to what the product reports.
        url = base.resolvingSymlinksInPath()
        _ = removeLiveDirectoriesAtExit
        liveDirectories.withLock { _ = $0.insert(url.path) }
    }

    deinit {
        removeTemporaryTree(url.path)
        liveDirectories.withLock { _ = $0.remove(url.path) }
    }

    /// A path inside the folder.
    public func path(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// An environment isolated from the user's: HOME, XDG folders and git config all inside this folder, a fixed author.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        let home = url.appendingPathComponent("home").path
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var env: [String: String] = [
            "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config",
            "XDG_CACHE_HOME": home + "/.cache",
            "XDG_DATA_HOME": home + "/.local/share",
            "XDG_STATE_HOME": home + "/.local/state",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Ada Tester",
            "GIT_AUTHOR_EMAIL": "ada@example.com",
            "GIT_COMMITTER_NAME": "Ada Tester",
            "GIT_COMMITTER_EMAIL": "ada@example.com",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TERM": "dumb",
            "LANG": "C.UTF-8",
        ]
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Writes a file (creating folders).
    @discardableResult
    public func write(_ relative: String, _ text: String) throws -> URL {
        let target = path(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target
    }
}

/// The result of running a program.
public struct RunResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// SIGPIPE ignored in the test process, once: writing the input of a program that has already exited is then an
/// EPIPE error for `runProgram` to drop, not a signal that ends the whole test run (a race seen in CI, when `folio write`
/// refused a broken settings file before reading its standard input).
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Runs a program (tests only: product code never starts processes) and captures its output.
@discardableResult
public func runProgram(_ executable: String, _ arguments: [String], cwd: URL? = nil, environment: [String: String]? = nil,
                       stdin: Data? = nil) throws -> RunResult {
    let process = Foundation.Process()
    if executable.hasPrefix("/") {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
    }
    if let cwd { process.currentDirectoryURL = cwd }
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    ignoreBrokenPipes
    // A program may exit before it reads its input (a refusal); the rest of the input is then not wanted.
    if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
    try? input.fileHandleForWriting.close()
    // Read both pipes concurrently so neither fills up.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs the git CLI (tests only) in `directory` with an isolated environment.
@discardableResult
public func git(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> RunResult {
    try runProgram("git", arguments, cwd: directory, environment: environment)
}

/// The folder holding the built products (`folio`, the plugin libraries).
public var productsDirectory: URL {
    // The XCTest runner lives in the products folder: .build/<triple>/debug/FolioPackageTests.xctest
    var url = Bundle.main.bundleURL
    if url.pathExtension == "xctest" { url = url.deletingLastPathComponent() }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return url
}

/// The built `folio` executable; `FOLIO_TEST_BINARY` names another build's (to check that a tmux test fails on an
/// older commit: its plugins and templates are found beside that binary).
public var folioExecutable: URL {
    if let other = ProcessInfo.processInfo.environment["FOLIO_TEST_BINARY"], !other.isEmpty { return URL(fileURLWithPath: other) }
    return productsDirectory.appendingPathComponent("folio")
}

/// The repository's root folder (from this file's location).
public var repositoryRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// A TCP port on the loopback interface that is free right now.
public func freeLoopbackPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return UInt16(bigEndian: address.sin_port)
}

/// Whether process `pid` or one of its descendants (`git daemon` runs `git-daemon` as a child) holds a socket
/// listening on 127.0.0.1:`port` (read from /proc/net/tcp and /proc/PID/fd): the server a test started, not another
/// that took the port meanwhile.
public func listens(pid: pid_t, onLoopbackPort port: UInt16) -> Bool {
    guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
    let local = String(format: "0100007F:%04X", port)
    let inodes = table.split(separator: "\n").dropFirst().compactMap { row -> String? in
        let fields = row.split(separator: " ")
        return fields.count > 9 && fields[1] == local && fields[3] == "0A" ? String(fields[9]) : nil
    }
    guard !inodes.isEmpty else { return false }
    let sockets = Set(inodes.map { "socket:[\($0)]" })
    return processTree(pid).contains { process in
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/fd")) ?? []
        return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/fd/\($0)")).map(sockets.contains) ?? false }
    }
}

/// `pid` and its descendants, from each process's parent in /proc/PID/stat.
private func processTree(_ pid: pid_t) -> Set<pid_t> {
    var parents: [pid_t: pid_t] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let child = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let parent = pid_t(fields[1]) { parents[child] = parent }
    }
    var tree: Set<pid_t> = [pid]
    var grew = true
    while grew {
        grew = false
        for (child, parent) in parents where tree.contains(parent) && !tree.contains(child) { tree.insert(child); grew = true }
    }
    return tree
}

/// A server process a test started on a loopback port.
public struct LoopbackServerStart<Server> {
    public let server: Server
    public let pid: pid_t
    public let isRunning: () -> Bool
    public let stop: () -> Void
    public init(server: Server, pid: pid_t, isRunning: @escaping () -> Bool, stop: @escaping () -> Void) {
        self.server = server; self.pid = pid; self.isRunning = isRunning; self.stop = stop
    }
}

public struct LoopbackServerError: Error, CustomStringConvertible {
    public let description: String
}

/// Starts a server with `start(port)` on `port`, or on a free loopback port when nil, and waits (bounded) until that
/// very process listens there. A free port stays free only until someone binds it: when the one chosen is taken
/// meanwhile (the server exits, or never listens itself), the server is stopped and started on another, up to
/// `attempts` times. A given `port` (a restart where a stopped server was) is tried once.
public func startOnLoopbackPort<Server>(_ port: UInt16?, seconds: Double, attempts: Int = 5,
                                        _ start: (UInt16) throws -> LoopbackServerStart<Server>) throws -> (port: UInt16, server: Server) {
    for _ in 0..<(port == nil ? attempts : 1) {
        let chosen = port ?? freeLoopbackPort()
        let started = try start(chosen)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, started.isRunning() {
            if listens(pid: started.pid, onLoopbackPort: chosen) { return (chosen, started.server) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        started.stop()
    }
    throw LoopbackServerError(description: "no server listened on 127.0.0.1 (\(port.map { "port \($0)" } ?? "\(attempts) free ports tried"))")
}

/// Waits (bounded) until something accepts connections on 127.0.0.1:`port`; false when time ran out.
@discardableResult
public func waitForLoopbackPort(_ port: UInt16, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
        close(fd)
        if ok { return true }
        usleep(20_000)
    }
    return false
}

/// A `git daemon` on 127.0.0.1 serving `basePath` (push enabled), stopped when released.
public final class GitDaemon: @unchecked Sendable {  // immutable after init; the process is only stopped in deinit
    public let port: UInt16
    private let process: Foundation.Process

    /// Starts serving on `port` (a free one when nil: pass the port of a stopped daemon to restart it).
    public init(basePath: URL, environment: [String: String], port: UInt16? = nil) throws {
        (self.port, process) = try startOnLoopbackPort(port, seconds: 10) { port in
            let process = Foundation.Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "daemon", "--listen=127.0.0.1", "--port=\(port)", "--export-all", "--enable=receive-pack",
                                 "--reuseaddr", "--base-path=\(basePath.path)", basePath.path]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return LoopbackServerStart(server: process, pid: process.processIdentifier, isRunning: { process.isRunning },
                                       stop: { process.terminate(); process.waitUntilExit() })
        }
    }

    /// The `git://` URL of a repository under the base path.
    public func url(_ name: String) -> String { "git://127.0.0.1:\(port)/\(name)" }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

/// The temporary folders not yet released.
private let liveDirectories = Mutex<Set<String>>([])

/// Registered once: removes the folders still alive when the test process exits.
private let removeLiveDirectoriesAtExit: Void = {
    atexit { for path in liveDirectories.withLock({ $0 }) { removeTemporaryTree(path) } }
}()

/// Removes a test's folder, first making everything in it writable and searchable again (tests take permissions away).
private func removeTemporaryTree(_ path: String) {
    if (try? FileManager.default.removeItem(atPath: path)) != nil || !FileManager.default.fileExists(atPath: path) { return }
    func unlock(_ folder: String) {
        chmod(folder, 0o700)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            var info = stat()
            let child = folder + "/" + name
            if lstat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { unlock(child) }
        }
    }
    unlock(path)
    try? FileManager.default.removeItem(atPath: path)
}

/// Waits (bounded) until `condition` holds; false when time ran out.
@discardableResult
public func eventually(_ seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
