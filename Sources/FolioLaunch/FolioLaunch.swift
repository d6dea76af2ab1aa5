// FolioLaunch
