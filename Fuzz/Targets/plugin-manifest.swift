// Fuzz target: plugin manifests (FolioPlugins' PluginManifest.load), read from a file as the plugin host does.
import FolioPlugins
import Foundation

let manifestURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("folio-fuzz-plugin-\(getpid()).json")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPluginManifest(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard (try? Data(bytes: bytes, count: count).write(to: manifestURL)) != nil else { return 0 }
    if let manifest = try? PluginManifest.load(from: manifestURL) { _ = manifest.editors.count }
    return 0
}
