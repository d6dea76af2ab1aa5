// FolioSync
