import FolioCore
import FolioBasics
import FolioDisplayWidth
import FoundationEssentials
import Glibc

/// Why an install, remove, disable or enable was refused; one line naming the file or plugin.
public enum PluginInstallError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The path to install is neither a shared object nor a folder holding exactly one.
    case noLibrary(path: String, reason: String)
    /// `plugins check` refused the library (its one-line refusal).
    case refused(String)
    /// The plugin's id cannot name a folder (empty, `.`-prefixed, a `/`, a control character or over 200 bytes).
    case unusableID(String)
    /// Another plugin on the search path already has this plugin id or one of its editor ids.
    case clash(id: String, with: String, file: String)
    /// No plugin with this id was installed with `folio plugins install`; `location` says where it is, if anywhere.
    case notInstalled(id: String, location: String?)
    /// A plugin whose changed file is to be accepted did not pass the check.
    case notAccepted(id: String, refusal: String)
    /// A file system operation failed.
    case fileSystem(String)
    /// The lock file cannot be read or is not a lock: the file and the problem.
    case damagedLock(file: String, problem: String)
    /// A plugin package was refused: the package file or folder, and the first problem found in it.
    case badPackage(package: String, problem: String)

    public var description: String {
        switch self {
        case let .noLibrary(path, reason): return "\(path): \(reason)"
        case let .refused(refusal): return refusal
        case let .unusableID(id) where PluginInstaller.isFolioName(id):
            return "plugin id '\(id.shownAsText)' is refused: names starting with '\(PluginInstaller.folioNamePrefix)' are Folio's own files in the plugins folder (\(PluginLock.fileName), \(PluginLinks.fileName))"
        case let .unusableID(id): return "plugin id '\(id.shownAsText)' cannot name its folder (empty, starting with '.', or holding '/' or control characters)"
        case let .clash(id, other, file): return "\(file): another plugin already provides \(id) (\(other))"
        case let .notInstalled(id, location?): return "\(id) is not in the installed plugins folder (it is at \(location))"
        case let .notInstalled(id, nil): return "no installed plugin '\(id)'"
        case let .notAccepted(id, refusal): return "\(id) stays changed: \(refusal)"
        case let .fileSystem(message): return message
        case let .damagedLock(file, problem): return "\(file): \(problem)"
        case let .badPackage(package, problem): return "\(package.shownAsText): plugin package refused: \(problem)"
        }
    }
}

/// What an install did.
public struct InstalledPlugin: Sendable, Equatable {
    public let entry: PluginLock.Entry
    /// The installed library.
    public let library: URL
    /// The version it replaced, when it was installed already.
    public let replaced: String?
    /// Whether the plugin is disabled (an upgrade keeps a plugin disabled).
    public let disabled: Bool
}

/// Installs plugins into one folder (`$XDG_DATA_HOME/folio/plugins`), each in `<folder>/<id>/` with its manifest, and
/// keeps `plugins.lock.json` there. Every change holds an exclusive `flock` on `<folder>/.install.lock`. An install is
/// staged in a hidden temporary folder beside the final one and renamed into place (an upgrade swaps the two folders
/// with `renameat2(RENAME_EXCHANGE)`), so a failed or killed install leaves the previous state.
public struct PluginInstaller: Sendable {
    public let folder: URL

    /// The installer of `folder`.
    public init(folder: URL) { self.folder = folder }

    /// The installer of `$XDG_DATA_HOME/folio/plugins` for `environment`.
    public static func standard(environment: [String: String]) -> PluginInstaller {
        PluginInstaller(folder: FolioPaths(environment: environment).dataHome.appendingPathComponent("plugins"))
    }

    static let flockName = ".install.lock"
    static let stagingPrefix = ".folio-install-"

    /// Whether `folder` is managed by an installer (it holds the lock file or the installer's lock).
    static func isInstalledFolder(_ folder: URL) -> Bool {
        let fm = FileManager.default
        return fm.fileExists(atPath: folder.appendingPathComponent(PluginLock.fileName).path)
            || fm.fileExists(atPath: folder.appendingPathComponent(flockName).path)
    }

    /// Whether `url` is a real folder (not a link, not a file): what an installed plugin's `<folder>/<id>/` is.
    static func isPluginFolder(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The plugin folders inside an installed folder (visible subfolders).
    static func pluginFolders(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }.filter { url in
            var isFolder: Bool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder
        }
    }

    /// Whether a plugin id can name its folder: not empty, no `.` first, no `/` or control characters, at most 200
    /// bytes, and not one of Folio's own names in the plugins folder (`isFolioName`).
    public static func isUsableID(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".") && !id.contains("/") && id.utf8.count <= 200
            && !id.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } && !isFolioName(id)
    }

    /// The prefix of the names Folio keeps for its own files beside the plugins' folders: the lock
    /// (`plugins.lock.json`, and the damaged copies a repair sets aside), the links (`plugins.links.json`), and any
    /// registry a later Folio adds there.
    public static let folioNamePrefix = "plugins."

    /// Whether `id` names one of Folio's own files in the plugins folder (any letter case: ids differing only in
    /// case would still be one confusing pair).
    public static func isFolioName(_ id: String) -> Bool { id.lowercased().hasPrefix(folioNamePrefix) }

    /// The lock as it is now.
    public func lock() throws -> PluginLock { try PluginLock.load(in: folder) }

    // MARK: Install

    /// Installs the plugin at `source` (a `.so`, or a folder holding exactly one) after `check` — `plugins check` in a
    /// child process — accepted the staged copy with its manifest. The manifest is copied from beside the source when
    /// there is one, else generated from the library's descriptor (`installManifest`). `others` is the plugin host
    /// of the search path, to refuse an id or editor id another plugin already provides.
    ///
    /// A package (an archive, or a folder holding `folio-package.json`) is installed whole: `installPackage`.
    ///
    /// A plugin whose manifest declares permissions (`PluginPermissions`) is installed only when `consent` grants what it
    /// asks for beyond what its installed version was granted; the lock records the grant.
    @discardableResult
    public func install(from source: URL, others: EditorRegistry? = nil, limits: PluginPackageLimits = PluginPackageLimits(),
                        consent: PluginPermissionConsent = { _ in false }, check: (URL) -> PluginProbeReport) throws -> InstalledPlugin {
        if let form = PluginPackage.form(of: source) {
            return try installPackage(source, form: form, others: others, limits: limits, consent: consent, check: check)
        }
        let library = try Self.library(in: source)
        try Self.checkHeader(library)
        return try installStaged(consent: consent) { staging in
            let staged = staging.appendingPathComponent(library.lastPathComponent)
            try copy(library, to: staged, mode: 0o755)
            let besideSource = ManifestLocator.besideManifest(for: library)
            let stagedManifest = ManifestLocator.besideManifest(for: staged)
            if FileManager.default.fileExists(atPath: besideSource.path) {
                try copy(besideSource, to: stagedManifest, mode: 0o644)
                // Discovery would refuse a manifest naming another file; so does install.
                if let named = try? PluginManifest.load(from: stagedManifest).library, named != library.lastPathComponent {
                    throw PluginInstallError.refused("\(library.path): plugin refused: its manifest \(besideSource.path) names library '\(named)'")
                }
            } else {
                try write(try Self.installManifest(library: staged, original: library), to: stagedManifest)
            }
            let report = Self.naming(library, check(staged))
            guard report.ok, let id = report.id, let version = report.version else {
                throw PluginInstallError.refused(report.refusal ?? "\(library.path): plugin refused")
            }
            guard Self.isUsableID(id) else { throw PluginInstallError.unusableID(id) }
            if let others { try Self.checkClashes(id: id, editors: report.editors.map(\.id), others: others, installedAt: folder.appendingPathComponent(id), source: library) }
            let declared: PluginPermissions
            do { declared = try PluginManifest.load(from: stagedManifest).declaredPermissions } catch {
                throw PluginInstallError.refused("\(besideSource.path): \(error)".replacing(staging.path + "/", with: library.deletingLastPathComponent().path + "/"))
            }
            return Staged(library: library.lastPathComponent, id: id, version: version, declared: declared)
        }
    }

    /// The manifest to install beside the staged `library` when none came with it: generated from the plugin's own
    /// descriptor in a plugin host process (`PluginManifest.generate`), the one description of its editors; a refusal
    /// names `original`, the file the user gave.
    static func installManifest(library: URL, original: URL) throws -> PluginManifest {
        do {
            return try PluginManifest.generate(forLibrary: library)
        } catch {
            let staged = library.deletingLastPathComponent().path + "/", given = original.deletingLastPathComponent().path + "/"
            throw PluginInstallError.refused("\(error)".replacing(staged, with: given))
        }
    }

    /// `report` on the staged copy of `library`, its refusal naming `library` (the file the user gave).
    static func naming(_ library: URL, _ report: PluginProbeReport) -> PluginProbeReport {
        var report = report
        let staged = URL(fileURLWithPath: report.library)
        report.refusal = report.refusal?.replacing(staged.deletingLastPathComponent().path + "/", with: library.deletingLastPathComponent().path + "/")
        return report
    }

    /// The library to install from `source`: the file itself, or the only `.so` in the folder.
    static func library(in source: URL) throws -> URL {
        var isFolder: Bool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder) else {
            throw PluginInstallError.noLibrary(path: source.path, reason: "no such file or folder")
        }
        guard isFolder else {
            guard source.pathExtension == "so" else { throw PluginInstallError.noLibrary(path: source.path, reason: "not a plugin library (.so) or a folder holding one") }
            return source
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: source.path)) ?? []).filter { $0.hasSuffix(".so") }.sorted()
        switch names.count {
        case 0: throw PluginInstallError.noLibrary(path: source.path, reason: "the folder holds no plugin library (.so)")
        case 1: return source.appendingPathComponent(names[0])
        default: throw PluginInstallError.noLibrary(path: source.path, reason: "the folder holds several libraries (\(names.joined(separator: ", "))); name one")
        }
    }

    /// The largest library `install` copies: 1 GiB (Folio's bundled plugins are a few MiB).
    static let maxLibraryBytes = 1 << 30

    /// Refuses, from its first bytes and its size alone, a file that cannot be a plugin: not a regular file, no ELF
    /// shared-object header, or over `maxLibraryBytes`. Nothing else of the file is read, so a huge file of the wrong
    /// kind is refused at once instead of being copied and hashed first.
    static func checkHeader(_ library: URL) throws {
        do { try PluginFileChecks.checkSharedObject(library) } catch let refusal as PluginRefusal {
            throw PluginInstallError.refused(refusal.description)
        }
        var info = stat()
        guard stat(library.path, &info) == 0 else {
            throw PluginInstallError.fileSystem(POSIXFailure(operation: "stat", path: library.path).description)
        }
        guard info.st_size <= maxLibraryBytes else {
            throw PluginInstallError.refused(PluginRefusal(file: library.path, reason: "it is larger than \(maxLibraryBytes >> 20) MiB").description)
        }
    }

    /// Fails when a plugin other than the installed `<folder>/<id>/` provides `id` or one of `editors`.
    /// A linked build (`plugins link`) is no clash: it shadows the installed copy until it is unlinked.
    static func checkClashes(id: String, editors: [String], others: EditorRegistry, installedAt: URL, source: URL) throws {
        let all = others.plugins + others.inactive.map(\.plugin)
        let linked = Set(((try? PluginLinks.load(in: installedAt.deletingLastPathComponent())) ?? PluginLinks()).folders.map(\.standardizedFileURL.path))
        for plugin in all {
            let pluginFolder = plugin.library.deletingLastPathComponent().standardizedFileURL.path
            guard pluginFolder != installedAt.standardizedFileURL.path, !linked.contains(pluginFolder) else { continue }
            if plugin.manifest.id == id {
                throw PluginInstallError.clash(id: "plugin id '\(id)'", with: plugin.library.path, file: source.path)
            }
            if let editor = plugin.manifest.editors.first(where: { editors.contains($0.id) }) {
                throw PluginInstallError.clash(id: "editor id '\(editor.id)'", with: plugin.library.path, file: source.path)
            }
        }
    }

    // MARK: Remove, disable, enable

    /// Removes the plugin installed as `id` (its folder and lock entry); returns the entry it had (nil when its folder
    /// had none: an install killed before it wrote the lock). Only a plugin's folder is removed: an id that is not a
    /// usable plugin id (Folio's own file names among them) or names no folder is `notInstalled`.
    @discardableResult
    public func remove(id: String) throws -> PluginLock.Entry? {
        try withLock {
            var lock = try self.lock()
            let final = folder.appendingPathComponent(id)
            guard Self.isUsableID(id), Self.isPluginFolder(final) else {  // a real folder: never Folio's own files
                throw PluginInstallError.notInstalled(id: id, location: nil)
            }
            let entry = lock.entry(id)
            let trash = folder.appendingPathComponent(Self.stagingPrefix + "remove-" + UUID().uuidString)
            guard rename(final.path, trash.path) == 0 else { throw PluginInstallError.fileSystem(POSIXFailure(operation: "rename", path: final.path).description) }
            lock.plugins.removeAll { $0.id == id }
            lock.disabled.removeAll { $0 == id }
            try lock.write(in: folder)
            try? FileManager.default.removeItem(at: trash)
            return entry
        }
    }

    /// Disables (or re-enables) plugin `id` in the lock; returns whether that changed anything.
    @discardableResult
    public func setDisabled(_ id: String, _ disabled: Bool) throws -> Bool {
        try withLock {
            var lock = try self.lock()
            guard lock.disabled.contains(id) != disabled else { return false }
            if disabled { lock.disabled.append(id); lock.disabled.sort() } else { lock.disabled.removeAll { $0 == id } }
            try lock.write(in: folder)
            return true
        }
    }

    /// Records the current file of `plugin` (installed in this folder, whose file changed or has no entry) as its
    /// installed build, when `report` (its `plugins check`) accepted it.
    public func accept(_ plugin: DiscoveredPlugin, report: PluginProbeReport) throws {
        guard report.ok else { throw PluginInstallError.notAccepted(id: plugin.manifest.id, refusal: report.refusal ?? "plugin refused") }
        let pluginFolder = plugin.library.deletingLastPathComponent()
        guard pluginFolder.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path,
              pluginFolder.lastPathComponent == plugin.manifest.id else {
            throw PluginInstallError.notInstalled(id: plugin.manifest.id, location: plugin.library.path)
        }
        try withLock {
            var lock = try self.lock()
            guard let hash = PluginQuarantine.hash(plugin.library) else {
                throw PluginInstallError.fileSystem("\(plugin.library.path): cannot read the library")
            }
            let entry = PluginLock.Entry(id: plugin.manifest.id, version: report.version ?? plugin.manifest.version, library: plugin.library.lastPathComponent,
                                         sha256: hash, installed: Timestamps.iso8601(Date()), stamp: FileStamp.of(plugin.library) ?? "",
                                         granted: lock.entry(plugin.manifest.id)?.granted.map { plugin.manifest.declaredPermissions.intersection($0) })
            lock.plugins.removeAll { $0.id == entry.id }
            lock.plugins.append(entry)
            lock.plugins.sort { $0.id < $1.id }
            try lock.write(in: folder)
        }
    }
}
