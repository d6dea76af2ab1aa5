// The editor host speaks the plugin boundary's own types (`ViewSelection`, the render request and the plugin
// view) from FolioPluginWire, a small module without Foundation that the plugin side imports too.
@_exported import FolioPluginWire
