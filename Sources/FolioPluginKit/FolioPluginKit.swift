// FolioPluginKit
