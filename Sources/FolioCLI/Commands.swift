import FoundationEssentials
import Glibc
import FolioCore
import FolioTemplates

/// Every `folio` subcommand. Each area adds its commands in its own `*Commands.swift` file and lists them here.
enum Commands {
    static var all: [Command] {
        documentCommands + templateCommands + launchCommands + pluginCommands + syncCommands + [shareCommand] + conflictCommands + completionCommands + [outdatedCommand]
    }

    /// `folio` with no command: the launch screen on a terminal, help otherwise.
    static func runDefault(io: CommandIO) -> Int32 {
        if io.isInteractive {
            do { return try runInteractive(configPath: nil, scene: nil, open: [], io: io) } catch {
                io.error("folio: \(FolioCommandLine.oneLine(error))")
                return FolioCommandLine.failure
            }
        }
        io.out(FolioCommandLine.helpText(all))
        return 0
    }
}

/// Folio's own version.
public enum FolioVersion {
    public static let current = FolioRelease.version
}
