import FolioCore
import FoundationEssentials
import FolioBasics
import Glibc

extension TemplateSource {
    /// The name prefix of the sources that plugin packages bring: `plugin:<id>`.
    public static let pluginPrefix = "plugin:"

    /// One template source per installed plugin package that has templates: `plugin:<id>` for the folder
    /// `$XDG_DATA_HOME/folio/plugins/<id>/templates`, for each plugin recorded in that folder's `plugins.lock.json` with
    /// the version its `folio-package.json` names and not disabled there (so the templates of a half-installed,
    /// unrecorded, half-upgraded or disabled plugin are not offered), then
    /// one per linked plugin project (`plugins.links.json`) whose `templates` folder exists. A lock or link file that
    /// cannot be read offers nothing: `folio plugins list` reports it.
    public static func pluginSources(environment: [String: String]) -> [TemplateSource] {
        let folder = FolioPaths(environment: environment).dataHome.appendingPathComponent("plugins")
        var sources: [TemplateSource] = []
        let lock = FileManager.default.contents(atPath: folder.appendingPathComponent("plugins.lock.json").path).flatMap { try? JSONNode.parse($0) }
        let disabled = Set((lock?["disabled"]?.value.arrayValue ?? []).compactMap(\.stringValue))
        let installed = (lock?["plugins"]?.value.arrayValue ?? []).compactMap { entry -> (id: String, version: String)? in
            guard let id = entry.objectValue?["id"]?.stringValue, let version = entry.objectValue?["version"]?.stringValue else { return nil }
            return (id, version)
        }
        for (id, version) in installed.sorted(by: { $0.id < $1.id }) where !disabled.contains(id) && !id.isEmpty && !id.hasPrefix(".") && !id.contains("/") {
            let pluginFolder = folder.appendingPathComponent(id)
            // The package in the folder must be the version recorded: an upgrade killed between its swap and its lock
            // write leaves another version there, not loaded until checked, and its templates are not offered either.
            let package = FileManager.default.contents(atPath: pluginFolder.appendingPathComponent("folio-package.json").path).flatMap { try? JSONNode.parse($0) }
            guard package?["version"]?.value.stringValue == version else { continue }
            let templates = pluginFolder.appendingPathComponent("templates")
            if isFolder(templates) { sources.append(TemplateSource(name: pluginPrefix + id, location: templates.path)) }
        }
        let links = FileManager.default.contents(atPath: folder.appendingPathComponent("plugins.links.json").path).flatMap { try? JSONNode.parse($0) }
        for link in links?["links"]?.value.arrayValue ?? [] {
            guard let id = link.objectValue?["id"]?.stringValue, let templates = link.objectValue?["templates"]?.stringValue,
                  !disabled.contains(id), templates.hasPrefix("/"), isFolder(URL(fileURLWithPath: templates)) else { continue }
            sources.removeAll { $0.name == pluginPrefix + id }  // a linked build's templates replace the installed copy's
            sources.append(TemplateSource(name: pluginPrefix + id, location: templates))
        }
        return sources
    }

    private static func isFolder(_ url: URL) -> Bool {
        var info = stat()
        return stat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
