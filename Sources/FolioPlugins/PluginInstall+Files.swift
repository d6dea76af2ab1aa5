import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

/// `renameat2(2)`, looked up at run time (Swift's Glibc module does not declare it).
private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
private let renameExchange: UInt32 = 1 << 1  // RENAME_EXCHANGE

extension PluginInstaller {
    /// Runs `body` holding an exclusive `flock` on `<folder>/.install.lock` (creating the folder, mode 0755).
    func withLock<T>(_ body: () throws -> T) throws -> T {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            throw PluginInstallError.fileSystem("\(folder.path): cannot create the plugins folder: \(errorText(error))")
        }
        let path = folder.appendingPathComponent(Self.flockName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PluginInstallError.fileSystem(POSIXFailure(operation: "open", path: path).description) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw PluginInstallError.fileSystem(POSIXFailure(operation: "flock", path: path).description) }
        }
        return try body()
    }

    /// What a staging folder holds once filled and checked: the library's file name, the plugin's id and version.
    struct Staged {
        let library: String
        let id: String
        let version: String
        /// The permissions its manifest declares.
        let declared: PluginPermissions
    }

    /// Installs through a staging folder, holding the lock: the lock file is read, stale staging folders removed, and
    /// `fill` fills and checks a new hidden one; `place` then moves it into `<folder>/<id>/`. When `fill` throws, its
    /// staging folder is removed.
    func installStaged(consent: PluginPermissionConsent, _ fill: (URL) throws -> Staged) throws -> InstalledPlugin {
        try withLock {
            var lock = try self.lock()
            removeStaleStaging()
            let staging = try makeStaging()
            let staged: Staged
            do { staged = try fill(staging) } catch {
                try? FileManager.default.removeItem(at: staging)
                throw error
            }
            let granted: PluginPermissions?
            do { granted = try Self.grant(staged, previous: lock.entry(staged.id), consent: consent) } catch {
                try? FileManager.default.removeItem(at: staging)
                throw error
            }
            return try place(staging, library: staged.library, id: staged.id, version: staged.version, granted: granted, lock: &lock)
        }
    }

    /// What the lock records as granted to `staged`: nil when it declares nothing; its declaration when an installed
    /// version was granted all of it already, or when `consent` grants what it asks for beyond that. Throws
    /// `PluginPermissionsNotGranted` otherwise.
    static func grant(_ staged: Staged, previous: PluginLock.Entry?, consent: PluginPermissionConsent) throws -> PluginPermissions? {
        guard !staged.declared.isEmpty else { return nil }
        let request = PluginPermissionRequest(id: staged.id, version: staged.version, declared: staged.declared,
                                              previouslyGranted: previous.map { $0.granted ?? .none })
        guard request.asked.isEmpty || consent(request) else { throw PluginPermissionsNotGranted(request: request) }
        return staged.declared
    }

    /// A new hidden staging folder (mode 0755 whatever the umask: plugin folders must not be group-writable).
    func makeStaging() throws -> URL {
        let url = folder.appendingPathComponent(Self.stagingPrefix + UUID().uuidString)
        guard mkdir(url.path, 0o755) == 0, chmod(url.path, 0o755) == 0 else {
            throw PluginInstallError.fileSystem(POSIXFailure(operation: "mkdir", path: url.path).description)
        }
        return url
    }

    /// Removes staging folders a killed install or remove left (only called holding the lock, so none is in use).
    func removeStaleStaging() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(Self.stagingPrefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// Copies a regular file's bytes to a new file with `mode` (fsynced).
    func copy(_ source: URL, to destination: URL, mode: mode_t) throws {
        var info = stat()
        guard stat(source.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw PluginInstallError.noLibrary(path: source.path, reason: "not a regular file")
        }
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw PluginInstallError.fileSystem(POSIXFailure(operation: "read", path: source.path).description)
        }
        do { try AtomicFile.write(data, to: destination, sync: true, mode: mode) } catch {
            throw PluginInstallError.fileSystem("\(error)")
        }
    }

    /// Writes a manifest (pretty, sorted keys) to `url`.
    func write(_ manifest: PluginManifest, to url: URL) throws {
        do { try AtomicFile.write(try StrictJSON.fileData(manifest), to: url, sync: true) } catch {
            throw PluginInstallError.fileSystem("\(url.path): cannot write the manifest: \(error)")
        }
    }

    /// Renames `staging` to `final`; with `exchange`, swaps the two atomically (so `staging` then holds the old version).
    func moveIntoPlace(_ staging: URL, _ final: URL, exchange: Bool) throws {
        defer { AtomicFile.syncDirectory(folder) }
        if !exchange {
            guard rename(staging.path, final.path) == 0 else {
                throw PluginInstallError.fileSystem(POSIXFailure(operation: "rename", path: final.path).description)
            }
            return
        }
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
            throw PluginInstallError.fileSystem("\(final.path): cannot replace it atomically (no renameat2 in this C library)")
        }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        guard renameat2(AT_FDCWD, staging.path, AT_FDCWD, final.path, renameExchange) == 0 else {
            throw PluginInstallError.fileSystem(POSIXFailure(operation: "renameat2 (exchange)", path: final.path).description)
        }
    }
}
