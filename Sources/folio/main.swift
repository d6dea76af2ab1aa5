import FolioCLI

FolioCommandLine.main()
