// FolioPlugins
