import FolioPluginRuntime
import FolioPluginWire
import FolioSwiftToolchain
import FolioCore
import FoundationEssentials
import Glibc

extension PluginManifest {
    /// The manifest of `library`, generated from the library's own descriptor: the library is loaded in a plugin host
    /// process (`folio-plugin-host`, with the limits and environment of `isolation`), which answers with the
    /// descriptor's id, name, version, ABI and editors; nothing of the plugin runs in this process. This is the one
    /// way a manifest is made (`plugins install` writes it beside the copied library; discovery caches it for a
    /// library found without one), so an editor is described once: by its descriptor.
    ///
    /// Throws a `PluginRefusal` naming the file when it is no shared object, is writable by others, does not load,
    /// fails the descriptor checks, crashes or hangs the host (killed after `isolation.limits.call`).
    public static func generate(forLibrary library: URL, isolation: PluginIsolation = .standard(environment: ProcessInfo.processInfo.environment)) throws -> PluginManifest {
        try describe(library: library, isolation: isolation).mapError(\.refusal).get()
    }

    /// Why describing a library failed, and whether the same file would fail the same way again (so that the
    /// failure may be cached until the file changes): a refusal or a crash would, a timeout or a failed spawn may not.
    struct DescribeFailure: Error {
        let refusal: PluginRefusal
        let lasting: Bool
    }

    /// `generate`, with failures that say whether they last.
    static func describe(library: URL, isolation: PluginIsolation) -> Result<PluginManifest, DescribeFailure> {
        func refuse(_ reason: String, lasting: Bool = true) -> Result<PluginManifest, DescribeFailure> {
            .failure(DescribeFailure(refusal: PluginRefusal(file: library.path, reason: reason), lasting: lasting))
        }
        do {
            try PluginFileChecks.checkSharedObject(library)
            try PluginFileChecks.checkPermissions(library)
        } catch let refusal as PluginRefusal {
            return .failure(DescribeFailure(refusal: refusal, lasting: true))
        } catch {
            return refuse("\(error)")
        }
        let connection: PluginHostConnection
        do {
            connection = try PluginHostConnection.spawn(executable: try isolation.hostExecutable(), limits: isolation.limits,
                                                        log: isolation.hostLog, environment: isolation.environment)
        } catch {
            return refuse("cannot start the plugin host to describe it: \(error)", lasting: false)
        }
        let limit = isolation.limits.call
        let loaded: PluginWire.Message
        do {
            let deadline = ContinuousClock.now + limit
            let ready = try connection.reply(to: 0, deadline: deadline)
            guard ready.kind == .ready, try ready.integer(0) == Int64(PluginWire.version) else {
                throw PluginWire.WireError.violation("the host did not start with a ready message")
            }
            let sequence = try connection.send(.load, [Data(library.path.utf8)], deadline: deadline)
            loaded = try connection.reply(to: sequence, deadline: deadline)
        } catch {
            switch connection.terminate(after: error, limit: limit) {
            case let .timedOut(limit): return refuse("it did not finish loading within \(PluginLimits.describe(limit))", lasting: false)
            case let .crashed(why): return refuse("loading it crashed the plugin host (\(why))")
            case .cancelled: return refuse("describing it was cancelled", lasting: false)
            case let .spawnFailed(why): return refuse("cannot start the plugin host to describe it: \(why)", lasting: false)
            }
        }
        if loaded.kind == .failure {
            return refuse(PluginText.description((try? loaded.field(1)) ?? Data()))
        }
        do {
            let described = try PluginDescription(loaded)
            let manifest = PluginManifest(id: described.id, name: described.name, version: described.version, abi: described.abiMajor,
                                          abiMinor: described.abiMinor, library: library.lastPathComponent, editors: described.editors,
                                          swift: PluginELF.read(library.path)?.swiftRecord.flatMap(SwiftToolchain.version(record:)))
            try manifest.validate()
            return .success(manifest)
        } catch {
            return refuse("the plugin host described it badly: \(error)")
        }
    }

    /// The manifest as written beside an installed library (`libX.folio-plugin.json`): sorted keys, two-space indent.
    public func encodedForFile() throws -> Data {
        try StrictJSON.fileData(self)
    }
}

extension PluginIsolation {
    /// The log the plugin hosts' stderr is appended to (`plugin-host.log` in the state folder), started again past
    /// 512 KiB; nil without a state folder.
    var hostLog: URL? {
        guard let folder = stateFolder else { return nil }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("plugin-host.log")
        // lstat as attributesOfItem does, without the owner and group names it looks up (/etc/passwd, /etc/group).
        var info = stat()
        if lstat(url.path, &info) == 0, info.st_size > 512 << 10 {
            try? FileManager.default.removeItem(at: url)
        }
        return url
    }

    /// The folder of each plugin's own log (`plugin-logs/ID.log` beside the shared `log`), created here.
    static func pluginLogFolder(beside log: URL) -> URL {
        let folder = log.deletingLastPathComponent().appendingPathComponent("plugin-logs")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Plugin `id`'s own log, nil without a state folder or for an id that cannot name a file.
    public func pluginLog(_ id: String) -> URL? {
        guard let folder = stateFolder, let name = HostWire.logFileName(forPlugin: id) else { return nil }
        return folder.appendingPathComponent("plugin-logs").appendingPathComponent(name)
    }
}
