// FolioMustache
