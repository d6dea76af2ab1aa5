import FolioCore
import FolioPlugins
import FoundationEssentials
import Glibc
import FolioTerminal

/// `plugins check` of `library` in a child process (the `folio` executable's hidden `plugins __probe`).
func checkInChild(_ io: CommandIO) throws -> (URL) -> PluginProbeReport {
    let executable = try folioExecutable()
    return { library in
        PluginHost.check(library: library, executable: executable, arguments: ["plugins", "__probe"], environment: io.environment)
    }
}

/// `folio plugins install PATH.so|DIR`.
func installPlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let source = io.url(try args.positional(1, "PATH.so or DIR"))
    try args.expectAtMost(2)
    let installer = PluginInstaller.standard(environment: io.environment)
    let installed = try installer.install(from: source, others: pluginHost(io), check: try checkInChild(io))
    let entry = installed.entry
    if args.flag("--json") {
        struct Installed: Encodable { let id: String; let version: String; let library: String; let sha256: String; let replaced: String?; let disabled: Bool }
        try io.json(Installed(id: entry.id, version: entry.version, library: installed.library.path, sha256: entry.sha256,
                              replaced: installed.replaced, disabled: installed.disabled))
        return 0
    }
    let what = installed.replaced.map { "Replaced \(entry.id) \($0) with \(entry.version)" } ?? "Installed \(entry.id) \(entry.version)"
    io.line("\(what): \(installed.library.path)")
    if installed.disabled { io.line("It is still disabled; enable with: folio plugins enable \(entry.id)") }
    return 0
}

/// `folio plugins remove ID`: only what `install` put in place; anything else is named with where it is.
func removePlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let id = try args.positional(1, "ID")
    try args.expectAtMost(2)
    let installer = PluginInstaller.standard(environment: io.environment)
    do {
        let entry = try installer.remove(id: id)
        io.line("Removed \(id)" + (entry.map { " \($0.version)" } ?? " (it had no entry in the lock file)"))
        return 0
    } catch PluginInstallError.notInstalled(let id, .none) {
        if let plugin = pluginHost(io).anyPlugin(id) { throw PluginInstallError.notInstalled(id: plugin.manifest.id, location: plugin.library.path) }
        throw PluginInstallError.notInstalled(id: id, location: nil)
    }
}

/// `folio plugins disable ID`: listed as disabled, never loaded.
func disablePlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let id = try args.positional(1, "ID")
    try args.expectAtMost(2)
    guard let plugin = pluginHost(io).anyPlugin(id) else { throw PluginError.unknownPluginOrEditor(id: id) }
    let changed = try PluginInstaller.standard(environment: io.environment).setDisabled(plugin.manifest.id, true)
    let shown = plugin.manifest.id.shownAsText
    io.line(changed ? "Disabled \(shown): it is listed but not loaded" : "\(shown) was already disabled")
    return 0
}

/// `folio plugins enable ID`: back to enabled from disabled, quarantined or changed (a changed file only when it passes
/// `plugins check`; its new hash is recorded).
func enablePlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let id = try args.positional(1, "ID")
    try args.expectAtMost(2)
    let host = pluginHost(io)
    guard let plugin = host.anyPlugin(id) else { throw PluginError.unknownPluginOrEditor(id: id) }
    let pluginID = plugin.manifest.id
    let installer = PluginInstaller.standard(environment: io.environment)
    var done: [String] = []
    if try installer.setDisabled(pluginID, false) { done.append("no longer disabled") }
    if let quarantine = host.isolation.quarantine, quarantine.enable(plugin: pluginID, bundled: plugin.bundled) > 0 { done.append("quarantine lifted") }
    let after = pluginHost(io)
    if let current = after.anyPlugin(pluginID), case .changed = after.state(of: current) {
        try installer.accept(current, report: try checkInChild(io)(current.library))
        done.append("its changed file passed the check and is recorded")
    }
    io.line(done.isEmpty ? "\(pluginID.shownAsText) is enabled (nothing to change)" : "Enabled \(pluginID.shownAsText): \(done.joined(separator: "; "))")
    return 0
}

/// `folio plugins repair`: sets a damaged `plugins.lock.json` aside and rebuilds it from the installed plugin folders,
/// recording each plugin that passes `plugins check`.
func repairPlugins(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    try args.expectAtMost(1)
    let installer = PluginInstaller.standard(environment: io.environment)
    let repair = try installer.repair(check: try checkInChild(io))
    let lockPath = installer.folder.appendingPathComponent(PluginLock.fileName).path
    guard let aside = repair.setAside else {
        io.line("\(lockPath) is readable; nothing to repair")
        return 0
    }
    let ids = repair.recorded.map(\.id)
    io.line("Set the damaged \(lockPath) aside as \(aside.path); recorded \(ids.count) installed plugin\(ids.count == 1 ? "" : "s")"
            + (ids.isEmpty ? "" : " (\(ids.joined(separator: ", ")))")
            + (repair.disabled.isEmpty ? "" : "; still disabled: \(repair.disabled.joined(separator: ", "))"))
    for refusal in repair.unrecorded {
        io.line("  not recorded, so not loaded: \(refusal); after fixing it: folio plugins enable ID, or folio plugins remove ID")
    }
    return 0
}

/// The hint after a discovery refusal of an unreadable `plugins.lock.json`.
func lockRepairHint(_ refusal: PluginRefusal) -> String {
    refusal.file.hasSuffix("/" + PluginLock.fileName) ? "; to set it aside and rebuild it: folio plugins repair" : ""
}
