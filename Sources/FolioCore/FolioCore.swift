// FolioCore
