import FolioCore
import FolioPlugins
import FolioTemplates
import FoundationEssentials
import Glibc
import FolioTerminal

/// `plugins check` of `library` in a plugin host process (`folio-plugin-host --check`).
func checkInChild(_ io: CommandIO) throws -> (URL) -> PluginProbeReport {
    let isolation = PluginIsolation.standard(environment: io.environment)
    return { library in EditorRegistry.check(library: library, isolation: isolation) }
}

/// `folio plugins install PATH.so|DIR`.
func installPlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let source = io.url(try args.positional(1, "PATH.so or DIR"))
    try args.expectAtMost(2)
    let installer = PluginInstaller.standard(environment: io.environment)
    let installed = try installer.install(from: source, others: pluginHost(io), consent: permissionConsent(args, io), check: try checkInChild(io))
    let entry = installed.entry
    if args.flag("--json") {
        struct Installed: Encodable {
            let id: String; let version: String; let library: String; let sha256: String; let replaced: String?; let disabled: Bool
            let granted: PluginPermissions
        }
        try io.json(Installed(id: entry.id, version: entry.version, library: installed.library.path, sha256: entry.sha256,
                              replaced: installed.replaced, disabled: installed.disabled, granted: entry.granted ?? .none))
        return 0
    }
    let what = installed.replaced.map { "Replaced \(entry.id) \($0) with \(entry.version)" } ?? "Installed \(entry.id) \(entry.version)"
    io.line("\(what): \(installed.library.path)")
    if let granted = entry.granted, !granted.isEmpty { io.line("Granted: \(granted.summary)") }
    if installed.disabled { io.line("It is still disabled; enable with: folio plugins enable \(entry.id)") }
    return 0
}

/// How `plugins install` and `plugins link` answer a plugin that asks for permissions: what it asks for is shown
/// (on stderr with `--json`), then `--grant` grants it, a terminal is asked, and anything else refuses it.
func permissionConsent(_ args: Arguments, _ io: CommandIO) -> PluginPermissionConsent {
    let flagged = args.flag("--grant"), json = args.flag("--json")
    return { (request: PluginPermissionRequest) -> Bool in
        let show = { (line: String) in json ? io.error(line) : io.line(line) }
        let more = request.previouslyGranted == nil ? "asks to" : "asks, beyond what its installed version was granted, to"
        show("\(request.id.shownAsText) \(request.version.shownAsText) \(more):")
        for line in request.asked.lines { show("  \(line)") }
        if flagged { return true }
        guard io.isInteractive, !json else { return false }
        io.out("Grant it? [y/N]: ")
        guard let answer = try? PromptReader(io: io).readLine() else { return false }
        return ["y", "yes"].contains(answer.trimming(.whitespaces).lowercased())
    }
}

/// `folio plugins remove ID`: only what `install` put in place; anything else is named with where it is.
func removePlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let id = try args.positional(1, "ID")
    try args.expectAtMost(2)
    let installer = PluginInstaller.standard(environment: io.environment)
    do {
        let contents = PluginInstaller.isUsableID(id) ? PluginPackageContents.read(installer.folder.appendingPathComponent(id)) : nil
        let package = contents?.package == nil ? nil : contents  // a bare library brought nothing else
        let entry = try installer.remove(id: id)
        io.line("Removed \(id)" + (entry.map { " \($0.version)" } ?? " (it had no entry in the lock file)") + (package.map(broughtSummary) ?? ""))
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
    // What each type it edited is opened with now: never left editor-less without saying so.
    let after = pluginHost(io)
    let types = Set(plugin.manifest.editors.flatMap(\.contentTypes).map(\.identifier)).sorted()
    for type in types {
        if let editor = try? after.chooseEditor(for: ContentType(type)).editor {
            io.line("  \(type.shownAsText) documents now open with \(editor.id.shownAsText)")
        } else {
            io.line("  \(type.shownAsText) documents now have no editor: they show as text until: folio plugins enable \(shown)"
                    + " (to try a build under development instead: folio plugins link DIR)")
        }
    }
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

/// `folio plugins pack DIR [-o FILE]`: a package of the built plugin project DIR (`PluginPackage.pack`), written to
/// FILE or `./ID-VERSION.folio-package.tar`.
func packPlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let project = io.url(try args.positional(1, "DIR"))
    try args.expectAtMost(2)
    let packed = try PluginPackage.pack(project: project, output: args.value("-o").map(io.url), defaultFolder: io.url("."),
                                        isolation: .standard(environment: io.environment))
    io.line("Packed \(packed.package.id.shownAsText) \(packed.package.version.shownAsText): \(packed.url.path.shownAsText)")
    for file in packed.files { io.line("  \(file.shownAsText)") }
    for warning in packed.warnings { io.error("warning: \(warning)") }
    io.line("Install it with: folio plugins install \(packed.url.path.shownAsText)")
    return 0
}

/// `folio plugins link DIR`: the build of the plugin project DIR replaces any installed copy of its id until unlinked.
func linkPlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let project = io.url(try args.positional(1, "DIR"))
    try args.expectAtMost(2)
    let link = try PluginInstaller.standard(environment: io.environment).link(project: project, consent: permissionConsent(args, io),
                                                                              check: try checkInChild(io))
    io.line("Linked \(link.id.shownAsText): \(link.library.shownAsText) is used instead of any installed copy (rebuilding it is enough); undo with: folio plugins unlink \(link.id.shownAsText)")
    if let granted = link.granted, !granted.isEmpty { io.line("Granted: \(granted.summary)") }
    return 0
}

/// `folio plugins unlink ID`.
func unlinkPlugin(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let id = try args.positional(1, "ID")
    try args.expectAtMost(2)
    guard let link = try PluginInstaller.standard(environment: io.environment).unlink(id: id) else {
        throw CommandFailure("no linked plugin '\(id.shownAsText)' (see folio plugins list)")
    }
    let installed = pluginHost(io).anyPlugin(link.id)
    io.line("Unlinked \(link.id.shownAsText)" + (installed.map { "; using \($0.library.path.shownAsText) again" } ?? "; no other copy is installed"))
    return 0
}

/// The package lines of `plugins info`: what the plugin's folder brought (libraries, templates, samples, README,
/// licence), and its link when it is a linked build.
func describePackage(_ plugin: DiscoveredPlugin, _ io: CommandIO) {
    describePermissions(plugin, io)
    let installer = PluginInstaller.standard(environment: io.environment)
    if let link = (try? PluginLinks.load(in: installer.folder))?.link(plugin.manifest.id), link.library == plugin.library.standardizedFileURL.path {
        io.line("linked:   from \(link.project.shownAsText) (folio plugins unlink \(plugin.manifest.id.shownAsText) to stop)")
        if let templates = link.templates { io.line("templates: \(templates.shownAsText)") }
        if let samples = link.samples { io.line("samples:  \(samples.shownAsText)") }
        return
    }
    let contents = PluginPackageContents.read(plugin.library.deletingLastPathComponent())
    guard contents.package != nil else { return }
    io.line("package:  \(contents.folder.path.shownAsText)")
    io.line("libraries: " + contents.libraries.map(\.lastPathComponent.shownAsText).joined(separator: ", "))
    io.line("templates: " + (contents.templates.isEmpty ? "none" : contents.templates.map { ($0.id ?? $0.folder.lastPathComponent).shownAsText }.joined(separator: ", "))
            + (contents.templates.isEmpty ? "" : " (template source \((TemplateSource.pluginPrefix + plugin.manifest.id).shownAsText))"))
    io.line("samples:  " + (contents.samples.isEmpty ? "none" : contents.samples.map(\.lastPathComponent.shownAsText).joined(separator: ", ")))
    io.line("README:   " + (contents.readme?.path.shownAsText ?? "none"))
    io.line("licence:  " + (contents.licence?.path.shownAsText ?? "none"))
}

/// The permission lines of `plugins info`: what the manifest declares, what was granted, and the confinement its host
/// is under with that grant on this kernel (what of it is withheld where the kernel could not hold the plugin to it).
func describePermissions(_ plugin: DiscoveredPlugin, _ io: CommandIO) {
    let declared = plugin.manifest.declaredPermissions
    io.line("declares: " + (declared.isEmpty ? "no permissions" : declared.summary))
    guard !declared.isEmpty else { return }
    io.line("granted:  " + (plugin.granted.isEmpty ? "nothing" : plugin.granted.summary))
    guard !plugin.granted.isEmpty else { return }
    let confinement = (try? PluginIsolation(environment: io.environment).confinementInForce(granting: plugin.granted)) ?? "unknown"
    io.line("in force: \(confinement.shownAsText)")
}

/// Tells on stderr what the user of a document of `type` must know about its editor's plugin (a linked build used,
/// a duplicate refused, the plugin that edits it disabled), each with how to change it.
func reportUsageNotices(_ host: EditorRegistry, type: ContentType, settings: Settings, editor: String?, command: String, _ io: CommandIO) {
    for notice in host.usageNotices(for: type, associations: settings.editorAssociations, override: editor) {
        io.error("folio \(command): \(notice)" + usageHint(notice))
    }
}

/// The command that changes what `notice` reports.
func usageHint(_ notice: PluginUsageNotice) -> String {
    switch notice {
    case let .linked(id, _, _): return " (folio plugins unlink \(id.shownAsText))"
    case .duplicate: return " (remove one copy, or develop with: folio plugins link DIR)"
    case let .inactive(id, _, state):
        if case .changed = state { return "; folio plugins enable \(id.shownAsText) checks it first" }
        return "; enable with: folio plugins enable \(id.shownAsText)"
    }
}

/// The sample documents of the plugin whose editor opens `type` (from its package or linked project).
func pluginSamples(for type: ContentType, _ io: CommandIO) -> [URL] {
    let host = pluginHost(io)
    guard let editor = try? host.chooseEditor(for: type).editor,
          let plugin = host.plugins.first(where: { $0.manifest.editors.contains { $0.id == editor.id } }) else { return [] }
    return PluginPackageContents.samples(forLibrary: plugin.library, installedFolder: PluginInstaller.standard(environment: io.environment).folder)
}

/// `folio new PATH --type T --sample NAME`: a document whose primary file starts as the plugin's sample NAME.
func createFromSample(_ name: String, at url: URL, type: ContentType, title: String?, store: DocumentStore, _ io: CommandIO) throws -> Document {
    let samples = pluginSamples(for: type, io)
    guard let sample = samples.first(where: { $0.lastPathComponent == name }) else {
        throw CommandFailure("no sample '\(name.shownAsText)' for \(type.identifier.shownAsText)"
                             + (samples.isEmpty ? " (its plugin has none)" : " (samples: \(samples.map(\.lastPathComponent.shownAsText).joined(separator: ", ")))"))
    }
    guard let data = FileManager.default.contents(atPath: sample.path) else { throw FolioError.unreadableFile(path: sample.path, reason: "cannot read it") }
    let title = title ?? url.deletingPathExtension().lastPathComponent
    let primary = DocumentMetadata.defaultPrimaryFile(for: type, registry: store.contentTypes)
    let metadata = DocumentMetadata(contentType: type, title: title, primaryFile: primary)
    return try store.create(at: url, metadata: metadata, files: [DocumentFile(path: primary, data: data)], message: "Create \(title) from the sample \(name)")
}

/// After a blank `folio new --type T`: the samples its plugin offers, on stderr (stdout stays the one result line).
func offerSamples(_ type: ContentType, _ io: CommandIO) {
    guard ContentTypeRegistry.builtIn.declaration(of: type) == nil else { return }  // Folio's own types have no plugin samples
    let samples = pluginSamples(for: type, io)
    guard !samples.isEmpty else { return }
    io.error("folio new: samples for \(type.identifier.shownAsText): \(samples.map(\.lastPathComponent.shownAsText).joined(separator: ", ")) (folio new PATH --type \(type.identifier.shownAsText) --sample NAME)")
}

/// What a removed plugin's folder held, e.g. ` and what it brought: 1 library, 2 templates, 1 sample, README, licence`.
func broughtSummary(_ contents: PluginPackageContents) -> String {
    func count(_ n: Int, _ word: String) -> String? { n == 0 ? nil : "\(n) \(word)\(n == 1 ? "" : "s")" }
    let parts = [count(contents.libraries.count, "library").map { $0.replacing("librarys", with: "libraries") },
                 count(contents.templates.count, "template"), count(contents.samples.count, "sample"),
                 contents.readme.map { _ in "README" }, contents.licence.map { _ in "licence" }].compactMap { $0 }
    return parts.isEmpty ? "" : " and what it brought: " + parts.joined(separator: ", ")
}
