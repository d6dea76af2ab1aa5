// FolioTerminal
