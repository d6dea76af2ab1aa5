import FolioCLITestSupport
import Foundation

extension ConfinementProbePlugin {
    /// Compiles the plugin into `folder` (mode 0755); Folio generates its manifest on first use.
    @discardableResult
    static func build(in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chmod(folder.path, 0o755)
        return try PluginFixtures.compilePlugin(source, named: "libprobe.so", in: folder)
    }
}
