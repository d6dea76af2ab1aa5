import FolioCore
import FoundationEssentials
import Glibc

extension EditorRegistry {
    /// Every plugin found, loadable or not, in search-path order of discovery.
    public var allPlugins: [DiscoveredPlugin] { plugins + inactive.map(\.plugin) }

    /// The plugin with plugin id or editor id `id`, loadable or not.
    public func anyPlugin(_ id: String) -> DiscoveredPlugin? {
        allPlugins.first { $0.manifest.id == id } ?? allPlugins.first { $0.manifest.editors.contains { $0.id == id } }
    }

    /// The state of `plugin`: disabled or changed (not loaded), quarantined (its build crashed or timed out three
    /// times within ten minutes), else enabled.
    public func state(of plugin: DiscoveredPlugin) -> PluginState {
        if let inactive = inactive.first(where: { $0.plugin == plugin }) { return inactive.state }
        if let record = isolation.quarantine?.quarantined(library: plugin.library, plugin: plugin.manifest.id, bundled: plugin.bundled) { return .quarantined(record) }
        return .enabled
    }
}
