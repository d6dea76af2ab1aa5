import FolioPluginHost
#if canImport(Glibc)
import Glibc
#endif

// The plugin host process: see PluginHostMain. Nothing else runs here.
exit(PluginHostMain.run(CommandLine.arguments))
