// FolioCLI
