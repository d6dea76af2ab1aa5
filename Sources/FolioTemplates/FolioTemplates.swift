// FolioTemplates
