// The plugin boundary's shared types (`ViewSelection`, the render request and the plugin view) live in
// FolioPluginWire, which the plugin side imports too; FolioPlugins' users get them as before.
@_exported import FolioPluginWire
