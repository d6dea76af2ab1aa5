import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

extension LaunchScene {
    /// The bundled default `launch.json`. It is embedded as a string rather than shipped as a resource so the
    /// `folio` binary stays a single relocatable file; `defaultScene` builds the same scene in Swift and a test
    /// keeps the two equal.
    package static let defaultJSON = #"""
    {
      "title": "Folio",
      "subtitle": "Documents from templates, kept as history",
      "actions": [
        { "kind": "new-document", "label": "New Document", "contentType": "public.plain-text", "key": "n" },
        { "kind": "choose-template", "label": "Choose a Template…", "key": "t" },
        { "kind": "open-recent", "label": "Open Recent", "key": "r" },
        { "kind": "open", "label": "Open…", "key": "o" },
        { "kind": "command", "label": "Update Templates", "run": ["templates", "update"], "key": "u" }
      ],
      "banners": [
        { "text": " ,_,\n(o,o)\n{`\"'}\n-\"-\"-", "color": "yellow",
          "anchor": { "x": "title.minX", "y": "title.minY", "dx": -28, "dy": 5 } },
        { "text": " \\|/\n--●--\n _|_\n|___|", "color": "green",
          "anchor": { "x": "title.maxX", "y": "title.minY", "dx": 20, "dy": 5 } },
        { "text": " ✦\n    ·\n  ✧", "color": "bright-magenta",
          "anchor": { "x": "title.maxX", "y": "title.minY", "dx": 6, "dy": -2 } }
      ],
      "background": { "kind": "gradient", "from": "#1e1e2e", "to": "#313244" },
      "recent": { "pinned": [] },
      "footer": "⏎ open · / filter · ? help · q quit",
      "documentsFolder": "."
    }
    """#

    /// The default scene declared in Swift; equal to the parsed `defaultJSON`.
    package static var defaultScene: LaunchScene {
        LaunchScene("Folio") {
            NewDocumentButton("New Document", contentType: "public.plain-text", key: "n")
            NewDocumentButton("Choose a Template…", forTemplateGroup: nil, key: "t")
            OpenRecentButton("Open Recent", key: "r")
            OpenButton("Open…", key: "o")
            CommandButton("Update Templates", run: ["templates", "update"], key: "u")
        }
        .subtitle("Documents from templates, kept as history")
        .overlayAccessory { geometry in
            Banner(" ,_,\n(o,o)\n{`\"'}\n-\"-\"-", color: "yellow")
                .position(x: geometry.titleViewFrame.minX - 28, y: geometry.titleViewFrame.minY + 5)
            Banner(" \\|/\n--●--\n _|_\n|___|", color: "green")
                .position(x: geometry.titleViewFrame.maxX + 20, y: geometry.titleViewFrame.minY + 5)
            Banner(" ✦\n    ·\n  ✧", color: "bright-magenta")
                .position(x: geometry.titleViewFrame.maxX + 6, y: geometry.titleViewFrame.minY - 2)
        }
        .background(.gradient(from: "#1e1e2e", to: "#313244"))
        .recentDocuments(count: RecentOptions.asManyAsFit)
        .footer("⏎ open · / filter · ? help · q quit")
        .documentsFolder(".")
    }

    /// The bundled default scene parsed from `defaultJSON` (falls back to `defaultScene`, which a test keeps equal).
    package static var bundled: LaunchScene {
        (try? parse(json: Data(defaultJSON.utf8), file: "<bundled launch.json>", baseDirectory: nil)) ?? defaultScene
    }

    /// Finds the launch configuration: `--config FILE`, else `./.folio/launch.json`, else
    /// `$XDG_CONFIG_HOME/folio/launch.json`, else the bundled default. Errors name the file, key, line and column.
    package static func resolve(configPath: String?, workingDirectory: URL, environment: [String: String]) throws -> LaunchScene {
        if let configPath {
            let url = configPath.hasPrefix("/") ? URL(fileURLWithPath: configPath) : workingDirectory.appendingPathComponent(configPath)
            return try load(from: url)
        }
        let candidates = [
            workingDirectory.appendingPathComponent(".folio/launch.json"),
            FolioPaths(environment: environment).configHome.appendingPathComponent("launch.json"),
        ]
        for url in candidates where FileManager.default.fileExists(atPath: url.path) { return try load(from: url) }
        return bundled
    }
}
