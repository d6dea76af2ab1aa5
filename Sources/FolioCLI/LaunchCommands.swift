import Foundation
import FolioCore
import FolioLaunch

/// The recent documents as the launcher lists them.
struct RecentDocumentsAdapter: RecentDocumentsProvider {
    let recent: RecentDocuments

    func recentDocuments(limit: Int) -> [RecentDocument] {
        recent.load().prefix(limit).map { entry in
            let type = entry.contentType.split(separator: ".").last.map(String.init) ?? entry.contentType
            return RecentDocument(path: entry.path, title: entry.title, detail: type)
        }
    }
}

let launchCommands: [Command] = [
    Command("launch", usage: "launch [--render] [--width W --height H] [--ansi] [--config FILE] [--scene NAME]",
            summary: "Open the launch screen (or print one frame of it with --render)",
            options: ["--width", "--height", "--config", "--scene"], flags: ["--render", "--ansi"]) { args, io in
        try args.expectAtMost(0)
        if args.flag("--render") || !io.isInteractive {
            let recent = RecentDocumentsAdapter(recent: RecentDocuments(environment: io.environment))
            let frame = try renderLaunchFrame(width: try args.int("--width") ?? 80, height: try args.int("--height") ?? 24,
                                              ansi: args.flag("--ansi"), configPath: args.value("--config").map { io.url($0).path },
                                              workingDirectory: io.currentDirectory, environment: io.environment,
                                              recent: recent.recentDocuments(limit: 50))
            io.out(frame)
            return 0
        }
        return try runInteractive(configPath: args.value("--config").map { io.url($0).path }, scene: args.value("--scene"), open: nil, io: io)
    },
]
