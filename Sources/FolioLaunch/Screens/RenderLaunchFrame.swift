import FoundationEssentials
import Glibc
import FolioCore
import FolioTerminal

/// Renders one launch frame for `folio launch --render`: plain text, or ANSI for `capability` when `ansi` is set.
/// The scene comes from `--config`, `./.folio/launch.json`, `$XDG_CONFIG_HOME/folio/launch.json` or the bundled default.
package func renderLaunchFrame(width: Int = 80, height: Int = 24, ansi: Bool = false, configPath: String? = nil,
                              workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              recent: [RecentDocument] = []) throws -> String {
    guard (1...1000).contains(width), (1...1000).contains(height) else {
        throw LaunchError.invalidFrameSize(width: width, height: height)
    }
    let scene = try LaunchScene.resolve(configPath: configPath, workingDirectory: workingDirectory, environment: environment)
    return renderLaunchFrame(scene: scene, width: width, height: height, ansi: ansi,
                             capability: ColorCapability.detect(environment: environment), recent: recent)
}

/// Renders one launch frame of `scene`; ANSI output is downgraded to `capability` (truecolor when unsure).
package func renderLaunchFrame(scene: LaunchScene, width: Int, height: Int, ansi: Bool, capability: ColorCapability = .truecolor,
                              recent: [RecentDocument] = [], templates: [TemplateSourceStatus] = []) -> String {
    let merged = RecentList.merge(pinned: scene.recent.pinned, recent: recent, count: RecentList.loadLimit)
    let layout = LaunchLayout(scene: scene, width: width, height: height, context: LaunchContext(recent: merged, templates: templates))
    return (ansi ? layout.grid.ansiText(capability: capability) : layout.grid.plainText()) + "\n"
}

/// Merging pinned paths with the recent list.
package enum RecentList {
    /// Pinned documents first (in the configured order), then the recent ones not pinned, `count` at most in all.
    package static func merge(pinned: [String], recent: [RecentDocument], count: Int) -> [RecentDocument] {
        var result = pinned.map { path in
            var document = recent.first(where: { $0.path == path }) ?? RecentDocument(path: path)
            document.pinned = true
            return document
        }
        result += recent.filter { !pinned.contains($0.path) }
        return Array(result.prefix(max(0, count)))
    }

    /// `list` with `path` pinned (moved after the other pinned documents) or unpinned (moved after them, before the
    /// rest: the list is pinned first, then newest first).
    package static func settingPin(_ pinned: Bool, path: String, in list: [RecentDocument]) -> [RecentDocument] {
        guard var document = list.first(where: { $0.path == path }) else { return list }
        document.pinned = pinned
        var rest = list.filter { $0.path != path }
        let pinnedCount = rest.prefix { $0.pinned }.count
        rest.insert(document, at: pinnedCount)
        return rest
    }
}
