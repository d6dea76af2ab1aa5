import Foundation
import FolioCore

/// Every `folio` subcommand. Each area adds its commands in its own `*Commands.swift` file and lists them here.
enum Commands {
    static var all: [Command] {
        documentCommands + syncCommands
    }

    /// `folio` with no command: the launch screen on a terminal, help otherwise.
    static func runDefault(io: CommandIO) -> Int32 {
        io.out(FolioCommandLine.helpText(all))
        return 0
    }
}

/// Folio's own version.
public enum FolioVersion {
    public static let current = "0.1.0"
}
