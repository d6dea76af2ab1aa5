// FolioGit
