import FolioCore
import FoundationEssentials
import Glibc

/// `plugins.lock.json` in the installed-plugins folder (`$XDG_DATA_HOME/folio/plugins`): what `folio plugins install`
/// put there (id, version, library and the SHA-256 of its file) and which plugins the user disabled. Read with the
/// strict JSON reader; written atomically (temporary file, fsync, rename) under the installer's `flock`.
public struct PluginLock: Codable, Sendable, Equatable {
    /// One installed plugin, in the folder `<installed folder>/<id>/`.
    public struct Entry: Codable, Sendable, Equatable {
        public var id: String
        public var version: String
        /// The library's file name inside the plugin's folder.
        public var library: String
        /// SHA-256 of the library file as installed (64 lowercase hex digits).
        public var sha256: String
        /// When it was installed (ISO 8601).
        public var installed: String
        /// The file's identity when hashed (`device:inode:size:mtime-ns:ctime-ns`): while it is the same the file is
        /// not hashed again; when it differs the file is hashed and compared.
        public var stamp: String
        /// What the user granted the plugin when it was installed (what its manifest declared then); nil: nothing.
        public var granted: PluginPermissions? = nil

        enum CodingKeys: String, CodingKey, CaseIterable { case id, version, library, sha256, installed, stamp, granted }
    }

    public var version: Int = 1
    public var plugins: [Entry] = []
    /// Ids of disabled plugins (installed or not: bundled and `FOLIO_PLUGIN_PATH` plugins can be disabled too).
    public var disabled: [String] = []

    enum CodingKeys: String, CodingKey, CaseIterable { case version, plugins, disabled }

    /// An empty lock.
    public init() {}

    /// The lock's file name.
    public static let fileName = "plugins.lock.json"

    /// The entry of plugin `id`.
    public func entry(_ id: String) -> Entry? { plugins.first { $0.id == id } }

    /// Reads the lock in `folder`; an absent file is an empty lock. Any other failure is
    /// `PluginInstallError.damagedLock` naming the file (with line and column when the JSON is at fault).
    public static func load(in folder: URL) throws -> PluginLock {
        let url = folder.appendingPathComponent(fileName)
        do {
            return try parse(at: url)
        } catch let error as FolioError {
            switch error {
            case let .invalidFile(path, problem): throw PluginInstallError.damagedLock(file: path, problem: problem)
            case let .unreadableFile(path, reason): throw PluginInstallError.damagedLock(file: path, problem: "cannot read the file (\(reason))")
            default: throw PluginInstallError.damagedLock(file: url.path, problem: "\(error)")
            }
        }
    }

    private static func parse(at url: URL) throws -> PluginLock {
        guard let data = try ConfigFile.read(url) else { return PluginLock() }
        do {
            let lock = try StrictJSON.decode(PluginLock.self, from: data, strictAt: [[], ["plugins", "*"], ["plugins", "*", "granted"]])
            guard lock.version == 1 else { throw FolioError.invalidFile(path: url.path, problem: "lock file version \(lock.version) is not supported (expected 1)") }
            for entry in lock.plugins where !PluginInstaller.isUsableID(entry.id) || entry.library.contains("/") {
                throw FolioError.invalidFile(path: url.path, problem: "entry '\(entry.id)' has an unusable id or library name")
            }
            for entry in lock.plugins {
                if let problem = entry.granted?.problem { throw FolioError.invalidFile(path: url.path, problem: "entry '\(entry.id)': \(problem)") }
            }
            return lock
        } catch let error as FolioError {
            throw error
        } catch {
            throw FolioError.invalidFile(path: url.path, problem: JSONKeys.describe(error))
        }
    }

    /// Writes the lock into `folder` atomically (temporary file, fsync, rename, fsync of the folder).
    func write(in folder: URL) throws {
        try AtomicFile.write(try StrictJSON.fileData(self), to: folder.appendingPathComponent(Self.fileName), sync: true)
    }
}

/// A file's identity for the lock: when it is unchanged the file's content is taken to be unchanged too (`ctime`
/// cannot be set back by a user, so any write or replacement changes it).
enum FileStamp {
    static func of(_ url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }
}
