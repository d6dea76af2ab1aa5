import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

extension PluginInstaller {
    /// Installs a package (`PluginPackage`) whole, under the installer's lock: staged entry by entry into a hidden
    /// folder beside the final one (every path, kind and size checked on the way), its manifest parsed strictly, its
    /// library held to the checks of a bare library (ELF header, size, `check` in a child process) with the id and
    /// version `folio-package.json` claims, then renamed into `<folder>/<id>/` as one step (`place`). Any failure, or
    /// a kill, leaves only the hidden staging folder, which the next install or remove deletes.
    func installPackage(_ source: URL, form: PluginPackage.Form, others: EditorRegistry?, limits: PluginPackageLimits,
                        consent: PluginPermissionConsent, check: (URL) -> PluginProbeReport) throws -> InstalledPlugin {
        let refuse = { (problem: String) in PluginInstallError.badPackage(package: source.path, problem: problem) }
        return try installStaged(consent: consent) { staging in
            let package: PluginPackage
            do { package = try PluginPackage.stage(source, form: form, into: staging, limits: limits) } catch let problem as PluginPackageArchive.Problem {
                throw refuse(problem.description)
            } catch {
                throw refuse("\(error)")
            }
            let library = staging.appendingPathComponent(package.library)
            let shownLibrary = URL(fileURLWithPath: source.path + ":" + package.library)
            do { try Self.checkHeader(library) } catch { throw refuse(Self.unstaged("\(error)", staging: staging)) }
            let manifestURL = ManifestLocator.besideManifest(for: library)
            var declared = PluginPermissions.none
            if FileManager.default.fileExists(atPath: manifestURL.path) {
                let named: PluginManifest
                do { named = try PluginManifest.load(from: manifestURL) } catch {
                    throw refuse("\(manifestURL.lastPathComponent) is not a plugin manifest: \(Self.unstaged("\(error)", staging: staging))")
                }
                guard named.library == package.library else { throw refuse("\(manifestURL.lastPathComponent) names library '\(named.library.shownAsText)'") }
                declared = named.declaredPermissions
            } else {
                try write(try Self.installManifest(library: library, original: shownLibrary), to: manifestURL)
            }
            let report = check(library)
            guard report.ok, let id = report.id, let version = report.version else {
                throw refuse(Self.unstaged(report.refusal ?? "plugin refused", staging: staging))
            }
            guard id == package.id else { throw refuse("\(PluginPackage.manifestName) says id '\(package.id.shownAsText)', its library is '\(id.shownAsText)'") }
            guard version == package.version else {
                throw refuse("\(PluginPackage.manifestName) says version '\(package.version.shownAsText)', its library is '\(version.shownAsText)'")
            }
            if let others { try Self.checkClashes(id: id, editors: report.editors.map(\.id), others: others, installedAt: folder.appendingPathComponent(id), source: source) }
            return Staged(library: package.library, id: id, version: version, declared: declared)
        }
    }

    /// `message` with the staging folder's path left out (the user never sees the hidden folder).
    static func unstaged(_ message: String, staging: URL) -> String {
        message.replacing(staging.path + "/", with: "")
    }

    /// Moves the checked `staging` folder into `<folder>/<id>/` (swapping with the installed version when there is one)
    /// and records it in the lock; on a failure to write the lock the previous state is put back. Always removes
    /// `staging` (which then holds the replaced version, or the new one when nothing was moved).
    func place(_ staging: URL, library: String, id: String, version: String, granted: PluginPermissions?, lock: inout PluginLock) throws -> InstalledPlugin {
        defer { try? FileManager.default.removeItem(at: staging) }
        let staged = staging.appendingPathComponent(library)
        guard let hash = PluginQuarantine.hash(staged) else { throw PluginInstallError.fileSystem("\(staged.path): cannot read the staged copy") }
        let final = folder.appendingPathComponent(id)
        let replaced = lock.entry(id)?.version
        let existed = FileManager.default.fileExists(atPath: final.path)
        if existed && !Self.isPluginFolder(final) { throw PluginInstallError.fileSystem("\(final.path): not a plugin's folder, left as it is") }
        try moveIntoPlace(staging, final, exchange: existed)
        let installedLibrary = final.appendingPathComponent(library)
        let entry = PluginLock.Entry(id: id, version: version, library: library, sha256: hash,
                                     installed: Timestamps.iso8601(Date()), stamp: FileStamp.of(installedLibrary) ?? "", granted: granted)
        lock.plugins.removeAll { $0.id == id }
        lock.plugins.append(entry)
        lock.plugins.sort { $0.id < $1.id }
        do { try lock.write(in: folder) } catch {
            if existed { try? moveIntoPlace(staging, final, exchange: true) } else { _ = rename(final.path, staging.path) }  // put the previous state back
            throw error
        }
        return InstalledPlugin(entry: entry, library: installedLibrary, replaced: replaced, disabled: lock.disabled.contains(id))
    }
}
