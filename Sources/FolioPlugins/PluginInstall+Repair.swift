import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

/// What `PluginInstaller.repair` did.
public struct PluginLockRepair: Sendable, Equatable {
    /// Where the damaged lock was set aside; nil when the lock was readable and nothing was changed.
    public var setAside: URL?
    /// Why the lock was damaged (the error reading it).
    public var problem: String?
    /// The installed plugins recorded again (each passed `plugins check`), by id.
    public var recorded: [PluginLock.Entry] = []
    /// Plugin folders (or their libraries) left unrecorded, so not loaded until `enable` checks them, with why.
    public var unrecorded: [PluginRefusal] = []
    /// Disabled ids read back from the damaged file (when its `disabled` list could still be read).
    public var disabled: [String] = []
}

extension PluginInstaller {
    /// Rebuilds a lock that cannot be read: sets the damaged file aside (`plugins.lock.json.damaged-<time>`) and writes
    /// a new lock recording each installed plugin folder whose library passes `check` (`plugins check` in a child
    /// process) with the id its folder is named for; a folder that fails stays unrecorded, so it is listed as changed
    /// and not loaded until `plugins enable` checks it. The damaged file's `disabled` list is kept when it can still be
    /// read, so a plugin the user disabled is not quietly enabled. A readable lock is left as it is.
    public func repair(check: (URL) -> PluginProbeReport) throws -> PluginLockRepair {
        try withLock {
            var repair = PluginLockRepair()
            do { _ = try lock(); return repair } catch let PluginInstallError.damagedLock(_, problem) { repair.problem = problem }
            let lockURL = folder.appendingPathComponent(PluginLock.fileName)
            repair.disabled = Self.salvageDisabled(lockURL)
            do { repair.setAside = try ConfigFile.setAside(lockURL) } catch {
                throw PluginInstallError.fileSystem("\(error)")
            }
            removeStaleStaging()
            var rebuilt = PluginLock()
            for pluginFolder in Self.pluginFolders(in: folder) {
                switch Self.rebuiltEntry(pluginFolder, check: check) {
                case let .success(entry): rebuilt.plugins.append(entry)
                case let .failure(refusal): repair.unrecorded.append(refusal)
                }
            }
            rebuilt.disabled = repair.disabled
            try rebuilt.write(in: folder)
            repair.recorded = rebuilt.plugins
            return repair
        }
    }

    /// The lock entry for the plugin in `pluginFolder` when its only library passes `check` under the folder's id.
    private static func rebuiltEntry(_ pluginFolder: URL, check: (URL) -> PluginProbeReport) -> Result<PluginLock.Entry, PluginRefusal> {
        let id = pluginFolder.lastPathComponent
        let library: URL
        do { library = try Self.library(in: pluginFolder) } catch {
            return .failure(PluginRefusal(file: pluginFolder.path, reason: "\(error)"))
        }
        let report = check(library)
        guard report.ok, let version = report.version else {
            return .failure(PluginRefusal(file: library.path, reason: report.refusal ?? "plugin refused"))
        }
        guard report.id == id, isUsableID(id) else {
            return .failure(PluginRefusal(file: library.path, reason: "its plugin id is '\(report.id ?? "")', not the folder's name '\(id)'"))
        }
        guard let hash = PluginQuarantine.hash(library), let stamp = FileStamp.of(library) else {
            return .failure(PluginRefusal(file: library.path, reason: "cannot read the library"))
        }
        return .success(PluginLock.Entry(id: id, version: version, library: library.lastPathComponent, sha256: hash,
                                         installed: Timestamps.iso8601(Date()), stamp: stamp))
    }

    /// The `disabled` ids of a damaged lock when its JSON still parses and holds them as a list of strings; else none.
    private static func salvageDisabled(_ url: URL) -> [String] {
        guard let data = try? ConfigFile.read(url), let node = try? JSONNode.parse(data),
              let list = node.value.objectValue?["disabled"]?.arrayValue else { return [] }
        return list.compactMap(\.stringValue).filter(isUsableID).sorted()
    }
}
