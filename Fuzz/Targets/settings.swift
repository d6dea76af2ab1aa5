// Fuzz target: settings.json (FolioCore's Settings.load), read from `$XDG_CONFIG_HOME/folio/settings.json`.
import FolioCore
import Foundation

let settingsHome = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("folio-fuzz-settings-\(getpid())")
let settingsEnvironment = ["HOME": settingsHome.path, "XDG_CONFIG_HOME": settingsHome.path]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let url = Settings.fileURL(environment: settingsEnvironment)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard (try? Data(bytes: bytes, count: count).write(to: url)) != nil else { return 0 }
    if let settings = try? Settings.load(environment: settingsEnvironment) { _ = settings.templateSources.count }
    return 0
}
