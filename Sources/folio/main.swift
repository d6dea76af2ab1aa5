import FolioCLI
